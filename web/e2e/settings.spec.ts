import { adminToken, useAdminSession } from "./support/factories";
import { adminPassword, expect, failedResource, test } from "./support/fixtures";

test.describe("settings", () => {
  test("upload and proxy settings save and persist", async ({ page, request }) => {
    const token = await adminToken(request);
    await useAdminSession(page, token, "/admin/settings");

    const uploads = page.getByRole("region", { name: "Uploads" });
    await expect(uploads.getByLabel("Maximum upload size")).toHaveValue(/\d+/);
    await uploads.getByLabel("Maximum upload size").fill("0");
    await uploads.getByRole("button", { name: "Save" }).click();
    await expect(uploads.getByText("Enter a whole number greater than 0.")).toBeVisible();

    await uploads.getByLabel("Maximum upload size").fill("2");
    await uploads.getByLabel("Unit").selectOption("GB");
    await uploads.getByLabel("WebDAV upload mode").selectOption("multipart");
    await uploads.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Settings saved.").first()).toBeVisible();

    const proxy = page.getByRole("region", { name: "Proxy signing" });
    const signAll = proxy.getByRole("checkbox", { name: "Sign all proxy links" });
    const wasChecked = await signAll.isChecked();
    await signAll.setChecked(!wasChecked);
    await proxy.getByLabel("Default signature lifetime (seconds)").fill("3600");
    await proxy.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Settings saved.").first()).toBeVisible();

    await page.reload();
    await expect(uploads.getByLabel("Maximum upload size")).toHaveValue("2");
    await expect(uploads.getByLabel("Unit")).toHaveValue("GB");
    await expect(uploads.getByLabel("WebDAV upload mode")).toHaveValue("multipart");
    await expect(signAll).toBeChecked({ checked: !wasChecked });
    await expect(proxy.getByLabel("Default signature lifetime (seconds)")).toHaveValue("3600");

    const public_ = await request.get("/api/system/max-upload-size");
    expect((await public_.json()).data).toMatchObject({
      max_upload_size: 2,
      max_upload_size_unit: "GB",
      max_upload_size_bytes: 2 * 1024 ** 3,
    });

    // Put the defaults back for other suites.
    await uploads.getByLabel("Maximum upload size").fill("100");
    await uploads.getByLabel("Unit").selectOption("MB");
    await uploads.getByLabel("WebDAV upload mode").selectOption("direct");
    await uploads.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Settings saved.").first()).toBeVisible();
  });

  test("changing the admin password on My account logs out", async ({ page, request, consoleGuard }) => {
    consoleGuard.allow(failedResource(401));
    const original = adminPassword();
    const changed = `${original}-changed`;
    const token = await adminToken(request);
    await useAdminSession(page, token, "/admin/profile");

    const account = page.getByRole("region", { name: "Sign-in details" });
    await account.getByRole("button", { name: "Update account" }).click();
    await expect(account.getByText("Enter your current password.")).toBeVisible();
    await expect(account.getByText("Enter a new username or a new password.")).toBeVisible();

    await account.getByLabel("Current password").fill(original);
    await account.getByLabel("New password", { exact: true }).fill(changed);
    await account.getByLabel("Confirm new password").fill(`${changed}x`);
    await account.getByRole("button", { name: "Update account" }).click();
    await expect(account.getByText("The passwords do not match.")).toBeVisible();

    await account.getByLabel("Confirm new password").fill(changed);
    await account.getByRole("button", { name: "Update account" }).click();

    await expect(page.getByRole("heading", { name: "Sign in", exact: true })).toBeVisible();
    await expect(page.getByText("Account updated. Please sign in again.")).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem("admin_token"))).toBeNull();
    const old = await request.get("/api/test/admin-token", { headers: { Authorization: `Bearer ${token}` } });
    expect(old.status()).toBe(401);

    // The new password works; then restore the original for the rest of the suite.
    await page.getByLabel("Username").fill("admin");
    await page.getByLabel("Password").fill(changed);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.getByRole("heading", { name: "Admin panel" })).toBeVisible();
    const newToken = await page.evaluate(() => localStorage.getItem("admin_token"));
    const restore = await request.post("/api/admin/change-password", {
      headers: { Authorization: `Bearer ${newToken}` },
      data: { currentPassword: changed, newPassword: original },
    });
    expect(restore.status()).toBe(200);
  });
});
