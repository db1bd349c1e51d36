// Bundles the server (and the shared package) into dist/main.js; npm packages stay external.
import { build } from "esbuild";

await build({
  entryPoints: ["src/main.ts"],
  outfile: "dist/main.js",
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  sourcemap: true,
  packages: "external",
  alias: { "@clipshare/shared": "../packages/shared/src/index.ts" },
  logLevel: "warning",
});
