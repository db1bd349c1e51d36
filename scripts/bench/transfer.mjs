// Streaming helpers for throughput benchmarks: generated bodies, HTTP upload/download
// without buffering, and a peak-RSS sampler for the server process.
import { randomBytes } from "node:crypto";
import { createWriteStream, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

export const GiB = 1024 ** 3;
const CHUNK = randomBytes(1024 * 1024);

/** `size` bytes of a repeated random 1 MiB block, generated as they are read. */
export function generatedBody(size) {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= size) return this.push(null);
      const n = Math.min(CHUNK.length, size - sent);
      sent += n;
      this.push(n === CHUNK.length ? CHUNK : CHUNK.subarray(0, n));
    },
  });
}

/** User + system CPU seconds a process has used so far (Linux /proc); 0 once it is gone. */
export function cpuSeconds(pid) {
  let stat;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return 0;
  }
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Samples VmRSS of a process every 50 ms; stop() returns the peak in MB. */
export function rssSampler(pid) {
  let peak = 0;
  const read = () => {
    try {
      const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
      peak = Math.max(peak, kb);
    } catch {}
  };
  read();
  const timer = setInterval(read, 50);
  return {
    stop() {
      clearInterval(timer);
      read();
      return Math.round(peak / 102.4) / 10;
    },
  };
}

/** Sends `body` with the given method/headers; resolves with {status, text}. */
export function send(url, { method = "PUT", headers = {}, body }) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode, headers: res.headers, text: Buffer.concat(chunks).toString() }),
      );
    });
    req.on("error", reject);
    if (body) body.pipe(req);
    else req.end();
  });
}

/** Streams a response body to nowhere; resolves with bytes received. */
export function drain(url, headers = {}) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        let bytes = 0;
        res.on("data", (c) => {
          bytes += c.length;
        });
        res.on("end", () => resolve({ status: res.statusCode, bytes }));
        res.on("error", reject);
      })
      .on("error", reject);
  });
}

export async function timed(fn) {
  const t0 = performance.now();
  const result = await fn();
  return { result, seconds: (performance.now() - t0) / 1000 };
}

/** Times `fn` with the server's peak RSS sampled meanwhile, prints both for `size` bytes, returns fn's result. */
export async function measure(server, size, label, fn) {
  const rss = rssSampler(server.pid);
  const { result, seconds } = await timed(fn);
  const peak = rss.stop();
  console.log(`${label.padEnd(46)} ${mbps(size, seconds).padStart(10)}   peak RSS ${peak} MB`);
  return result;
}

export const mbps = (bytes, seconds) => `${(bytes / 1024 / 1024 / seconds).toFixed(0)} MB/s`;

/** Measures and prints the baselines: a plain Node disk write and a plain loopback HTTP transfer of the same size. */
export async function printBaselines(size) {
  const file = path.join(os.tmpdir(), `clipshare-bench-disk-${process.pid}`);
  const disk = await timed(() => pipeline(generatedBody(size), createWriteStream(file)));
  rmSync(file, { force: true });
  const server = http.createServer((req, res) => {
    req.on("data", () => {});
    req.on("end", () => res.end("ok"));
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address();
  const loop = await timed(() => send(`http://127.0.0.1:${port}/`, { body: generatedBody(size) }));
  server.close();
  console.log(
    `baseline (${size / 1024 / 1024} MiB): node disk write ${mbps(size, disk.seconds)}, ` +
      `node loopback HTTP ${mbps(size, loop.seconds)}`,
  );
}
