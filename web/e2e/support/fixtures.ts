import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { test as base, expect, type Page } from "@playwright/test";
import { DEFAULT_E2E_ADMIN_PASSWORD } from "../global-setup";

export { expect };

export const ADMIN_USERNAME = "admin";
export const adminPassword = () => process.env.E2E_ADMIN_PASSWORD ?? DEFAULT_E2E_ADMIN_PASSWORD;

/** Screenshots of the main screens, kept as CI artifacts. */
export const SCREENSHOT_DIR = fileURLToPath(new URL("../../../artifacts/screenshots/", import.meta.url));

/** Collects console errors and uncaught exceptions; a test fails if any are left unexplained. */
export class ConsoleGuard {
  readonly errors: string[] = [];
  private readonly allowed: RegExp[] = [];

  watch(page: Page): void {
    page.on("console", (msg) => {
      if (msg.type() === "error") this.errors.push(`${msg.text()} (${msg.location().url})`);
    });
    page.on("pageerror", (err) => this.errors.push(`uncaught: ${err.message}`));
  }

  /** Accept errors matching the pattern (e.g. the browser's log line for an expected 401). */
  allow(pattern: RegExp): void {
    this.allowed.push(pattern);
  }

  unexpected(): string[] {
    return this.errors.filter((e) => !this.allowed.some((re) => re.test(e)));
  }
}

/**
 * Chromium's report when the app's Content-Security-Policy refuses an inline event handler:
 * untrusted markup that carries one (`<img onerror=…>`) triggers it while the sanitizer parses
 * it, although the handler would never run. Expected wherever tests feed such markup.
 */
export const blockedInlineHandler =
  /Executing inline event handler violates the following Content Security Policy/;

/** The browser's own log line for a response with this status. */
export const failedResource = (status: number) =>
  new RegExp(`Failed to load resource: the server responded with a status of ${status}`);

export const test = base.extend<{ consoleGuard: ConsoleGuard }>({
  consoleGuard: [
    async ({ page }, use) => {
      const guard = new ConsoleGuard();
      guard.watch(page);
      await use(guard);
      expect(guard.unexpected(), "console errors").toEqual([]);
    },
    { auto: true },
  ],
});

export async function setTheme(page: Page, mode: "light" | "dark" | "auto"): Promise<void> {
  await page.evaluate((m) => localStorage.setItem("themeMode", m), mode);
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("data-theme", mode);
}

export async function saveScreenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  // Let transitions and lazy chunks settle.
  await page.waitForLoadState("networkidle");
  await page.screenshot({ path: `${SCREENSHOT_DIR}${name}.png`, fullPage: true });
}

export const unique = (prefix: string) =>
  `${prefix}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
