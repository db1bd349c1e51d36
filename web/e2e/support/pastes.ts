import { type Browser, type BrowserContext, expect, type Page } from "@playwright/test";
import { ConsoleGuard } from "./fixtures";

/** Helpers for the paste specs. */

/** Types into the CodeMirror editor named `name` once it has replaced the plain text area. */
export async function fillEditor(page: Page, text: string, name = "Content"): Promise<void> {
  const scope = page.locator(".cm-editor").filter({ has: page.getByRole("textbox", { name }) });
  await expect(scope).toBeVisible();
  const box = scope.getByRole("textbox", { name });
  await box.click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.press("Delete");
  await page.keyboard.insertText(text);
}

/** A visitor: a fresh browser context (no stored session), with its own console watch. */
export async function visitor(
  browser: Browser,
  options: { viewport?: { width: number; height: number } } = {},
): Promise<{ context: BrowserContext; page: Page; guard: ConsoleGuard }> {
  const context = await browser.newContext({
    baseURL: process.env.E2E_BASE_URL,
    locale: "en-US",
    viewport: options.viewport ?? { width: 1280, height: 800 },
  });
  const page = await context.newPage();
  const guard = new ConsoleGuard();
  guard.watch(page);
  return { context, page, guard };
}
