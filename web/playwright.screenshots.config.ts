import { fileURLToPath } from "node:url";
import { defineConfig } from "@playwright/test";
import base from "./playwright.config";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));

/**
 * `npm run screenshots`: every screen at 1366, 820 and 390 px in English and
 * Chinese (and dark too with SCREENSHOT_THEMES=light,dark) under
 * .tmp/screenshots/, against the built app on a temporary server with sample
 * data. Not part of the test suite.
 */
export default defineConfig({
  ...base,
  testDir: "./screenshots",
  timeout: 600_000,
  outputDir: `${repoRoot}.tmp/screenshots-results`,
  reporter: [["list"]],
});
