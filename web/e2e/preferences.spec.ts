import { expect, test } from "./support/fixtures";

test.describe("theme", () => {
  test("cycles auto → light → dark and persists across reload", async ({ page }) => {
    await page.emulateMedia({ colorScheme: "light" });
    await page.goto("/");
    const html = page.locator("html");
    const button = page.getByRole("button", { name: /^Theme:/ });

    await expect(button).toHaveAccessibleName(/Theme: Auto/);
    await expect(html).not.toHaveClass(/dark/);

    await button.click();
    await expect(button).toHaveAccessibleName(/Theme: Light/);
    await expect(html).not.toHaveClass(/dark/);
    expect(await page.evaluate(() => localStorage.getItem("themeMode"))).toBe("light");

    await button.click();
    await expect(button).toHaveAccessibleName(/Theme: Dark/);
    await expect(html).toHaveClass(/dark/);
    expect(await page.evaluate(() => localStorage.getItem("themeMode"))).toBe("dark");

    await page.reload();
    await expect(html).toHaveClass(/dark/);
    await expect(page.getByRole("button", { name: /^Theme:/ })).toHaveAccessibleName(/Theme: Dark/);

    await page.getByRole("button", { name: /^Theme:/ }).click();
    await expect(page.getByRole("button", { name: /^Theme:/ })).toHaveAccessibleName(/Theme: Auto/);
    expect(await page.evaluate(() => localStorage.getItem("themeMode"))).toBe("auto");
  });

  test("auto follows the system setting live", async ({ page }) => {
    await page.emulateMedia({ colorScheme: "light" });
    await page.goto("/");
    const html = page.locator("html");
    await expect(html).not.toHaveClass(/dark/);
    await page.emulateMedia({ colorScheme: "dark" });
    await expect(html).toHaveClass(/dark/);
    await page.emulateMedia({ colorScheme: "light" });
    await expect(html).not.toHaveClass(/dark/);
  });
});

test.describe("language", () => {
  test("switch changes visible text and persists", async ({ page }) => {
    await page.goto("/");
    const nav = page.getByRole("navigation", { name: "Main navigation" });
    await expect(nav.getByRole("link", { name: "Upload" })).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", "en");

    await page.getByRole("button", { name: "Switch language to 中文" }).click();
    const zhNav = page.getByRole("navigation", { name: "主导航" });
    await expect(zhNav.getByRole("link", { name: "上传" })).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
    await expect(page).toHaveTitle("在线剪贴板 - ClipShare");
    expect(await page.evaluate(() => localStorage.getItem("language"))).toBe("zh");

    await page.reload();
    await expect(
      page.getByRole("navigation", { name: "主导航" }).getByRole("link", { name: "首页" }),
    ).toBeVisible();
    await zhNav.getByRole("link", { name: "管理" }).click();
    await expect(page.getByRole("heading", { name: "登录" })).toBeVisible();
    await expect(page.getByRole("tab", { name: "API 密钥" })).toBeVisible();

    await page.getByRole("button", { name: "切换语言为 English" }).click();
    await expect(page.getByRole("heading", { name: "Sign in", exact: true })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem("language"))).toBe("en");
  });
});

test.describe("first visit", () => {
  test.use({ locale: "zh-CN" });
  test("follows the browser language", async ({ page }) => {
    await page.goto("/");
    await expect(
      page.getByRole("navigation", { name: "主导航" }).getByRole("link", { name: "挂载浏览" }),
    ).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem("language"))).toBeNull();
  });
});
