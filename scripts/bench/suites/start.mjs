// Lean start: time from spawn to a healthy answer and idle RSS 10 s later (SQLite + LOCAL,
// no S3 config), next to a bare node:http process started the same way in the same run.
// Measured on a restart: each data dir is set up by a first start (migrations, the first
// admin's password hash), whose time is reported apart.
// BENCH_START_BASELINE=<another build's main.js> adds that build to each run (before/after).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../server-process.mjs";
import { loadAverage, target } from "../targets.mjs";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const IDLE_MS = Number(process.env.BENCH_IDLE_MS ?? 10_000);
const PAIRS = 3;
const BASELINE = process.env.BENCH_START_BASELINE;
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
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      // As the container image and the systemd unit run it (docs/deployment.md, "Memory").
      MALLOC_MMAP_THRESHOLD_: "131072",
      ...env,
    },
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

/** One run: each process started in turn (so start times do not compete), then all sampled together. */
async function measureRun() {
  const dirs = [];
  const firstStarts = {};
  const app = (main, name) => async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "clipshare-bench-start-"));
    dirs.push(dataDir);
    const first = await launch([main], { DATA_DIR: dataDir });
    await first.stop();
    firstStarts[name] = first.startMs;
    return launch([main], { DATA_DIR: dataDir });
  };
  const starters = {
    bare: () => launch(["-e", BARE]),
    app: app(process.env.CLIPSHARE_SERVER_JS ?? path.join(ROOT, "server/dist/main.js"), "app"),
    ...(BASELINE ? { baseline: app(path.resolve(BASELINE), "baseline") } : {}),
  };
  const running = {};
  try {
    for (const [name, start] of Object.entries(starters)) running[name] = await start();
    await new Promise((r) => setTimeout(r, IDLE_MS));
    return Object.fromEntries(
      Object.entries(running).map(([n, p]) => [
        n,
        { ms: p.startMs, rss: rssMb(p.pid), firstMs: firstStarts[n] ?? p.startMs },
      ]),
    );
  } finally {
    await Promise.all(Object.values(running).map((p) => p.stop()));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function run() {
  const runs = [];
  for (let i = 0; i < PAIRS; i++) {
    runs.push(await measureRun());
    const each = Object.entries(runs.at(-1)).map(([n, m]) => `${n} ${m.ms.toFixed(0)} ms ${m.rss} MB`);
    console.log(`run ${i + 1}: ${each.join(", ")}`);
  }
  const row = (label, pick, unit, digits) => {
    const of = (name) => median(runs.map((r) => pick(r[name])));
    const bare = of("bare");
    const app = of("app");
    const baseline = BASELINE ? `, baseline build ${of("baseline").toFixed(digits)} ${unit}` : "";
    console.log(
      `${label}: ClipShare ${app.toFixed(digits)} ${unit}, bare node:http ${bare.toFixed(digits)} ${unit}, ratio ${(app / bare).toFixed(2)}${baseline}`,
    );
    return app;
  };
  console.log(`median of ${PAIRS} runs; load average ${loadAverage()}`);
  row("first start on an empty data dir (setup)", (m) => m.firstMs, "ms", 0);
  const startMs = row("start to healthy (target <= 300 ms)", (m) => m.ms, "ms", 0);
  const idle = row(`idle RSS ${IDLE_MS / 1000} s after start (target <= 64 MB)`, (m) => m.rss, "MB", 1);
  target("start to healthy (restart)", startMs, { max: 300 }, "ms");
  target(`idle RSS ${IDLE_MS / 1000} s after start`, idle, { max: 64 }, "MB");
}
