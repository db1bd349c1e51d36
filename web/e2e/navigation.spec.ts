import { adminToken, useAdminSession } from "./support/factories";
import { expect, failedResource, test } from "./support/fixtures";

test.describe("routes", () => {
  test("public routes render with localized titles", async ({ page, consoleGuard }) => {
    // A share link to nothing answers 404 (the page then says so).
    consoleGuard.allow(failedResource(404));
    const routes: [string, string, RegExp][] = [
      ["/", "Online clipboard - ClipShare", /online clipboard/i],
      ["/upload", "Upload files - ClipShare", /upload files/i],
      ["/admin", "Admin panel - ClipShare", /sign in/i],
      ["/paste/hello-world", "View paste - ClipShare", /paste not found/i],
      ["/file/report-2026", "File preview - ClipShare", /shared file/i],
      ["/mount-explorer", "Mount explorer - ClipShare", /mount explorer/i],
      ["/mount-explorer/team/docs", "Mount explorer - ClipShare", /mount explorer/i],
    ];
    for (const [path, title, heading] of routes) {
      await page.goto(path);
      await expect(page).toHaveTitle(title);
      await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
    }
  });

  test("unknown paths redirect home", async ({ page }) => {
    await page.goto("/no/such/page?x=1");
    await expect(page).toHaveURL(/\/$/);
    await expect(page).toHaveTitle("Online clipboard - ClipShare");
  });

  test("top navigation, source link and footer", async ({ page }) => {
    await page.goto("/");
    const nav = page.getByRole("navigation", { name: "Main navigation" });
    await nav.getByRole("link", { name: "Upload" }).click();
    await expect(page).toHaveURL(/\/upload$/);
    await nav.getByRole("link", { name: "Mount explorer" }).click();
    await expect(page).toHaveURL(/\/mount-explorer$/);
    await nav.getByRole("link", { name: "Admin" }).click();
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByRole("heading", { name: "Sign in", exact: true })).toBeVisible();
    await nav.getByRole("link", { name: "Home" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(nav.getByRole("link", { name: "Home" })).toHaveAttribute("aria-current", "page");

    const source = page.getByRole("link", { name: "Source code" });
    await expect(source).toHaveAttribute("href", /^https:\/\//);
    await expect(page.getByRole("contentinfo")).toContainText(`© ${new Date().getFullYear()} ClipShare`);
    await expect(page.getByRole("contentinfo")).toContainText("0.7.3");
  });

  test("a new page opens at the top; back and forward return to where each page was left", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 400 });
    const scrollY = () => page.evaluate(() => Math.round(window.scrollY));
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1, name: /online clipboard/i })).toBeVisible();
    const footerLink = page.getByRole("contentinfo").getByRole("link", { name: "API reference" });
    await footerLink.scrollIntoViewIfNeeded();
    const homeY = await scrollY();
    expect(homeY).toBeGreaterThan(100);
    await footerLink.click();
    await expect(page.getByRole("heading", { level: 2, name: "Pastes" })).toBeVisible();
    expect(await scrollY()).toBe(0);
    await page.evaluate(() => window.scrollTo(0, 1500));
    await expect.poll(scrollY).toBe(1500);

    await page.goBack();
    await expect(page).toHaveURL(/\/$/);
    await expect.poll(scrollY).toBe(homeY);
    // The reference is drawn again from its data after it loads: the position waits for it.
    await page.goForward();
    await expect(page).toHaveURL(/\/api-docs$/);
    await expect.poll(scrollY).toBe(1500);
  });

  test("every admin module route as admin", async ({ page, request }) => {
    const token = await adminToken(request);
    await useAdminSession(page, token);
    await expect(page).toHaveTitle("Admin panel - ClipShare");
    const modules: [string, string][] = [
      ["dashboard", "Dashboard"],
      ["text-management", "Text management"],
      ["file-management", "File management"],
      ["file-requests", "File requests"],
      ["collections", "Collections"],
      ["storage-config", "Storage configuration"],
      ["mount-management", "Mount management"],
      ["key-management", "Key management"],
      ["settings", "Settings"],
    ];
    const sidebar = page.getByRole("navigation", { name: "Panel sections" });
    for (const [id, name] of modules) {
      await sidebar.getByRole("link", { name }).click();
      await expect(page).toHaveURL(new RegExp(`/admin/${id}$`));
      await expect(page).toHaveTitle(`${name} - ClipShare`);
      await expect(sidebar.getByRole("link", { name })).toHaveAttribute("aria-current", "page");
      await expect(page.getByRole("heading", { level: 2, name })).toBeAttached();
    }
    // Direct loads work too, and an unknown module falls back to the panel.
    await page.goto("/admin/key-management");
    await expect(page.getByRole("heading", { level: 2, name: "Key management" })).toBeVisible();
    await page.goto("/admin/nonsense");
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByRole("heading", { level: 2, name: "Dashboard" })).toBeVisible();
  });
});
