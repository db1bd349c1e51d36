import type { Page } from "@playwright/test";
import { type Finding, seriousViolations } from "./support/axe";
import { expect, failedResource, test } from "./support/fixtures";
import {
  allScreens,
  openAs,
  type Principal,
  type SampleData,
  seedSampleData,
  showScreen,
} from "./support/screens";

/**
 * axe-core on every screen at 1366 and 390 px, in both languages and themes: no
 * serious or critical violation (contrast, names of inputs and buttons, landmarks, ARIA use).
 */
/**
 * Icon-only buttons (no visible text) shown without a tooltip: a sighted mouse
 * user sees only the icon, so each needs a `title` besides its accessible name.
 */
async function iconButtonsWithoutTooltip(page: Page, screen: string): Promise<Finding[]> {
  const targets = await page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('button:not([role]), [role="button"]')]
      // innerText, not textContent: the text as rendered, which is what a sighted user sees.
      // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is the point
      .filter((el) => el.offsetParent !== null && el.innerText.trim() === "" && el.querySelector("svg, img"))
      .filter((el) => !el.title?.trim())
      .map((el) => `${el.getAttribute("aria-label") ?? ""} ${el.outerHTML.slice(0, 120)}`),
  );
  return targets.length
    ? [{ screen, rule: "icon-button-tooltip", impact: "serious", targets: targets.slice(0, 5) }]
    : [];
}

let data: SampleData;
test.beforeAll(async ({ request }) => {
  data = await seedSampleData(request);
});

/**
 * Every screen in four runs that together pair each outer width with both languages and both
 * themes, and each language with each theme: contrast depends on the theme, clipping and
 * wrapping on width and language. 820 px is left to the layout checks that measure it.
 */
const RUNS = [
  { width: 1366, height: 900, language: "en", theme: "light" },
  { width: 1366, height: 900, language: "zh", theme: "dark" },
  { width: 390, height: 844, language: "en", theme: "dark" },
  { width: 390, height: 844, language: "zh", theme: "light" },
] as const;

for (const { width, height, language, theme } of RUNS) {
  test(`axe finds no serious or critical violation on any screen (${width} px, ${language}, ${theme})`, async ({
    browser,
    request,
    consoleGuard,
  }) => {
    test.setTimeout(240_000);
    consoleGuard.allow(failedResource(404));
    const findings: Finding[] = [];
    const screens = allScreens(data);
    const run = `${width} px ${language} ${theme}`;
    for (const as of ["visitor", "admin", "key"] as Principal[]) {
      const { context, page } = await openAs(browser, request, as, data, {
        language,
        theme,
        viewport: { width, height },
      });
      for (const screen of screens.filter((s) => s.as === as)) {
        await showScreen(page, screen);
        findings.push(...(await seriousViolations(page, `${screen.name} (${run})`)));
        findings.push(...(await iconButtonsWithoutTooltip(page, `${screen.name} (${run})`)));
      }
      await context.close();
    }
    expect(findings).toEqual([]);
  });
}
