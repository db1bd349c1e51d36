// ClipShare benchmarks: `npm run bench` runs every suite, `npm run bench -- pastes` one.
// Needs a built server (npm run build). Each suite starts its own server on a temp data dir.
// The run ends with a PASS/FAIL table of every target the suites measured (targets.mjs).
import { printTargets } from "./targets.mjs";

const suites = {
  compare: () => import("./suites/compare.mjs"),
  core: () => import("./suites/core.mjs"),
  start: () => import("./suites/start.mjs"),
  auth: () => import("./suites/auth.mjs"),
  pastes: () => import("./suites/pastes.mjs"),
  files: () => import("./suites/files.mjs"),
  fs: () => import("./suites/fs.mjs"),
  webdav: () => import("./suites/webdav.mjs"),
  remote: () => import("./suites/remote.mjs"),
  multipart: () => import("./suites/multipart.mjs"),
  "scale-out": () => import("./suites/scale-out.mjs"),
  // Builds a 1,000,000-entry tree once (temp dir) and crawls it: only when named.
  search: () => import("./suites/search.mjs"),
  // About 7 minutes: only when named (`npm run bench -- slow-upload`).
  "slow-upload": () => import("./suites/slow-upload.mjs"),
};

const wanted = process.argv.slice(2).filter((a) => !a.startsWith("-"));
const ON_REQUEST_ONLY = new Set(["slow-upload", "search"]);
const names = wanted.length > 0 ? wanted : Object.keys(suites).filter((n) => !ON_REQUEST_ONLY.has(n));
for (const name of names) {
  if (!suites[name]) {
    console.error(`unknown suite "${name}"; known: ${Object.keys(suites).join(", ")}`);
    process.exit(2);
  }
}
console.log(
  `ClipShare benchmarks on ${(await import("node:os")).cpus().length} cores, Node ${process.version}`,
);
for (const name of names) {
  console.log(`\n== ${name} ==`);
  const suite = await suites[name]();
  await suite.run();
}
printTargets();
