import { readFile } from "node:fs/promises";
import { adminToken, useAdminSession } from "./support/factories";
import { expect, failedResource, test, unique } from "./support/fixtures";

test.describe("key management", () => {
  test("create a key in the UI, use it over HTTP, edit and delete it", async ({
    page,
    request,
    consoleGuard,
  }) => {
    consoleGuard.allow(failedResource(401));
    const token = await adminToken(request);
    await useAdminSession(page, token, "/admin/key-management");
    await expect(page.getByRole("heading", { level: 2, name: "Key management" })).toBeVisible();

    const name = unique("ci-bot");
    await page.getByRole("button", { name: "Create key" }).click();
    const dialog = page.getByRole("dialog", { name: "Create API key" });
    await expect(dialog).toBeVisible();

    // Validation: name required, custom key pattern.
    await dialog.getByRole("button", { name: "Create key" }).click();
    await expect(dialog.getByText("Enter a name for the key.")).toBeVisible();
    await dialog.getByLabel("Name", { exact: true }).fill(name);
    await dialog.getByRole("checkbox", { name: "Use a custom key" }).check();
    await dialog.getByLabel("Custom key", { exact: true }).fill("has spaces!");
    await dialog.getByRole("button", { name: "Create key" }).click();
    await expect(dialog.getByText("Use only letters, digits, underscore and hyphen.")).toBeVisible();
    const customKey = `${name.replace(/[^A-Za-z0-9_-]/g, "")}_Key-1`;
    await dialog.getByLabel("Custom key", { exact: true }).fill(customKey);

    // Permissions: text (preselected) + mount view; WebDAV read off.
    await expect(dialog.getByRole("checkbox", { name: "Text sharing" })).toBeChecked();
    await dialog.getByRole("checkbox", { name: "Mount view" }).check();
    await dialog.getByLabel("Role").selectOption("GUEST");
    await dialog.getByLabel("Base path").fill("/projects/alpha");
    await dialog.getByLabel("Expires after").selectOption("custom");
    await dialog.getByLabel("Number of days").fill("10");
    await dialog.getByRole("checkbox", { name: "Guest key" }).check();
    await dialog.getByRole("button", { name: "Create key" }).click();

    // The full key, once, with a copy button.
    const created = page.getByRole("dialog", { name: "API key created" });
    await expect(created).toBeVisible();
    const fullKey = await created.getByLabel("New API key").inputValue();
    expect(fullKey).toBe(customKey);
    await created.getByRole("button", { name: "Copy key" }).click();
    await expect(page.getByText("Copied", { exact: true }).first()).toBeVisible();
    await created.getByRole("button", { name: "Done" }).click();
    await expect(created).toBeHidden();

    // Listed masked, never in full.
    const row = page.getByRole("row", { name: new RegExp(name) });
    await expect(row).toBeVisible();
    await expect(row).not.toContainText(fullKey);
    await expect(row).toContainText("Mount view");
    await expect(row).toContainText("/projects/alpha");
    await expect(row).toContainText("Guest");

    // Use the key like curl would.
    const check = await request.get("/api/test/api-key", { headers: { Authorization: `ApiKey ${fullKey}` } });
    expect(check.status()).toBe(200);
    const data = (await check.json()).data;
    expect(data.permissions).toMatchObject({
      text: true,
      mount_view: true,
      file_share: false,
      webdav_read: false,
    });
    expect(data.key_info.basic_path).toBe("/projects/alpha");

    // Edit: rename and add file sharing.
    await row.getByRole("button", { name: `Edit key ${name}` }).click();
    const edit = page.getByRole("dialog", { name: "Edit API key" });
    await expect(edit.getByLabel("Name", { exact: true })).toHaveValue(name);
    await expect(edit.getByLabel("Role")).toHaveValue("GUEST");
    await edit.getByLabel("Name", { exact: true }).fill(`${name}-renamed`);
    await edit.getByRole("checkbox", { name: "File sharing" }).check();
    await edit.getByLabel("Expires after").selectOption("never");
    await edit.getByRole("button", { name: "Save" }).click();
    await expect(edit).toBeHidden();
    const renamed = page.getByRole("row", { name: new RegExp(`${name}-renamed`) });
    await expect(renamed).toContainText("File sharing");
    await expect(renamed).toContainText("Never");
    const after = await request.get("/api/test/api-key", { headers: { Authorization: `ApiKey ${fullKey}` } });
    expect((await after.json()).data.permissions.file_share).toBe(true);

    // Delete with confirmation.
    await renamed.getByRole("button", { name: `Delete key ${name}-renamed` }).click();
    const confirm = page.getByRole("alertdialog", { name: `Delete the key "${name}-renamed"?` });
    await expect(confirm).toBeVisible();
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(renamed).toBeVisible();
    await renamed.getByRole("button", { name: `Delete key ${name}-renamed` }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
    await expect(page.getByRole("alertdialog")).toBeHidden();
    await expect(page.getByRole("row", { name: new RegExp(name) })).toHaveCount(0);
    const gone = await request.get("/api/test/api-key", { headers: { Authorization: `ApiKey ${fullKey}` } });
    expect(gone.status()).toBe(401);
  });

  test("a random key is generated when no custom key is given", async ({ page, request }) => {
    const token = await adminToken(request);
    await useAdminSession(page, token, "/admin/key-management");
    const name = unique("random");
    await page.getByRole("button", { name: "Create key" }).click();
    const dialog = page.getByRole("dialog", { name: "Create API key" });
    await dialog.getByLabel("Name", { exact: true }).fill(name);
    await dialog.getByLabel("Expires after").selectOption("1d");
    await dialog.getByRole("button", { name: "Create key" }).click();
    const key = await page
      .getByRole("dialog", { name: "API key created" })
      .getByLabel("New API key")
      .inputValue();
    expect(key.length).toBeGreaterThanOrEqual(12);
    await page.keyboard.press("Escape");
    const row = page.getByRole("row", { name: new RegExp(name) });
    await expect(row).toBeVisible();
    await expect(row.getByRole("cell").first()).toContainText(key.slice(0, 4));
  });

  test("the new key's dialog hands out ShareX configs that upload, and the Flameshot one-liner", async ({
    page,
    request,
  }) => {
    const token = await adminToken(request);
    await useAdminSession(page, token, "/admin/key-management");
    await page.getByRole("button", { name: "Create key" }).click();
    const dialog = page.getByRole("dialog", { name: "Create API key" });
    await dialog.getByLabel("Name", { exact: true }).fill(unique("sharex"));
    await dialog.getByRole("checkbox", { name: "File sharing" }).check();
    await dialog.getByRole("button", { name: "Create key" }).click();
    const created = page.getByRole("dialog", { name: "API key created" });
    const key = await created.getByLabel("New API key").inputValue();

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      created.getByRole("button", { name: "ShareX config: images and files" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^clipshare-file-.+\.sxcu$/);
    const config = JSON.parse(await readFile(await download.path(), "utf8"));
    expect(config.Headers.Authorization).toBe(`ApiKey ${key}`);

    // What ShareX then sends: the file under the configured form field name.
    const upload = await request.post(config.RequestURL, {
      headers: config.Headers,
      multipart: {
        [config.FileFormName]: { name: "shot.png", mimeType: "image/png", buffer: Buffer.from("png bytes") },
      },
    });
    expect(upload.status()).toBe(201);
    const shareUrl: string = (await upload.json()).data.share_url;
    expect(config.URL).toBe("{json:data.share_url}");
    await expect(created.getByLabel("Flameshot / curl one-liner (prints the share link)")).toHaveValue(
      new RegExp(`^flameshot gui -r \\| curl .*ApiKey ${key}`),
    );
    await page.goto(shareUrl);
    await expect(page.getByText("shot.png").first()).toBeVisible();
  });
});
