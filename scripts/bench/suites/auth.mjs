// Cost of wrong credentials: a flood of HTTP Basic headers with a wrong password must stay
// about as cheap as an anonymous request (no password hash for a request that cannot succeed
// or is over its limit), measured against a bare node:http server in the same run, and must not
// slow down a real admin login.
import { spawn } from "node:child_process";
import { formatLoad, load } from "../load.mjs";
import { ADMIN, freePort, startServer } from "../server-process.mjs";

const CONNECTIONS = 64;
const SECONDS = 8;
const wrongBasic = `Basic ${Buffer.from(`${ADMIN.username}:not-the-password`).toString("base64")}`;

/** The floor: the cheapest JSON answer node:http gives on this box right now (own process, like the server). */
async function bareFloor() {
  const port = await freePort();
  const code = `require("node:http").createServer((q, s) => {
    const b = JSON.stringify({ status: "ok", timestamp: new Date().toISOString() });
    s.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(b) });
    s.end(b);
  }).listen(${port}, "127.0.0.1", () => process.stdout.write("ready\\n"));`;
  const child = spawn(process.execPath, ["-e", code], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise((resolve) => child.stdout.once("data", resolve));
  try {
    return await load({
      url: `http://127.0.0.1:${port}/api/health`,
      connections: CONNECTIONS,
      seconds: SECONDS,
    });
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
  }
}

async function loginMs(base) {
  const started = performance.now();
  const res = await fetch(`${base}/api/admin/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(ADMIN),
  });
  await res.arrayBuffer();
  if (res.status !== 200) return null;
  return performance.now() - started;
}

const median = (values) => {
  const sorted = values.filter((v) => v !== null).sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)] : null;
};

export async function run() {
  const floor = await bareFloor();
  const relative = (r) => `${((r.rps / floor.rps) * 100).toFixed(0)}% of floor`;
  console.log(`${formatLoad(`bare node:http (c${CONNECTIONS})`, floor)}`);
  const server = await startServer();
  try {
    const idleLogin = [];
    for (let i = 0; i < 5; i++) idleLogin.push(await loginMs(server.base));
    const anon = await load({ url: `${server.base}/api/health`, connections: CONNECTIONS, seconds: SECONDS });
    console.log(`${formatLoad(`GET /api/health (c${CONNECTIONS})`, anon)}   ${relative(anon)}`);

    // Logins measured while the flood runs: they must not queue behind password hashes.
    const flood = load({
      url: `${server.base}/api/health`,
      headers: { authorization: wrongBasic },
      connections: CONNECTIONS,
      seconds: SECONDS,
      warmup: 0,
    });
    await new Promise((r) => setTimeout(r, 2000));
    const floodLogin = [];
    for (let i = 0; i < 5; i++) floodLogin.push(await loginMs(server.base));
    const basic = await flood;
    console.log(`${formatLoad(`/api/health + wrong Basic (c${CONNECTIONS})`, basic)}   ${relative(basic)}`);

    const dav = await load({
      url: `${server.base}/dav/`,
      method: "PROPFIND",
      headers: { authorization: wrongBasic, depth: "0" },
      connections: CONNECTIONS,
      seconds: SECONDS,
    });
    console.log(`${formatLoad(`PROPFIND /dav/ + wrong Basic (c${CONNECTIONS})`, dav)}   ${relative(dav)}`);
    const fmt = (v) => (v === null ? "refused" : `${v.toFixed(0)} ms`);
    console.log(
      `admin login (median of 5): idle ${fmt(median(idleLogin))}, during the Basic flood ${fmt(median(floodLogin))}`,
    );
    console.log(`RSS after load: ${await server.rssMb()} MB`);
  } finally {
    await server.stop();
  }
}
