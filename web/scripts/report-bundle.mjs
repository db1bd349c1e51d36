// Reports the JavaScript a first visit to "/" downloads before any lazy page
// chunk: the entry script and the modules index.html preloads, plus the one
// locale file fetched before the first render. Fails above the budget.
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

// React 19, react-dom, react-router and i18next with the app shell and the locale file (the
// shell texts only, about 7 KB; the admin pages load theirs) measured 153.1 KB: at most 10% more.
const BUDGET_KB = 168;
const dist = resolve(dirname(fileURLToPath(import.meta.url)), "../dist");

const html = readFileSync(join(dist, "index.html"), "utf8");
const entryFiles = [
  ...html.matchAll(/<script[^>]*type="module"[^>]*src="\/([^"]+\.js)"/g),
  ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="\/([^"]+\.js)"/g),
].map((m) => m[1]);
if (entryFiles.length === 0) {
  console.error("report-bundle: no module script found in dist/index.html");
  process.exit(1);
}

const gz = (file) => gzipSync(readFileSync(join(dist, file))).length;
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

const manifest = JSON.parse(readFileSync(join(dist, ".vite/manifest.json"), "utf8"));
const localeFiles = Object.values(manifest)
  .filter((chunk) => /(^|\/)i18n\/locales\/[^/]+\.json$/.test(chunk.src ?? ""))
  .map((chunk) => chunk.file);
const largestLocale = localeFiles
  .map((file) => ({ file, size: gz(file) }))
  .sort((a, b) => b.size - a.size)[0];

const rows = entryFiles.map((file) => ({ file, size: gz(file) }));
if (largestLocale) rows.push({ file: `${largestLocale.file} (largest locale)`, size: largestLocale.size });
const total = rows.reduce((sum, row) => sum + row.size, 0);

console.log("\nInitial JavaScript for / (gzipped):");
for (const row of rows) console.log(`  ${kb(row.size).padStart(9)}  ${row.file}`);
console.log(`  ${kb(total).padStart(9)}  total (budget ${BUDGET_KB} KB)\n`);

if (total > BUDGET_KB * 1024) {
  console.error(`report-bundle: initial JavaScript ${kb(total)} is over the ${BUDGET_KB} KB budget`);
  process.exit(1);
}
