// A 40 MB upload at 100 KB/s through the server with its default timeouts (about 7 minutes):
// no whole-request limit may cut it, and it must arrive whole. Not part of the default run
// (`npm run bench -- slow-upload`); the timeouts themselves have fast tests with short settings
// (server/test/http/node-server.test.ts).
import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import { startServer } from "../server-process.mjs";
import { target } from "../targets.mjs";

const SIZE = Number(process.env.BENCH_SLOW_MB ?? 40) * 1024 * 1024;
const RATE = Number(process.env.BENCH_SLOW_KBPS ?? 100) * 1024;
const TICK_MS = 100;

/** PUTs `body` to `url` at RATE bytes per second; resolves with the status and the answer. */
function throttledPut(url, headers, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: "PUT", headers: { ...headers, "content-length": body.length } });
    req.on("response", (res) => {
      let text = "";
      res.on("data", (d) => {
        text += d;
      });
      res.on("end", () => resolve({ status: res.statusCode, text }));
    });
    req.on("error", reject);
    let sent = 0;
    const perTick = Math.round((RATE * TICK_MS) / 1000);
    const timer = setInterval(() => {
      const chunk = body.subarray(sent, sent + perTick);
      sent += chunk.length;
      if (sent >= body.length) {
        clearInterval(timer);
        req.end(chunk);
      } else req.write(chunk);
    }, TICK_MS);
  });
}

export async function run() {
  const server = await startServer();
  try {
    const token = await server.login();
    const body = randomBytes(SIZE);
    const started = performance.now();
    const { status, text } = await throttledPut(
      `${server.base}/api/upload-direct/slow.bin`,
      { authorization: `Bearer ${token}`, "content-type": "application/octet-stream" },
      body,
    );
    const seconds = (performance.now() - started) / 1000;
    if (status !== 201) throw new Error(`upload answered ${status}: ${text}`);
    const slug = JSON.parse(text).data.slug;
    const stored = Buffer.from(await (await fetch(`${server.base}/api/file-download/${slug}`)).arrayBuffer());
    const whole =
      createHash("sha256").update(stored).digest("hex") === createHash("sha256").update(body).digest("hex");
    console.log(
      `${SIZE / 1024 / 1024} MB at ${RATE / 1024} KB/s: ${status} after ${seconds.toFixed(0)} s, ${whole ? "arrived whole" : "DIFFERS"}`,
    );
    target("slow upload: seconds taken (no whole-request limit)", seconds, { min: SIZE / RATE - 5 }, "s");
    target("slow upload: arrived whole", whole ? 1 : 0, { min: 1 });
  } finally {
    await server.stop();
  }
}
