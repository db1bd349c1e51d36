import { rmSync } from "node:fs";
import { Permission } from "@clipshare/shared";
import {
  adminToken,
  createApiKey,
  createFileShare,
  createLocalStorage,
  signInWithKeyViaForm,
  useAdminSession,
} from "./support/factories";
import { expect, saveScreenshot, test, unique } from "./support/fixtures";
import type { TestFile } from "./support/test-files";

test.describe("file management", () => {
  test("search, preview, edit share settings, batch delete with a delete mode", async ({ page, request }) => {
    const token = await adminToken(request);
    const auth = { Authorization: `Bearer ${token}` };
    const tag = unique("fm").replace(/[^a-z0-9]/gi, "");
    const first = await createFileShare(request, token, `${tag}-alpha.txt`, "alpha contents\n");
    const second = await createFileShare(request, token, `${tag}-beta.csv`, "a,b\n1,2\n");

    await useAdminSession(page, token, "/admin/file-management");
    await expect(page.getByRole("heading", { level: 2, name: "File management" })).toBeVisible();
    await expect(
      page.getByRole("list", { name: "Storage usage" }).getByRole("listitem", { name: "Local storage" }),
    ).toContainText(/\d+ files/);

    await page.getByLabel("Search files").fill(tag);
    const rows = page.getByRole("table", { name: "File shares" }).getByRole("row");
    await expect(rows).toHaveCount(3); // header + 2
    await expect(page.getByText("1–2 of 2")).toBeVisible();

    // Preview as the owner.
    await page.getByRole("button", { name: `Preview ${tag}-alpha.txt` }).click();
    const preview = page.getByRole("dialog", { name: `${tag}-alpha.txt` });
    await expect(preview.locator("pre")).toContainText("alpha contents");
    await preview.getByRole("button", { name: "Close" }).first().click();

    // Edit: remark, link suffix, max views, password.
    await page.getByRole("button", { name: `Edit ${tag}-alpha.txt` }).click();
    const edit = page.getByRole("dialog", { name: "Edit share settings" });
    const newSlug = `${tag}-renamed`;
    // The fixed part of the link stands before the suffix, as on the upload form.
    await expect(edit.getByText("/file/", { exact: true })).toBeVisible();
    await edit.getByLabel("Link suffix").fill(newSlug);
    await edit.getByLabel("Remark").fill("edited in e2e");
    await edit.getByLabel("Max views").fill("7");
    await edit.getByLabel("Password", { exact: true }).selectOption("set");
    await edit.getByLabel("New password").fill("pw-123");
    await edit.getByRole("button", { name: "Save" }).click();
    await expect(edit).toBeHidden();
    const row = page.getByRole("row", { name: new RegExp(`${tag}-alpha.txt`) });
    await expect(row).toContainText("edited in e2e");
    await expect(row).toContainText(`/file/${newSlug}`);
    await expect(row).toContainText("0 / 7");
    await expect(row).toContainText("Password");
    const detail = (await (await request.get(`/api/files/${first.id}`, { headers: auth })).json()).data;
    expect(detail).toMatchObject({
      slug: newSlug,
      remark: "edited in e2e",
      max_views: 7,
      has_password: true,
    });
    await saveScreenshot(page, "file-management");

    // Select both and delete the records only: the stored files stay.
    await page.getByRole("checkbox", { name: "Select all on this page" }).check();
    await page.getByRole("button", { name: "Delete selected (2)" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Delete 2 shares?" });
    await confirm.getByRole("radio", { name: /Delete shares only/ }).check();
    await confirm.getByRole("button", { name: "Delete" }).click();
    await expect(confirm).toBeHidden();
    await expect(page.getByText("No files match.")).toBeVisible();
    for (const id of [first.id, second.id]) {
      expect((await request.get(`/api/files/${id}`, { headers: auth })).status()).toBe(404);
    }
  });

  test("an API key with file sharing uploads to public storage only and manages only its own shares", async ({
    page,
    request,
  }) => {
    const token = await adminToken(request);
    const auth = { Authorization: `Bearer ${token}` };
    const adminFile = await createFileShare(request, token, `${unique("admin-only")}.txt`, "admin");
    // A private (admin-only) LOCAL config the key must not see.
    const { id: privateId, root: privateRoot } = await createLocalStorage(
      request,
      token,
      unique("Private disk"),
    );
    const key = await createApiKey(request, token, {
      name: unique("uploader"),
      permissions: Permission.FILE_SHARE,
    });

    try {
      await signInWithKeyViaForm(page, key.key);
      await expect(page.getByRole("heading", { name: "User panel" })).toBeVisible();

      await page.goto("/upload");
      const storage = page.getByLabel("Storage", { exact: true });
      await expect(storage.locator("option")).toHaveCount(1);
      await expect(storage.locator("option")).toContainText("Local storage");
      const file: TestFile = {
        name: `${unique("by-key")}.txt`,
        mimeType: "text/plain",
        buffer: Buffer.from("key upload"),
      };
      await page.locator('input[type="file"]').setInputFiles(file);
      await page.getByRole("button", { name: "Upload (1)" }).click();
      await expect(
        page.getByRole("list", { name: "Files to upload" }).getByRole("listitem", { name: file.name }),
      ).toHaveAttribute("data-status", "success");

      await page.goto("/admin/file-management");
      const table = page.getByRole("table", { name: "File shares" });
      await expect(table.getByRole("row", { name: new RegExp(file.name) })).toBeVisible();
      await expect(table.getByRole("row", { name: new RegExp(adminFile.slug) })).toHaveCount(0);
      await expect(page.getByRole("list", { name: "Storage usage" }).getByRole("listitem")).toHaveCount(1);
    } finally {
      await request.delete(`/api/s3-configs/${privateId}`, { headers: auth });
      rmSync(privateRoot, { recursive: true, force: true });
    }
  });
});
