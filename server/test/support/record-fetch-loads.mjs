// Preload (`node --import`) for tests: records into RECORD_FETCH_FILE whether the process loaded
// Node's Fetch implementation, and from where. Node defines the globals Request, Response,
// Headers and FormData as getters that load it on first read (fetch() loads it when called);
// each first read is recorded with its stack, and at exit the line `loaded` if Node's module
// list holds the implementation.
import { appendFileSync } from "node:fs";

const file = process.env.RECORD_FETCH_FILE;
if (file) {
  const record = (what) => {
    const stack = (new Error().stack ?? "").split("\n").slice(3, 12).join("\n");
    appendFileSync(file, `${what} from\n${stack}\n`);
  };
  for (const name of ["Request", "Response", "Headers", "FormData"]) {
    const descriptor = Object.getOwnPropertyDescriptor(globalThis, name);
    if (!descriptor?.get) continue;
    let seen = false;
    Object.defineProperty(globalThis, name, {
      ...descriptor,
      get() {
        if (!seen) record(`read of ${name}`);
        seen = true;
        return descriptor.get.call(this);
      },
    });
  }
  const originalFetch = globalThis.fetch;
  globalThis.fetch = function fetch(...args) {
    record("call of fetch");
    return originalFetch.apply(this, args);
  };
  process.on("exit", () => {
    if (process.moduleLoadList.some((m) => m.includes("internal/deps/undici/")))
      appendFileSync(file, "loaded\n");
  });
}
