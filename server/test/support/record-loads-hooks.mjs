// Module hooks for record-loads.mjs: appends each loaded ES module's URL to RECORD_LOADS_FILE.
import { appendFileSync } from "node:fs";

export async function load(url, context, nextLoad) {
  appendFileSync(process.env.RECORD_LOADS_FILE, `${url}\n`);
  return nextLoad(url, context);
}
