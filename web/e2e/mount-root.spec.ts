import { adminToken, useAdminSession } from "./support/factories";
import { expect, failedResource, test } from "./support/fixtures";

/**
 * The mount form's "folder inside the storage": a new mount on the default
 * LOCAL storage (where file shares live) is offered a folder of its own, a
 * reserved folder is refused in the form, and a folder another mount already
 * shows takes the admin's confirmation. Both languages.
 */
const run = Date.now().toString(36);

test("mount root: a folder of its own on the default storage, reserved names refused, overlap confirmed", async ({
  page,
  request,
  consoleGuard,
}) => {
  // The first save of the overlapping mount is answered 409 on purpose.
  consoleGuard.allow(failedResource(409));
  const token = await adminToken(request);
  const auth = { Authorization: `Bearer ${token}` };
  const configs = (await (await request.get("/api/s3-configs", { headers: auth })).json()).data as Array<{
    id: string;
    name: string;
    is_default: boolean;
  }>;
  const defaultConfig = configs.find((c) => c.is_default)!;
  const created: string[] = [];
  await useAdminSession(page, token, "/admin/mount-management");
  try {
    await page.getByRole("button", { name: "New mount" }).click();
    const dialog = page.getByRole("dialog", { name: "New mount" });
    await dialog.getByLabel("Name").fill(`Team ${run}`);
    await dialog.getByLabel("Storage config").selectOption({ label: defaultConfig.name });
    await dialog.getByLabel("Mount path").fill(`/team-${run}`);
    const folder = dialog.getByLabel("Folder inside the storage");
    await expect(folder).toHaveValue(`team-${run}`);
    await expect(dialog).toContainText("File shares are never shown");

    await folder.fill(".clipshare-shares");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog).toContainText("Folder .clipshare-shares is reserved by ClipShare");
    await folder.fill(`teams/${run}`);
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog).toHaveCount(0);
    // The list names the folder after the storage.
    await expect(page.locator(`tr[data-row="/team-${run}"]`)).toContainText(`/ teams/${run}`);

    const mounts = async () =>
      (await (await request.get("/api/admin/mounts", { headers: auth })).json()).data as Array<{
        id: string;
        mount_path: string;
        root: string;
      }>;
    const team = (await mounts()).find((m) => m.mount_path === `/team-${run}`)!;
    created.push(team.id);
    expect(team.root).toBe(`teams/${run}`);

    // A second mount of the same storage on the enclosing folder: asked, then confirmed.
    await page.evaluate(() => localStorage.setItem("language", "zh"));
    await page.reload();
    await page.getByRole("button", { name: "新建挂载" }).click();
    const zhDialog = page.getByRole("dialog", { name: "新建挂载" });
    await zhDialog.getByLabel("名称").fill(`All ${run}`);
    await zhDialog.getByLabel("存储配置").selectOption({ label: defaultConfig.name });
    await zhDialog.getByLabel("挂载路径").fill(`/all-${run}`);
    await zhDialog.getByLabel("存储中的文件夹").fill("teams");
    await zhDialog.getByRole("button", { name: "保存" }).click();
    await expect(zhDialog).toContainText("另一个挂载已显示此文件夹或其中的文件夹");
    await zhDialog.getByText("在两个挂载中都显示这些文件").click();
    await zhDialog.getByRole("button", { name: "保存" }).click();
    await expect(zhDialog).toHaveCount(0);
    const all = (await mounts()).find((m) => m.mount_path === `/all-${run}`)!;
    created.push(all.id);
    expect(all.root).toBe("teams");
  } finally {
    await page.evaluate(() => localStorage.setItem("language", "en")).catch(() => undefined);
    // The default storage stays free of mounts for the specs that delete it.
    for (const id of created) await request.delete(`/api/admin/mounts/${id}`, { headers: auth });
  }
});
