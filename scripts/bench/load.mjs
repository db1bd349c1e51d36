// HTTP load generation: wrk when installed (lighter on a 2-core box), else autocannon.
import { execFile, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const hasWrk = spawnSync("sh", ["-c", "command -v wrk"]).status === 0;
let scriptSeq = 0;

function parseWrkLatency(text, label) {
  const m = new RegExp(`^\\s*${label}\\s+([\\d.]+)(us|ms|s)`, "m").exec(text);
  if (!m) return null;
  const v = Number(m[1]);
  return m[2] === "us" ? v / 1000 : m[2] === "s" ? v * 1000 : v;
}

/**
 * Runs a load test and returns { rps, p50, p99, errors, errorCount, non2xx }.
 * options: { url, method, headers, body, connections, seconds }
 */
export async function load({
  url,
  method = "GET",
  headers = {},
  body,
  connections = 50,
  seconds = 10,
  warmup = 2,
}) {
  // A short unmeasured run first: the JIT compiles the hot path and connections open,
  // so start-up stalls do not land in the percentiles.
  if (warmup > 0) await load({ url, method, headers, body, connections, seconds: warmup, warmup: 0 });
  if (hasWrk) {
    const script = path.join(os.tmpdir(), `clipshare-wrk-${process.pid}-${++scriptSeq}.lua`);
    const lines = [`wrk.method = ${JSON.stringify(method)}`];
    for (const [k, v] of Object.entries(headers))
      lines.push(`wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`);
    if (body !== undefined) lines.push(`wrk.body = ${JSON.stringify(body)}`);
    lines.push(
      "local non2xx = 0",
      "response = function(status) if status < 200 or status > 299 then non2xx = non2xx + 1 end end",
    );
    writeFileSync(script, `${lines.join("\n")}\n`);
    // Asynchronous, so a caller can measure something else while the load runs.
    const { stdout: out } = await promisify(execFile)(
      "wrk",
      ["-t1", `-c${connections}`, `-d${seconds}s`, "--latency", "-s", script, url],
      { encoding: "utf8" },
    );
    const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0);
    const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
    const errors = /Socket errors:.*/.exec(out)?.[0] ?? "";
    // "Socket errors: connect 0, read 0, write 0, timeout 0": their sum.
    const errorCount = [...errors.matchAll(/\d+/g)].reduce((n, m) => n + Number(m[0]), 0);
    return {
      tool: "wrk",
      rps,
      p50: parseWrkLatency(out, "50%"),
      p99: parseWrkLatency(out, "99%"),
      non2xx,
      errors,
      errorCount,
    };
  }
  const { default: autocannon } = await import("autocannon");
  const result = await autocannon({ url, method, headers, body, connections, duration: seconds });
  return {
    tool: "autocannon",
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: String(result.errors),
    errorCount: result.errors + result.timeouts,
  };
}

export function formatLoad(name, r) {
  const fmt = (v) => (v === null || v === undefined ? "n/a" : `${v.toFixed(2)} ms`);
  return `${name.padEnd(34)} ${r.rps.toFixed(0).padStart(7)} req/s   p50 ${fmt(r.p50).padStart(10)}   p99 ${fmt(r.p99).padStart(10)}   non-2xx ${r.non2xx}${r.errors ? `   ${r.errors}` : ""}   (${r.tool})`;
}
