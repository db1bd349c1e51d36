// Targets a benchmark run is judged by: each suite records its measures here as it prints them,
// and `npm run bench` ends with one PASS/FAIL table of all of them, with the load average, so a
// run on a busy machine is recognisable as such.
import os from "node:os";

const results = [];

export const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

/**
 * Records `value` against a limit: `{ max }` (at most), `{ below }` (less than) or `{ min }` (at
 * least). Returns the verdict so a suite can print it on its own line too.
 */
export function target(label, value, limit, unit = "") {
  const pass =
    "max" in limit ? value <= limit.max : "below" in limit ? value < limit.below : value >= limit.min;
  const bound = "max" in limit ? `≤ ${limit.max}` : "below" in limit ? `< ${limit.below}` : `≥ ${limit.min}`;
  const verdict = pass ? "PASS" : "FAIL";
  results.push({ label, value, bound, unit, verdict });
  return verdict;
}

export function printTargets() {
  if (results.length === 0) return;
  const digits = (v) => (Math.abs(v) >= 100 ? 0 : Math.abs(v) >= 10 ? 1 : 3);
  console.log(`\n== targets (load average ${loadAverage()}) ==`);
  for (const r of results) {
    const value = `${r.value.toFixed(digits(r.value))}${r.unit ? ` ${r.unit}` : ""}`;
    console.log(
      `${r.verdict}  ${r.label.padEnd(46)} ${value.padStart(12)}   target ${r.bound}${r.unit ? ` ${r.unit}` : ""}`,
    );
  }
  const failed = results.filter((r) => r.verdict === "FAIL").length;
  console.log(failed === 0 ? "all targets met" : `${failed} of ${results.length} targets missed`);
}
