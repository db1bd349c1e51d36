import { entry } from "./support/explorer";
import { adminToken, createPaste, useAdminSession } from "./support/factories";
import { expect, failedResource, test } from "./support/fixtures";
import { controlledBy, countRows, mountWithFile, OFFLINE_NOISE } from "./support/offline";

/** Read-offline copies: marked, expiring after seven days, dropped when gone, cleared on sign-out. */

test.describe("read offline", () => {
  test("a paste and a directory opened online read offline after a reload, marked; eight days later they are gone", async ({
    page,
    context,
    request,
    consoleGuard,
  }) => {
    consoleGuard.allow(OFFLINE_NOISE);
    await page.clock.install({ time: new Date("2026-06-01T09:00:00Z") });
    const token = await adminToken(request);
    const paste = await createPaste(request, `Bearer ${token}`, { content: "readable on the plane" });
    const mountPath = await mountWithFile(request, token, "kept-offline.txt");

    await useAdminSession(page, token, "/");
    await controlledBy(page);
    await page.goto(`/paste/${paste.slug}`);
    await expect(page.getByText("readable on the plane")).toBeVisible();
    await expect(page.getByTestId("offline-copy-mark")).toHaveCount(0);
    await expect.poll(() => countRows(page, "pastes")).toBe(1);
    await page.goto(`/mount-explorer${mountPath}`);
    await expect(entry(page, "kept-offline.txt")).toBeVisible();
    await expect.poll(() => countRows(page, "directories")).toBe(1);

    await context.setOffline(true);
    await page.goto(`/paste/${paste.slug}`);
    await expect(page.getByText("readable on the plane")).toBeVisible();
    await expect(page.getByTestId("offline-copy-mark")).toHaveText(/^Offline copy from Jun 1, 2026/);
    await page.goto(`/mount-explorer${mountPath}`);
    await expect(entry(page, "kept-offline.txt")).toBeVisible();
    await expect(page.getByTestId("offline-copy-mark")).toBeVisible();

    // Eight days on (the clock jumps: no timers run in between).
    await page.clock.setSystemTime(new Date("2026-06-09T09:30:00Z"));
    await page.goto(`/paste/${paste.slug}`);
    // No copy left: the offline page with Retry, not a bare network error.
    await expect(page.getByRole("heading", { name: "The page is temporarily unavailable" })).toBeVisible();
    await expect(page.getByText("You appear to be offline")).toBeVisible();
    await expect(page.getByRole("button", { name: "Retry" })).toBeVisible();
    await expect(page.getByText("readable on the plane")).toBeHidden();
    await page.goto(`/mount-explorer${mountPath}`);
    await expect(page.getByRole("alert")).toContainText("Network error");
    await expect(entry(page, "kept-offline.txt")).toBeHidden();
    // The start-up sweep deleted them, not only hid them.
    await expect.poll(() => countRows(page, "pastes")).toBe(0);
    await expect.poll(() => countRows(page, "directories")).toBe(0);
    await context.setOffline(false);
  });

  test("a copy goes when the server says the share is gone", async ({ page, request, consoleGuard }) => {
    consoleGuard.allow(failedResource(404));
    const token = await adminToken(request);
    const paste = await createPaste(request, `Bearer ${token}`, { content: "soon deleted" });
    await page.goto(`/paste/${paste.slug}`);
    await expect(page.getByText("soon deleted")).toBeVisible();
    await expect.poll(() => countRows(page, "pastes")).toBe(1);

    const res = await request.delete("/api/pastes/batch-delete", {
      headers: { Authorization: `Bearer ${token}` },
      data: { ids: [paste.id] },
    });
    expect(res.status()).toBe(200);
    await page.reload();
    await expect(page.getByText("soon deleted")).toBeHidden();
    await expect.poll(() => countRows(page, "pastes")).toBe(0);
  });

  test("explorer searches are offered again and cleared on request", async ({ page, request }) => {
    const token = await adminToken(request);
    await useAdminSession(page, token, "/mount-explorer");
    const search = page.getByRole("combobox", { name: "Search", exact: true });
    for (const q of ["quarterly", "invoices"]) {
      await search.fill(q);
      await search.press("Enter");
    }
    const options = page.locator("#explorer-search-history option");
    await expect(options).toHaveCount(2);
    await expect(options.first()).toHaveAttribute("value", "invoices");
    // Remembered on this device: still there after a reload.
    await page.reload();
    await expect(options).toHaveCount(2);

    await page.getByRole("button", { name: "Clear search history" }).click();
    await expect(options).toHaveCount(0);
    expect(await countRows(page, "searchHistory")).toBe(0);
  });

  test("signing out clears the explorer copies and search history but keeps a visitor's paste copy", async ({
    page,
    request,
  }) => {
    const token = await adminToken(request);
    const paste = await createPaste(request, `Bearer ${token}`, { content: "public words" });
    const mountPath = await mountWithFile(request, token, "private.txt");
    await useAdminSession(page, token, `/paste/${paste.slug}`);
    await expect(page.getByText("public words")).toBeVisible();
    await expect.poll(() => countRows(page, "pastes")).toBeGreaterThan(0);
    await page.goto(`/mount-explorer${mountPath}`);
    await expect(entry(page, "private.txt")).toBeVisible();
    await expect.poll(() => countRows(page, "directories")).toBeGreaterThan(0);
    // A search is remembered and offered as a suggestion.
    await page.getByRole("combobox", { name: "Search", exact: true }).fill("private");
    await page.getByRole("combobox", { name: "Search", exact: true }).press("Enter");
    await expect(page.locator('#explorer-search-history option[value="private"]')).toHaveCount(1);
    expect(await countRows(page, "searchHistory")).toBe(1);

    await page.goto("/admin");
    await page.getByRole("button", { name: "Log out" }).click();
    await expect.poll(() => countRows(page, "directories")).toBe(0);
    expect(await countRows(page, "searchHistory")).toBe(0);
    expect(await countRows(page, "pastes")).toBeGreaterThan(0);
  });
});
