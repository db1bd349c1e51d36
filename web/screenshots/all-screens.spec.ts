import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { test } from "../e2e/support/fixtures";
import {
  allScreens,
  openAs,
  type Principal,
  type SampleData,
  seedSampleData,
  showScreen,
} from "../e2e/support/screens";

const OUT = fileURLToPath(new URL("../../.tmp/screenshots/", import.meta.url));
const WIDTHS = [
  { width: 1366, height: 900 },
  { width: 820, height: 1180 },
  { width: 390, height: 844 },
];
const THEMES = (process.env.SCREENSHOT_THEMES ?? "light")
  .split(",")
  .map((t) => t.trim())
  .filter((t): t is "light" | "dark" => t === "light" || t === "dark");

let data: SampleData;
test.beforeAll(async ({ request }) => {
  data = await seedSampleData(request);
});

for (const language of ["en", "zh"] as const) {
  for (const theme of THEMES) {
    for (const viewport of WIDTHS) {
      test(`${language} ${theme} ${viewport.width}px`, async ({ browser, request, consoleGuard }) => {
        // The missing-share screens answer 404 on purpose.
        consoleGuard.allow(/status of 404/);
        const dir = `${OUT}${language}-${theme}/${viewport.width}`;
        mkdirSync(dir, { recursive: true });
        for (const as of ["visitor", "admin", "key"] as Principal[]) {
          const { context, page } = await openAs(browser, request, as, data, { language, theme, viewport });
          for (const screen of allScreens(data).filter((s) => s.as === as)) {
            await showScreen(page, screen);
            await page.screenshot({ path: `${dir}/${screen.name}.png`, fullPage: true });
          }
          await context.close();
        }
      });
    }
  }
}
