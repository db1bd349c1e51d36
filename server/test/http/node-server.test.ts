/**
 * ClipShare's HTTP server (http/node-server.ts: node:http with @hono/node-server) over real
 * sockets: what the adapter must keep doing for ClipShare (headers set on Node's response before
 * the handler, the already-sent marker, request targets that make no URL, a body nobody reads),
 * and the limits a public server needs: pipelined requests nobody reads, a body that stalls,
 * the per-address connection cap. The pipelining checks run the real server process and watch
 * its resident memory.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import { Hono } from "hono";
import { setCookie } from "hono/cookie";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NodeBindings } from "../../src/http/node-body";
import { type ServerLimits, serveApp } from "../../src/http/node-server";
import { createLogger } from "../../src/logger";
import { startServer } from "../support/server-process";
import { ADMIN_PASSWORD, ADMIN_USERNAME, createTestApp, type TestApp } from "../support/test-app";

const app = new Hono<{ Bindings: NodeBindings }>();
app.get("/plain", (c) => {
  c.env.outgoing.setHeader("x-before", "node");
  c.env.outgoing.setHeader("x-both", "node");
  return c.json({ hello: "wörld" }, 201, { "x-both": "answer" });
});
app.get("/cookies", (c) => {
  setCookie(c, "a", "1");
  setCookie(c, "b", "2");
  return c.json({ ok: true });
});
app.post("/refuse", (c) => c.json({ error: "payload_too_large" }, 413));
app.get("/sent", (c) => {
  c.env.outgoing.writeHead(202, { "content-type": "text/plain" });
  c.env.outgoing.end("written by the route");
  return RESPONSE_ALREADY_SENT;
});

/** Starts `fetchApp` on a loopback port; its log lines collect in `lines`. */
async function listen(fetchApp: { fetch: never }, limits: Partial<ServerLimits> = {}) {
  const lines: string[] = [];
  const log = createLogger("debug", { write: (line: string) => void lines.push(line) });
  const server = serveApp(fetchApp, { port: 0, hostname: "127.0.0.1", log, limits });
  await new Promise<void>((r) => server.once("listening", () => r()));
  const port = (server.address() as net.AddressInfo).port;
  return {
    server,
    port,
    base: `http://127.0.0.1:${port}`,
    lines,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Sends `request` on a new connection and resolves with all the server wrote until it closed. */
const raw = (port: number, request: string) =>
  new Promise<string>((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.end(request));
    let text = "";
    socket.on("data", (d) => {
      text += d;
    });
    socket.on("end", () => resolve(text));
    socket.on("error", reject);
  });

const until = async (check: () => boolean, ms = 5000) => {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  return check();
};

describe("the Node server", () => {
  let s: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    s = await listen(app as never);
  });
  afterAll(() => s.close());

  it("writes the answer over the headers set on Node's response before it, the answer's winning", async () => {
    const res = await fetch(`${s.base}/plain`);
    expect(res.status).toBe(201);
    expect(res.headers.get("x-before")).toBe("node");
    expect(res.headers.get("x-both")).toBe("answer");
    expect(res.headers.get("content-length")).toBe(String(Buffer.byteLength('{"hello":"wörld"}')));
    expect(await res.json()).toEqual({ hello: "wörld" });
  });

  it("sends each cookie on a Set-Cookie line of its own", async () => {
    const res = await fetch(`${s.base}/cookies`);
    expect(res.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/"]);
  });

  it("writes nothing more for a route that answered on Node's response itself", async () => {
    const res = await fetch(`${s.base}/sent`);
    expect(res.status).toBe(202);
    expect(await res.text()).toBe("written by the route");
  });

  it("lets a client that is still sending a body nobody reads get the answer", async () => {
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = http.request(`${s.base}/refuse`, { method: "POST" }, (res) => {
        res.resume();
        resolve(res.statusCode);
      });
      req.on("error", reject);
      // The server may close the connection before the last bytes are written (EPIPE on the socket).
      req.on("socket", (socket) => socket.on("error", () => {}));
      req.write(Buffer.alloc(1024 * 1024));
      setTimeout(() => req.end(Buffer.alloc(1024 * 1024)), 100);
    });
    expect(status).toBe(413);
  });

  it("answers 400 to a request path with a backslash, a request without Host and a Host that is no host", async () => {
    expect(await raw(s.port, "GET /files\\..\\secret HTTP/1.1\r\nHost: localhost\r\n\r\n")).toMatch(
      /^HTTP\/1\.1 400 /,
    );
    expect(await raw(s.port, "GET /api/health HTTP/1.0\r\n\r\n")).toMatch(/^HTTP\/1\.1 400 /);
    expect(await raw(s.port, "GET /api/health HTTP/1.1\r\nHost: evil.example/x?\r\n\r\n")).toMatch(
      /^HTTP\/1\.1 400 /,
    );
  });
});

