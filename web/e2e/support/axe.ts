import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "@playwright/test";

// Evaluated through the DevTools protocol, which the app's Content-Security-Policy (rightly) does not allow as a script tag.
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export interface Finding {
  screen: string;
  rule: string;
  impact: string;
  targets: string[];
}

/** axe-core's serious and critical violations on the page as it is (WCAG 2.1 A/AA and best practices). */
export async function seriousViolations(page: Page, screen: string): Promise<Finding[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    // biome-ignore lint/suspicious/noExplicitAny: axe is injected into the page, not imported
    const axe = (window as any).axe;
    const result = await axe.run(document, {
      runOnly: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"],
    });
    return result.violations.map(
      (v: { id: string; impact: string; nodes: Array<{ target: string[]; html: string }> }) => ({
        rule: v.id,
        impact: v.impact,
        targets: v.nodes.slice(0, 5).map((n) => `${n.target.join(" ")} ${n.html.slice(0, 160)}`),
      }),
    );
  });
  return violations
    .filter((v: { impact: string }) => v.impact === "serious" || v.impact === "critical")
    .map((v: Omit<Finding, "screen">) => ({ screen, ...v }));
}
