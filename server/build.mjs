// Bundles the server (and the shared package) into dist/main.js and the admin commands
// (`clipshare-server`, src/cli/main.ts) into dist/cli.js; npm packages stay external.
import { build } from "esbuild";

await build({
  entryPoints: { main: "src/main.ts", cli: "src/cli/main.ts" },
  outdir: "dist",
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  sourcemap: true,
  packages: "external",
  alias: { "@clipshare/shared": "../packages/shared/src/index.ts" },
  logLevel: "warning",
});