describe("a saturated server", () => {
  const busy = new Hono();
  let handled = 0;
  busy.get("/fast", (c) => c.text("fast"));
  // A request that keeps the event loop busy for 3 ms, as a heavy answer would.
  busy.get("/slow", (c) => {
    const until = performance.now() + 3;
    while (performance.now() < until);
    handled++;
    return c.text("slow");
  });

  it("still accepts a new connection while it works through a burst of requests", async () => {
    const s = await listen(busy as never);
    try {
      // Sixty open connections, each already answered once (so each was accepted).
      const sockets = await Promise.all(
        Array.from({ length: 60 }, async () => {
          const socket = net.connect(s.port, "127.0.0.1");
          socket.on("error", () => {});
          const answered = new Promise((r) => socket.once("data", r));
          socket.write("GET /fast HTTP/1.1\r\nHost: x\r\n\r\n");
          await answered;
          return socket;
        }),
      );
      let acceptedAfter: number | undefined;
      s.server.once("connection", () => {
        acceptedAfter = handled;
      });
      // 180 ms of work arrives at once; as soon as the first answer is out, a newcomer connects.
      const firstAnswer = new Promise((r) => sockets[0]!.once("data", r));
      for (const socket of sockets) socket.write("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n");
      await firstAnswer;
      const newcomer = net.connect(s.port, "127.0.0.1");
      newcomer.on("error", () => {});
      expect(await until(() => acceptedAfter !== undefined)).toBe(true);
      // Had the server answered the whole burst in one pass of its loop, it would have accepted
      // the newcomer only after all sixty.
      expect(acceptedAfter).toBeLessThan(30);
      for (const socket of [...sockets, newcomer]) socket.destroy();
    } finally {
      await s.close();
    }
  });
});

describe("the server's limits", () => {
  let t: TestApp;
  let s: Awaited<ReturnType<typeof listen>>;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp();
    token = await t.adminToken();
    s = await listen(t.app as never, { bodyIdleTimeoutMs: 400, maxConnectionsPerIp: 5 });
  });
  afterAll(async () => {
    await s.close();
    await t.close();
  });

  it("cuts a client that stalls mid-body after the idle timeout and logs it at info, not as an error", async () => {
    const socket = net.connect(s.port, "127.0.0.1");
    socket.on("error", () => {});
    await new Promise((r) => socket.once("connect", r));
    const closed = new Promise<number>((r) => socket.once("close", () => r(Date.now())));
    const started = Date.now();
    socket.write(
      `PUT /api/upload-direct/stall.bin HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/octet-stream\r\nContent-Length: 1000000\r\nX-Request-Id: stall-1\r\n\r\n`,
    );
    socket.write(Buffer.alloc(10_000));
    const elapsed = (await closed) - started;
    expect(elapsed).toBeGreaterThanOrEqual(350);
    expect(elapsed).toBeLessThan(4000);
    expect(await until(() => s.lines.some((l) => l.includes("request body idle timeout")))).toBe(true);
    const lines = s.lines.map((l) => JSON.parse(l));
    expect(lines.find((l) => l.msg === "request body idle timeout")).toMatchObject({
      level: 30,
      reqId: "stall-1",
      method: "PUT",
      bodyComplete: false,
    });
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
  });

  it("logs a client that goes away mid-body as client aborted, at info", async () => {
    const socket = net.connect(s.port, "127.0.0.1");
    socket.on("error", () => {});
    await new Promise((r) => socket.once("connect", r));
    socket.write(
      `PUT /api/upload-direct/gone.bin HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Length: 1000000\r\nX-Request-Id: gone-1\r\n\r\n`,
    );
    socket.write(Buffer.alloc(10_000));
    await new Promise((r) => setTimeout(r, 100));
    socket.destroy();
    expect(
      await until(() => s.lines.some((l) => l.includes('"reqId":"gone-1"') && l.includes("client aborted"))),
    ).toBe(true);
    expect(s.lines.map((l) => JSON.parse(l)).filter((l) => l.level >= 50)).toEqual([]);
  });

  it("refuses the connection beyond the per-address cap, and takes new ones once others close", async () => {
    const open: net.Socket[] = [];
    for (let i = 0; i < 5; i++) {
      const socket = net.connect(s.port, "127.0.0.1");
      socket.on("error", () => {});
      await new Promise((r) => socket.once("connect", r));
      open.push(socket);
    }
    // The sixth is closed before it is answered.
    const answered = await raw(
      s.port,
      "GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    ).catch(() => "");
    expect(answered).toBe("");
    open.pop()?.destroy();
    await new Promise((r) => setTimeout(r, 100));
    expect(await raw(s.port, "GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")).toMatch(
      /^HTTP\/1\.1 200 /,
    );
    for (const socket of open) socket.destroy();
    expect(s.lines.some((l) => l.includes("Too many connections from one address"))).toBe(true);
  });
});

