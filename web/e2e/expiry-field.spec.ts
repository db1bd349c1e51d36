import type { Locator, Page } from "@playwright/test";
import { adminToken, createPaste, useAdminSession } from "./support/factories";
import { expect, test, unique } from "./support/fixtures";

/**
 * The paste "Expires after" field: once a unit with a number is chosen, the number and the
 * unit sit side by side, the unit stays wide enough to read, nothing scrolls sideways, and
 * "Never" can be chosen again.
 */

const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

async function expectSideBySide(page: Page, scope: Locator, unitLabel: string) {
  const amount = scope.getByRole("spinbutton", { name: `Expires after: number of ${unitLabel}` });
  const unit = scope.getByLabel("Expires after", { exact: true });
  await expect(amount).toBeVisible();
  const a = await amount.boundingBox();
  const u = await unit.boundingBox();
  const box = await scope.boundingBox();
  if (!a || !u || !box) throw new Error("field not laid out");
  // Same row, number first.
  expect(Math.abs(a.y - u.y)).toBeLessThan(2);
  expect(a.x + a.width).toBeLessThanOrEqual(u.x);
  // The unit shows its whole word ("Months" with the arrow needs ~100 px) and is not cut off.
  expect(u.width).toBeGreaterThanOrEqual(100);
  expect(u.x + u.width).toBeLessThanOrEqual(box.x + box.width + 0.5);
  expect(await unit.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  expect(await overflow(page)).toBeLessThanOrEqual(0);
  // "Never" is still reachable and removes the number.
  await unit.selectOption("never");
  await expect(amount).toBeHidden();
  await unit.selectOption("months");
  await expect(scope.getByRole("spinbutton", { name: "Expires after: number of months" })).toBeVisible();
}

for (const viewport of [
  { width: 1366, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`home share form at ${viewport.width} px keeps number and unit side by side`, async ({
    page,
    request,
  }) => {
    await page.setViewportSize(viewport);
    const token = await adminToken(request);
    await useAdminSession(page, token, "/");
    const form = page.getByRole("region", { name: "Share settings" });
    await form.getByLabel("Expires after", { exact: true }).selectOption("days");
    await expectSideBySide(page, form, "days");
  });
}

test("edit paste dialog at 1366 px shows the whole expiry field", async ({ page, request }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  const token = await adminToken(request);
  const tag = unique("exp");
  const { slug } = await createPaste(request, `Bearer ${token}`, { content: `expiry ${tag}` });
  await useAdminSession(page, token, "/admin/text-management");
  await page.getByLabel("Search pastes").fill(tag);
  await page.getByRole("button", { name: `Edit ${slug}` }).click();
  const dialog = page.getByRole("dialog", { name: `Edit paste ${slug}` });
  await dialog.getByLabel("Expires after", { exact: true }).selectOption("weeks");
  await expectSideBySide(page, dialog, "weeks");
});
