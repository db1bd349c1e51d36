import { Permission } from "@clipshare/shared";
import { adminToken, createApiKey, useAdminSession } from "./support/factories";
import { expect, SCREENSHOT_DIR, saveScreenshot, setTheme, test, unique } from "./support/fixtures";

/** The main screens in both themes, saved under artifacts/screenshots/ (no console errors allowed). */
for (const theme of ["light", "dark"] as const) {
  test(`main screens (${theme})`, async ({ page, request }) => {
    await page.goto("/");
    await setTheme(page, theme);
    await expect(page.getByRole("heading", { level: 1, name: "Online clipboard" })).toBeVisible();
    await saveScreenshot(page, `home-${theme}`);

    await page.goto("/admin");
    await expect(page.getByRole("heading", { name: "Sign in", exact: true })).toBeVisible();
    await saveScreenshot(page, `sign-in-${theme}`);

    await page.goto("/upload");
    await expect(page.getByRole("heading", { level: 1, name: "Upload files" })).toBeVisible();
    await saveScreenshot(page, `upload-${theme}`);

    const token = await adminToken(request);
    await createApiKey(request, token, {
      name: unique(`screens-${theme}`),
      permissions: Permission.TEXT | Permission.FILE_SHARE | Permission.MOUNT_VIEW | Permission.WEBDAV_READ,
      basic_path: "/shared",
    });
    await useAdminSession(page, token, "/admin");
    await expect(page.getByRole("heading", { level: 2, name: "Dashboard" })).toBeVisible();
    await saveScreenshot(page, `admin-dashboard-${theme}`);

    await page.goto("/admin/key-management");
    await expect(page.getByRole("table")).toBeVisible();
    await saveScreenshot(page, `key-management-${theme}`);
    await page.getByRole("button", { name: "Create key" }).click();
    await expect(page.getByRole("dialog", { name: "Create API key" })).toBeVisible();
    await page.screenshot({
      path: `${SCREENSHOT_DIR}key-create-dialog-${theme}.png`,
    });
    await page.keyboard.press("Escape");

    await page.goto("/admin/settings");
    await expect(page.getByRole("region", { name: "Uploads" }).getByLabel("Maximum upload size")).toHaveValue(
      /\d+/,
    );
    await saveScreenshot(page, `settings-${theme}`);

    await page.getByRole("button", { name: "Switch language to 中文" }).click();
    await expect(page.getByRole("heading", { name: "管理面板" })).toBeVisible();
    await saveScreenshot(page, `settings-zh-${theme}`);
    await page.getByRole("button", { name: "切换语言为 English" }).click();
  });
}