/** Resident memory of process `pid` in MB. */
const rssMb = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]) / 1024;
};

/**
 * Sends `count` pipelined copies of `request` on one connection that never reads, and returns
 * the server's largest RSS growth over `watchMs`.
 */
async function pipelinedGrowth(port: number, pid: number, request: string, count: number, watchMs = 4000) {
  const before = rssMb(pid);
  const socket = net.connect(port, "127.0.0.1");
  socket.on("error", () => {});
  await new Promise((r) => socket.once("connect", r));
  socket.pause();
  socket.write(request.repeat(count));
  let peak = before;
  const deadline = Date.now() + watchMs;
  while (Date.now() < deadline) {
    peak = Math.max(peak, rssMb(pid));
    await new Promise((r) => setTimeout(r, 100));
  }
  socket.destroy();
  return peak - before;
}

describe("pipelined requests nobody reads (the real server process)", () => {
  let dir: string;
  let server: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "clipshare-pipeline-"));
    const web = path.join(dir, "web");
    mkdirSync(path.join(web, "assets"), { recursive: true });
    writeFileSync(path.join(web, "index.html"), "<!doctype html><title>ClipShare</title>");
    // A script about the size of the web app's largest chunk, not compressible to nothing.
    writeFileSync(path.join(web, "assets", "app-1.js"), randomBytes(400 * 1024).toString("base64"));
    server = await startServer({
      DATA_DIR: path.join(dir, "data"),
      WEB_DIST_DIR: web,
      ADMIN_USERNAME,
      ADMIN_PASSWORD,
    });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const pid = () => server.child.pid as number;

  it("3,000 GETs of a static asset grow the server by less than 50 MB", async () => {
    const request = "GET /assets/app-1.js HTTP/1.1\r\nHost: x\r\nAccept-Encoding: identity\r\n\r\n";
    // Warm up: the route and the file are loaded before the baseline.
    expect((await fetch(`${server.url}/assets/app-1.js`)).status).toBe(200);
    const growth = await pipelinedGrowth(server.port, pid(), request, 3000);
    expect(growth).toBeLessThan(50);
    // And the server still answers.
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  }, 30_000);

  it("500 GETs of a public 4 MiB file share grow the server by less than 50 MB", async () => {
    const login = await fetch(`${server.url}/api/admin/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: ADMIN_USERNAME, password: ADMIN_PASSWORD }),
    });
    const token = ((await login.json()) as { data: { token: string } }).data.token;
    const up = await fetch(`${server.url}/api/upload-direct/big.bin`, {
      method: "PUT",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/octet-stream" },
      body: randomBytes(4 * 1024 * 1024),
    });
    expect(up.status).toBe(201);
    const slug = ((await up.json()) as { data: { slug: string } }).data.slug;
    const first = await fetch(`${server.url}/api/file-download/${slug}`);
    expect(first.status).toBe(200);
    await first.arrayBuffer();
    const growth = await pipelinedGrowth(
      server.port,
      pid(),
      `GET /api/file-download/${slug} HTTP/1.1\r\nHost: x\r\n\r\n`,
      500,
    );
    expect(growth).toBeLessThan(50);
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  }, 30_000);
});
