// Bundles the server (with the shared package and its pure-JS dependencies) into
// dist/main.js and the admin commands (`clipshare-server`, src/cli/main.ts) into
// dist/cli.js. One file instead of hundreds of node_modules files makes start-up
// resolve and compile far less (kysely alone is ~400 ESM files). Native addons and
// the packages loaded on first use (lazy-require.ts) stay external; better-sqlite3's
// JavaScript is bundled, its addon stays in node_modules. Modules imported with
// import() (route groups loaded on first request, see http/lazy-routes.ts) become chunk files
// of their own, which a server that never needs them never reads.
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";

// zod re-exports all of its ~50 message locales (`z.locales`) from its index, so they cannot be
// tree-shaken: about 400 KB of source the server would hold in memory for ever. ClipShare only
// uses the English messages zod sets by default; the bundle's `z.locales` has English alone.
const zodEnglishOnly = {
  name: "zod-english-only",
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${path.sep}node_modules${path.sep}zod${path.sep}`)
        ? { path: args.resolveDir, namespace: "zod-locales" }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "zod-locales" }, (args) => ({
      contents: 'export { default as en } from "../locales/en.js";',
      resolveDir: args.path,
      loader: "js",
    }));
  },
};

// Chunk names carry a content hash: clear the old ones out.
rmSync("dist", { recursive: true, force: true });

await build({
  entryPoints: { main: "src/main.ts", cli: "src/cli/main.ts" },
  outdir: "dist",
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  splitting: true,
  chunkNames: "chunks/[name]-[hash]",
  sourcemap: true,
  // V8 keeps every loaded module's source text on its heap for as long as the process runs
  // (about 1.4 MB for the code a server loads at start). Dropping indentation and line breaks
  // takes a third of it; names are kept (no identifier minification), so stack traces still
  // name their functions, and the .map files next to each file map positions back to src/.
  minifyWhitespace: true,
  // better-sqlite3's JavaScript is bundled like the rest; its compiled addon is loaded from
  // node_modules by path (db/database.ts), so `bindings`, its addon finder, is never called.
  // ssh2 may load an optional native addon of its own: it stays in node_modules too.
  external: ["bindings", "pg", "@aws-sdk/*", "sharp", "ssh2", "basic-ftp", "nodemailer"],
  // Bundled CommonJS packages (busboy) require Node built-ins: give the ESM bundle a require().
  banner: {
    js: 'import { createRequire as __clipshareRequire } from "node:module"; const require = __clipshareRequire(import.meta.url);',
  },
  alias: { "@clipshare/shared": "../packages/shared/src/index.ts" },
  plugins: [zodEnglishOnly],
  logLevel: "warning",
});

// esbuild escapes every non-ASCII character in code (its default ASCII charset), but not in
// comments, and one such character (an arrow in a doc comment) makes V8 hold the whole 2 MB
// source as a two-byte string: 2 MB more heap for as long as the server runs. Escape those too.
for (const file of readdirSync("dist", { recursive: true, encoding: "utf8" })) {
  if (!file.endsWith(".js")) continue;
  const source = readFileSync(`dist/${file}`, "utf8");
  const ascii = source.replace(
    /[\u0080-\uffff]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  if (ascii !== source) writeFileSync(`dist/${file}`, ascii);
}
