// Bundles the client (and the constants it takes from @clipshare/shared) into one
// dependency-free file, dist/clipshare.js, so `npx clipshare` needs nothing else.
import { build } from "esbuild";

await build({
  entryPoints: { clipshare: "src/main.ts" },
  outdir: "dist",
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  banner: { js: "#!/usr/bin/env node" },
  alias: { "@clipshare/shared": "../shared/src/index.ts" },
  logLevel: "warning",
});
