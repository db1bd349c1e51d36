import { adminToken, useAdminSession } from "./support/factories";
import { expect, saveScreenshot, setTheme, test } from "./support/fixtures";

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

test.describe("390-wide viewport", () => {
  test("navigation lives in the menu", async ({ page }) => {
    await page.goto("/");
    const menuButton = page.getByRole("button", { name: "Open menu" });
    await expect(menuButton).toBeVisible();
    await expect(menuButton).toHaveAttribute("aria-expanded", "false");
    await expect(page.getByRole("navigation", { name: "Main navigation" })).toHaveCount(0);

    await menuButton.click();
    const nav = page.getByRole("navigation", { name: "Main navigation" });
    await expect(nav.getByRole("link")).toHaveText(["Home", "Upload", "Mount explorer", "Admin"]);
    await expect(page.getByRole("button", { name: "Close menu" })).toHaveAttribute("aria-expanded", "true");
    await setTheme(page, "light");
    await page.getByRole("button", { name: "Open menu" }).click();
    await saveScreenshot(page, "mobile-menu-light");

    await page
      .getByRole("navigation", { name: "Main navigation" })
      .getByRole("link", { name: "Upload" })
      .click();
    await expect(page).toHaveURL(/\/upload$/);
    await expect(page.getByRole("navigation", { name: "Main navigation" })).toHaveCount(0);

    // Theme and language switches are in the menu too.
    await page.getByRole("button", { name: "Open menu" }).click();
    await page.getByRole("button", { name: /^Theme: Light/ }).click();
    await expect(page.locator("html")).toHaveClass(/dark/);
    await saveScreenshot(page, "mobile-menu-dark");
    await page.getByRole("button", { name: "Switch language to 中文" }).click();
    await expect(
      page.getByRole("navigation", { name: "主导航" }).getByRole("link", { name: "首页" }),
    ).toBeVisible();

    // No horizontal scrolling.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - 390);
    expect(overflow).toBeLessThanOrEqual(0);
  });

  test("admin panel and key list fit the screen", async ({ page, request }) => {
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - 390);
    await page.goto("/admin");
    await expect(page.getByRole("heading", { name: "Sign in", exact: true })).toBeVisible();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await saveScreenshot(page, "mobile-sign-in-light");

    const token = await adminToken(request);
    await useAdminSession(page, token, "/admin/key-management");
    await expect(page.getByRole("heading", { name: "Admin panel" })).toBeVisible();
    const sidebar = page.getByRole("navigation", { name: "Panel sections" });
    await expect(sidebar.getByRole("link", { name: "Settings" })).toBeAttached();
    await expect(page.getByRole("heading", { level: 2, name: "Key management" })).toBeVisible();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await setTheme(page, "light");
    await saveScreenshot(page, "mobile-key-management-light");
    await setTheme(page, "dark");
    await saveScreenshot(page, "mobile-key-management-dark");

    await page.getByRole("button", { name: "Create key" }).click();
    await expect(page.getByRole("dialog", { name: "Create API key" })).toBeVisible();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.keyboard.press("Escape");

    await sidebar.getByRole("link", { name: "Settings" }).click();
    await expect(page.getByRole("heading", { level: 2, name: "Settings" })).toBeVisible();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await saveScreenshot(page, "mobile-settings-dark");

    // The account pages: the users list and one's own account.
    await sidebar.getByRole("link", { name: "Users" }).click();
    await expect(page.getByRole("heading", { name: "Users" }).first()).toBeVisible();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.getByRole("button", { name: "Create user" }).click();
    await expect(page.getByRole("dialog", { name: "Create user" })).toBeVisible();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.keyboard.press("Escape");
    await sidebar.getByRole("link", { name: "My account" }).click();
    await expect(page.getByRole("region", { name: "Sign-in details" })).toBeVisible();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await saveScreenshot(page, "mobile-profile-dark");
  });
});
