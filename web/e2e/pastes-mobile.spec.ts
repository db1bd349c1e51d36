import { adminToken, createPaste, useAdminSession } from "./support/factories";
import {
  ADMIN_USERNAME,
  expect,
  failedResource,
  saveScreenshot,
  setTheme,
  test,
  unique,
} from "./support/fixtures";

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

const overflow = (page: import("@playwright/test").Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

test.describe("paste view at 390 px", () => {
  test("fits the screen, wraps long lines and does not shift while loading", async ({ page, request }) => {
    const token = await adminToken(request);
    const longLine = `${"averyveryverylongwordwithoutanyspaces".repeat(6)} and a url https://example.com/${"x".repeat(120)}`;
    const { slug } = await createPaste(request, `Bearer ${token}`, {
      content: `${longLine}\nsecond line`,
      remark: "Mobile paste",
      maxViews: 10,
    });
    // Record layout shifts from the first paint on.
    await page.addInitScript(() => {
      (window as unknown as { __cls: number }).__cls = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & {
          value: number;
          hadRecentInput: boolean;
        })[]) {
          if (!entry.hadRecentInput) (window as unknown as { __cls: number }).__cls += entry.value;
        }
      }).observe({ type: "layout-shift", buffered: true });
    });
    await page.goto(`/paste/${slug}`);
    await expect(page.getByRole("heading", { level: 1, name: "Mobile paste" })).toBeVisible();
    await expect(page.getByTestId("plain-text")).toContainText("second line");
    await expect(page.getByTestId("paste-views")).toHaveText("9 of 10 views left");
    await page.waitForTimeout(500);
    const cls = await page.evaluate(() => (window as unknown as { __cls: number }).__cls);
    expect(cls).toBeLessThan(0.1);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    // The toolbar wraps instead of overflowing; every action is reachable.
    for (const name of ["Copy text", "Copy link", "Download .txt", "QR code"]) {
      await expect(page.getByRole("button", { name })).toBeInViewport({ ratio: 0.5 });
    }
    await setTheme(page, "light");
    await saveScreenshot(page, "mobile-paste-view-light");

    // Unwrapped, the text scrolls inside its box, not the page.
    await page.getByRole("button", { name: "Wrap lines" }).click();
    expect(await overflow(page)).toBeLessThanOrEqual(0);

    await page.getByRole("button", { name: "Open menu" }).click();
    await page.getByRole("button", { name: "Switch language to 中文" }).click();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("button", { name: "复制文本" })).toBeVisible();
    await setTheme(page, "dark");
    await expect(page.getByTestId("paste-views")).toHaveText("剩余 7 / 10 次查看");
    await saveScreenshot(page, "mobile-paste-view-dark-zh");
    expect(await overflow(page)).toBeLessThanOrEqual(0);
  });

  test("the gone pages and Home fit the screen", async ({ page, consoleGuard }) => {
    consoleGuard.allow(failedResource(404));
    consoleGuard.allow(failedResource(410));
    await page.goto("/paste/missing-paste-x1");
    await expect(page.getByRole("heading", { name: "Paste not found" })).toBeVisible();
    expect(await overflow(page)).toBeLessThanOrEqual(0);

    // Expiry cannot be set in the past, so the server's answer for an expired paste is replayed.
    await page.route("**/api/paste/expired-one", (route) =>
      route.fulfill({
        status: 410,
        contentType: "application/json",
        body: JSON.stringify({
          code: 410,
          success: false,
          error: "paste_expired",
          message: "Paste has expired or exceeded its maximum views",
        }),
      }),
    );
    await page.goto("/paste/expired-one");
    await expect(page.getByRole("heading", { name: "This paste has expired" })).toBeVisible();
    await saveScreenshot(page, "mobile-paste-expired-light");

    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1, name: "Online clipboard" })).toBeVisible();
    await expect(page.locator(".cm-editor")).toBeVisible();
    // Phones show the editor alone; the preview is a tab away.
    await expect(page.getByRole("button", { name: "Side by side" })).toBeHidden();
    await page.getByRole("button", { name: "Preview" }).click();
    await expect(page.getByText("The preview appears here as you write.")).toBeVisible();
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await saveScreenshot(page, "mobile-home-light");
  });

  test("text management shows cards", async ({ page, request }) => {
    const token = await adminToken(request);
    const tag = unique("cards");
    const { slug } = await createPaste(request, `Bearer ${token}`, {
      content: `card content ${tag} ${"long ".repeat(80)}`,
      remark: `${tag} remark`,
      password: "pw",
      maxViews: 4,
    });
    await useAdminSession(page, token, "/admin/text-management");
    await page.getByLabel("Search pastes").fill(tag);
    const cards = page.getByRole("list", { name: "Text shares" });
    const card = cards.getByRole("listitem").filter({ hasText: slug });
    await expect(card).toBeVisible();
    await expect(page.getByRole("table")).toBeHidden();
    await expect(card).toContainText("0 / 4");
    await expect(card).toContainText(ADMIN_USERNAME);
    await expect(card.getByRole("img", { name: "Password protected" })).toBeVisible();
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await card.getByRole("button", { name: `Preview ${slug}` }).click();
    await expect(page.getByRole("dialog", { name: `Paste ${slug}` })).toContainText(`card content ${tag}`);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await page.keyboard.press("Escape");
    await card.getByRole("button", { name: `Edit ${slug}` }).click();
    const edit = page.getByRole("dialog", { name: `Edit paste ${slug}` });
    await expect(edit.getByLabel("Password", { exact: true })).toHaveValue("keep");
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await page.keyboard.press("Escape");
    await saveScreenshot(page, "mobile-text-management-light");
  });
});
