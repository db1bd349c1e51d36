// Bundles the server (with the shared package and its pure-JS dependencies) into
// dist/main.js and the admin commands (`clipshare-server`, src/cli/main.ts) into
// dist/cli.js. One file instead of hundreds of node_modules files makes start-up
// resolve and compile far less (kysely alone is ~400 ESM files). Native addons and
// the packages loaded on first use (lazy-require.ts) stay external.
import { readFileSync, writeFileSync } from "node:fs";
import { build } from "esbuild";

await build({
  entryPoints: { main: "src/main.ts", cli: "src/cli/main.ts" },
  outdir: "dist",
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  sourcemap: true,
  external: ["better-sqlite3", "pg", "@aws-sdk/*", "pino", "sharp"],
  // Bundled CommonJS packages (busboy) require Node built-ins: give the ESM bundle a require().
  banner: {
    js: 'import { createRequire as __clipshareRequire } from "node:module"; const require = __clipshareRequire(import.meta.url);',
  },
  alias: { "@clipshare/shared": "../packages/shared/src/index.ts" },
  logLevel: "warning",
});

// esbuild escapes every non-ASCII character in code (its default ASCII charset), but not in
// comments, and one such character (an arrow in a doc comment) makes V8 hold the whole 2 MB
// source as a two-byte string: 2 MB more heap for as long as the server runs. Escape those too.
for (const file of ["dist/main.js", "dist/cli.js"]) {
  const source = readFileSync(file, "utf8");
  const ascii = source.replace(
    /[\u0080-\uffff]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  if (ascii !== source) writeFileSync(file, ascii);
}
