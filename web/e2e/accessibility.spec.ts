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
 * axe-core on every screen, in both themes: no serious or critical violation
 * (contrast, names of inputs and buttons, landmarks, ARIA use).
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

for (const theme of ["light", "dark"] as const) {
  test(`axe finds no serious or critical violation on any screen (${theme})`, async ({
    browser,
    request,
    consoleGuard,
  }) => {
    test.setTimeout(240_000);
    consoleGuard.allow(failedResource(404));
    const findings: Finding[] = [];
    const screens = allScreens(data);
    for (const as of ["visitor", "admin", "key"] as Principal[]) {
      const { context, page } = await openAs(browser, request, as, data, { language: "en", theme });
      for (const screen of screens.filter((s) => s.as === as)) {
        await showScreen(page, screen);
        findings.push(...(await seriousViolations(page, `${screen.name} (${theme})`)));
        findings.push(...(await iconButtonsWithoutTooltip(page, `${screen.name} (${theme})`)));
      }
      await context.close();
    }
    expect(findings).toEqual([]);
  });
}
