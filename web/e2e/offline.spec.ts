import { expect, failedResource, test } from "./support/fixtures";

test.describe("offline", () => {
  test("the app shell and pages opened before open offline; others say they are unavailable", async ({
    page,
    context,
    consoleGuard,
  }) => {
    // Requests that fail while offline are logged by the browser.
    consoleGuard.allow(/net::ERR_INTERNET_DISCONNECTED|Failed to fetch|ERR_FAILED/);
    consoleGuard.allow(failedResource(503));

    await page.goto("/");
    await expect(page.locator('link[rel="manifest"]')).toHaveAttribute("href", "/manifest.webmanifest");
    // Wait until the service worker controls the page (precache complete).
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.reload();
    await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);

    // A page opened once online (its code is cached on first use) opens offline.
    await page.goto("/mount-explorer/some/where");
    await expect(page.getByRole("heading", { level: 1, name: "Mount explorer" })).toBeVisible();

    await context.setOffline(true);
    try {
      await page.goto("/mount-explorer/other/place");
      await expect(page.getByRole("heading", { level: 1, name: "Mount explorer" })).toBeVisible();

      // A page never opened: its code is not on the device, and the app says so.
      await page.goto("/file/never-opened");
      await expect(
        page.getByRole("heading", { level: 1, name: "The page is temporarily unavailable" }),
      ).toBeVisible();

      await page.goto("/dav/");
      await expect(page.getByRole("heading", { name: "The page is temporarily unavailable" })).toBeVisible();
      await expect(page.getByRole("link", { name: "Home" })).toBeVisible();
      await expect(page.getByRole("button", { name: "Go back" })).toBeVisible();
      await expect(page.getByRole("button", { name: "Retry" })).toBeVisible();
    } finally {
      await context.setOffline(false);
    }
  });
});
