import type { Locator, Page } from "@playwright/test";
import { adminToken, createLocalMount, createPaste, useAdminSession } from "./support/factories";
import { expect, failedResource, setTheme, test, unique } from "./support/fixtures";

/**
 * The shared controls behave the same on every screen: toasts keep clear of
 * the button they report on, a disabled destructive button looks disabled in
 * dark mode, one checkbox everywhere, every password field can be shown.
 */

/** A computed colour (Tailwind's are lab()) as sRGB channels, through a canvas. */
async function rgbOf(target: Locator, property: "backgroundColor" | "borderColor"): Promise<number[]> {
  return target.evaluate((el, prop) => {
    const canvas = document.createElement("canvas");
    canvas.width = 1;
    canvas.height = 1;
    const ctx = canvas.getContext("2d")!;
    ctx.fillStyle = getComputedStyle(el)[prop];
    ctx.fillRect(0, 0, 1, 1);
    return [...ctx.getImageData(0, 0, 1, 1).data.slice(0, 3)];
  }, property);
}

function overlaps(a: { x: number; y: number; width: number; height: number }, b: typeof a): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** Clicks `button` placed at the viewport's bottom, then at its top; the toast covers it neither time. */
async function expectToastBesides(page: Page, button: Locator, toastText: RegExp) {
  for (const block of ["end", "start"] as const) {
    await button.evaluate((el, b) => el.scrollIntoView({ block: b }), block);
    // Where the button sits in the document: a toast must not push the layout. (Its place on
    // screen may change: clearing empties the cache list below, and a shorter page scrolls back.)
    const top = () => button.evaluate((el) => el.getBoundingClientRect().top + window.scrollY);
    const before = await top();
    await button.click();
    const toast = page.getByText(toastText).locator("..");
    await expect(toast).toBeVisible();
    const box = (await toast.boundingBox())!;
    const after = (await button.boundingBox())!;
    expect(await top()).toBeCloseTo(before, 0);
    expect(overlaps(box, after), `toast ${JSON.stringify(box)} over button ${JSON.stringify(after)}`).toBe(
      false,
    );
    // Its icon-only dismiss button has a tooltip, as every icon-only button does.
    await expect(toast.getByRole("button", { name: "Dismiss" })).toHaveAttribute("title", "Dismiss");
    await toast.getByRole("button", { name: "Dismiss" }).click();
    await expect(toast).toHaveCount(0);
  }
}

for (const viewport of [
  { width: 1366, height: 900 },
  { width: 390, height: 844 },
]) {
  test.describe(`${viewport.width} px`, () => {
    test.use({ viewport });

    test("a toast does not cover the button it reports on", async ({ page }) => {
      const token = await adminToken(page.request);
      await useAdminSession(page, token, "/admin/dashboard");
      const clear = page.getByRole("button", { name: "Clear all caches" });
      await expect(clear).toBeVisible();
      await expectToastBesides(page, clear, /^Cleared \d+ cached items?$/);
    });
  });
}

test.describe("dark mode", () => {
  test.use({ viewport: { width: 1366, height: 900 } });

  test("a disabled destructive button looks disabled, not like a live red one", async ({
    page,
    consoleGuard,
  }) => {
    consoleGuard.allow(failedResource(409));
    const token = await adminToken(page.request);
    const name = unique("busy-store");
    await createLocalMount(page.request, token, `/${name}`, {
      name,
      storageName: name,
    });
    await useAdminSession(page, token, "/admin/storage-config");
    await setTheme(page, "dark");
    await page
      .getByRole("listitem", { name })
      .getByRole("button", { name: `Delete ${name}` })
      .click();
    const confirm = page.getByRole("alertdialog");
    await expect(confirm.getByRole("button", { name: "Close" })).toHaveAttribute("title", "Close");
    const del = confirm.getByRole("button", { name: "Delete" });
    const live = await rgbOf(del, "backgroundColor");
    await del.click();
    await expect(confirm.getByRole("alert")).toContainText("1 mount points are using it");
    await expect(del).toBeDisabled();
    // Grey: no channel stands out, as red's does on the live button. Polled, because the
    // colour change is animated.
    expect(Math.max(...live) - Math.min(...live)).toBeGreaterThan(100);
    await expect
      .poll(async () => {
        const rgb = await rgbOf(del, "backgroundColor");
        return Math.max(...rgb) - Math.min(...rgb);
      })
      .toBeLessThan(40);
  });

  test("every checkbox is the one checkbox, with a visible keyboard focus", async ({ page }) => {
    const token = await adminToken(page.request);
    await createPaste(page.request, `Bearer ${token}`, { content: unique("check") });
    await useAdminSession(page, token, "/admin/text-management");
    await setTheme(page, "dark");
    await expect(page.getByRole("checkbox").first()).toBeVisible();
    // The row checkboxes of the list and the labelled ones of a form look the same.
    await page.goto("/admin/key-management");
    await page.getByRole("button", { name: "Create key" }).click();
    const dialog = page.getByRole("dialog", { name: "Create API key" });
    const formBox = dialog.locator('[role="checkbox"][data-state="unchecked"]').first();
    await expect(formBox).toBeVisible();
    const look = async (box: Locator) => ({
      background: await rgbOf(box, "backgroundColor"),
      border: await rgbOf(box, "borderColor"),
      size: await box.evaluate((el) => getComputedStyle(el).width),
    });
    const formStyle = await look(formBox);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await page.goto("/admin/text-management");
    const rowBox = page.locator('[role="checkbox"][data-state="unchecked"]').first();
    await expect(rowBox).toBeVisible();
    const rowStyle = await look(rowBox);
    expect(rowStyle).toEqual(formStyle);
    // Dark mode: a dark box, not a white one.
    expect(Math.max(...rowStyle.background)).toBeLessThan(80);
    for (const box of await page.getByRole("checkbox").all())
      await expect(box).toHaveAttribute("data-checkbox");
    // Reached by the keyboard, it shows a focus ring.
    await rowBox.focus();
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Tab");
    await expect(rowBox).toBeFocused();
    expect(await rowBox.evaluate((el) => getComputedStyle(el).outlineStyle)).not.toBe("none");
  });
});

test("every password field has a show/hide toggle: share password prompt and API key", async ({
  page,
  consoleGuard,
}) => {
  consoleGuard.allow(failedResource(401));
  const token = await adminToken(page.request);
  const paste = await createPaste(page.request, `Bearer ${token}`, {
    content: "secret",
    password: "pw-123",
  });
  await page.goto(`/paste/${paste.slug}`);
  const field = page.getByLabel("Password", { exact: true });
  await field.fill("pw-123");
  await expect(field).toHaveAttribute("type", "password");
  await page.getByRole("button", { name: "Show password" }).click();
  await expect(field).toHaveAttribute("type", "text");
  await page.getByRole("button", { name: "Hide password" }).click();
  await expect(field).toHaveAttribute("type", "password");

  await page.goto("/admin");
  await page.getByRole("tab", { name: "API key" }).click();
  const key = page.getByRole("tabpanel").getByLabel("API key", { exact: true });
  await key.fill("some-key");
  await expect(key).toHaveAttribute("type", "password");
  await page.getByRole("tabpanel").getByRole("button", { name: "Show password" }).click();
  await expect(key).toHaveAttribute("type", "text");
});
