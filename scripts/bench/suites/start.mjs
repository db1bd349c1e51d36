// Lean start: time from spawn to a healthy answer and idle RSS 10 s later (SQLite + LOCAL,
// no S3 config), next to a bare node:http process started the same way in the same run.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../server-process.mjs";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const IDLE_MS = 10_000;
const PAIRS = 3;
const BARE = `require("node:http").createServer((q, s) => s.end('{"status":"ok"}')).listen(+process.env.PORT, "127.0.0.1")`;

function rssMb(pid) {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
  return Math.round(kb / 102.4) / 10;
}

/** Spawns `args` with PORT set and polls /api/health every 5 ms; resolves once it answers 200. */
async function launch(args, env = {}) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) break;
    } catch {}
    if (Date.now() > deadline) throw new Error(`${args.join(" ")} did not become healthy`);
    await new Promise((r) => setTimeout(r, 5));
  }
  const startMs = performance.now() - started;
  return {
    startMs,
    pid: child.pid,
    async stop() {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    },
  };
}

async function measurePair() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "clipshare-bench-start-"));
  try {
    const bare = await launch(["-e", BARE]);
    const app = await launch([path.join(ROOT, "server/dist/main.js")], { DATA_DIR: dataDir });
    await new Promise((r) => setTimeout(r, IDLE_MS));
    const result = {
      bare: { ms: bare.startMs, rss: rssMb(bare.pid) },
      app: { ms: app.startMs, rss: rssMb(app.pid) },
    };
    await Promise.all([bare.stop(), app.stop()]);
    return result;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function run() {
  const pairs = [];
  for (let i = 0; i < PAIRS; i++) pairs.push(await measurePair());
  const row = (label, pick, unit, digits) => {
    const bare = median(pairs.map((p) => pick(p.bare)));
    const app = median(pairs.map((p) => pick(p.app)));
    console.log(
      `${label}: ClipShare ${app.toFixed(digits)} ${unit}, bare node:http ${bare.toFixed(digits)} ${unit}, ratio ${(app / bare).toFixed(2)}`,
    );
  };
  console.log(
    `median of ${PAIRS} runs; load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  row("start to healthy (target <= 300 ms)", (m) => m.ms, "ms", 0);
  row(`idle RSS ${IDLE_MS / 1000} s after start (target <= 60 MB)`, (m) => m.rss, "MB", 1);
}
