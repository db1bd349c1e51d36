// Preload (`node --import`) for tests: records every module the process loads into the file
// named by RECORD_LOADS_FILE, one per line. ES modules are logged by a load hook as they load;
// CommonJS modules (which Node 20 hooks do not see) are taken from require.cache at exit.
import { appendFileSync } from "node:fs";
import { createRequire, register } from "node:module";

const file = process.env.RECORD_LOADS_FILE;
if (file) {
  register("./record-loads-hooks.mjs", import.meta.url);
  const cache = createRequire(import.meta.url).cache;
  process.on("exit", () => appendFileSync(file, `${Object.keys(cache).join("\n")}\n`));
}
