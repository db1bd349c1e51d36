/**
 * Malformed bodies against a real server process: multipart forms, JSON and
 * WebDAV XML cut at every boundary and mutated at random (a fixed seed, so a
 * failure repeats), and a garbage body for every route of the API document.
 * Whatever arrives, the process stays up and answers with a 4xx (or a 2xx
 * where the damaged body still happens to be valid), never a 5xx.
 *
 * Bounded in time: each corpus stops sending after its budget, so a slow
 * machine runs fewer cases instead of a longer test.
 */
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServer } from "../support/server-process";

const ADMIN_PASSWORD = "fuzz-admin-password";
const CORPUS_BUDGET_MS = 20_000;

let server: ServerProcess;
let dataDir: string;
let token: string;
const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

interface Answer {
  status: number;
  body: string;
}

/** Sends exactly `body` (its real length as Content-Length); a reset connection answers status 0. */
function send(method: string, url: string, headers: Record<string, string>, body?: Buffer): Promise<Answer> {
  return new Promise((resolve) => {
    const req = http.request(
      `${server.url}${url}`,
      {
        method,
        agent,
        headers: { ...headers, ...(body ? { "content-length": String(body.length) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
        res.on("error", () => resolve({ status: 0, body: "" }));
      },
    );
    req.setTimeout(15_000, () => req.destroy());
    req.on("error", () => resolve({ status: 0, body: "" }));
    req.end(body);
  });
}

/** A small deterministic PRNG (mulberry32): the same seed gives the same corpus on every run. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every cut just before, at and after each structural byte sequence, plus the empty and whole body. */
function truncations(body: Buffer, markers: string[]): Buffer[] {
  const cuts = new Set<number>([0, body.length]);
  for (const marker of markers) {
    for (let i = body.indexOf(marker); i !== -1; i = body.indexOf(marker, i + 1)) {
      for (const at of [i - 1, i, i + 1, i + marker.length - 1, i + marker.length])
        if (at >= 0 && at <= body.length) cuts.add(at);
    }
  }
  return [...cuts].sort((a, b) => a - b).map((at) => body.subarray(0, at));
}

/** Random damage: flipped, dropped, repeated and inserted bytes and spliced-in copies of markers. */
function mutations(body: Buffer, markers: string[], count: number, seed: number): Buffer[] {
  const random = prng(seed);
  const pick = (n: number) => Math.floor(random() * n);
  const out: Buffer[] = [];
  for (let n = 0; n < count; n++) {
    const bytes = [...body];
    const edits = 1 + pick(4);
    for (let e = 0; e < edits; e++) {
      const at = pick(bytes.length + 1);
      switch (pick(5)) {
        case 0:
          if (bytes.length) bytes[Math.min(at, bytes.length - 1)]! ^= 1 << pick(8);
          break;
        case 1:
          bytes.splice(at, 1 + pick(8));
          break;
        case 2:
          bytes.splice(at, 0, ...bytes.slice(at, at + 1 + pick(16)));
          break;
        case 3:
          bytes.splice(at, 0, pick(256));
          break;
        default:
          bytes.splice(at, 0, ...Buffer.from(markers[pick(markers.length)]!));
      }
    }
    out.push(Buffer.from(bytes));
  }
  return out;
}

/** Sends each body until the budget runs out; returns how many went and the answers that were 5xx or resets. */
async function run(bodies: Buffer[], request: (body: Buffer) => Promise<Answer>) {
  const deadline = Date.now() + CORPUS_BUDGET_MS;
  const bad: string[] = [];
  let sent = 0;
  for (const body of bodies) {
    if (Date.now() > deadline) break;
    const answer = await request(body);
    sent++;
    if (answer.status >= 500 || answer.status === 0)
      bad.push(
        `${answer.status} for ${JSON.stringify(body.toString("latin1").slice(0, 160))}: ${answer.body.slice(0, 200)}`,
      );
    if (server.child.exitCode !== null)
      throw new Error(
        `the server exited after ${JSON.stringify(body.toString("latin1"))}: ${server.stderr()}`,
      );
  }
  return { sent, bad };
}

const CRLF = "\r\n";
function form(boundary: string, parts: Array<{ name: string; filename?: string; value: string }>): Buffer {
  let text = "";
  for (const p of parts) {
    text += `--${boundary}${CRLF}Content-Disposition: form-data; name="${p.name}"`;
    if (p.filename) text += `; filename="${p.filename}"${CRLF}Content-Type: text/plain`;
    text += `${CRLF}${CRLF}${p.value}${CRLF}`;
  }
  return Buffer.from(`${text}--${boundary}--${CRLF}`);
}

async function json(method: string, url: string, body?: unknown) {
  const res = await fetch(`${server.url}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { data: { id: string } } };
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "clipshare-fuzz-"));
  server = await startServer({ DATA_DIR: dataDir, ADMIN_PASSWORD, LOG_LEVEL: "silent" });
  const login = await fetch(`${server.url}/api/admin/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "admin", password: ADMIN_PASSWORD }),
  });
  token = ((await login.json()) as { data: { token: string } }).data.token;
  const storage = await json("POST", "/api/s3-configs", {
    storage_type: "LOCAL",
    name: "fuzz-disk",
    root_path: path.join(dataDir, "fuzz-disk"),
  });
  expect(storage.status).toBe(201);
  const mount = await json("POST", "/api/admin/mounts", {
    name: "fuzz",
    storage_type: "LOCAL",
    storage_config_id: storage.body.data.id,
    mount_path: "/fuzz",
  });
  expect(mount.status).toBe(201);
}, 60_000);

afterAll(async () => {
  agent.destroy();
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const MULTIPART_MARKERS = ["--", CRLF, `${CRLF}${CRLF}`, "Content-Disposition", "filename=", '"', ";"];

describe("damaged multipart forms never stop the server", () => {
  const boundary = "FuzzBoundary7MA4YWxk";
  const headers = () => ({
    authorization: `Bearer ${token}`,
    "content-type": `multipart/form-data; boundary=${boundary}`,
  });
  const file = { name: "file", filename: "fuzz.txt", value: "hello fuzz\r\n--not-a-boundary\r\n" };
  const cases = [
    {
      route: "/api/upload",
      body: form(boundary, [file, { name: "remark", value: "r" }, { name: "max_views", value: "3" }]),
    },
    { route: "/api/upload", body: form(boundary, [{ name: "remark", value: "r" }, file]) },
    {
      route: "/api/fs/upload",
      body: form(boundary, [
        file,
        { name: "path", value: "/fuzz/in/" },
        { name: "use_multipart", value: "false" },
      ]),
    },
    { route: "/api/fs/upload", body: form(boundary, [{ name: "path", value: "/fuzz/in/" }, file]) },
  ];

  it.each(cases.map((c, i) => [i, c.route, c] as const))(
    "form %i to %s, cut at every boundary and mutated: 4xx answers, the process stays up",
    async (i, route, c) => {
      const bodies = [
        ...truncations(c.body, MULTIPART_MARKERS),
        ...mutations(c.body, MULTIPART_MARKERS, 150, 1000 + i),
      ];
      const { sent, bad } = await run(bodies, (body) => send("POST", route, headers(), body));
      expect(bad).toEqual([]);
      expect(sent).toBeGreaterThan(20);
      expect((await send("GET", "/api/health", {})).status).toBe(200);
    },
    60_000,
  );
});

describe("damaged JSON bodies never stop the server", () => {
  const JSON_MARKERS = ["{", "}", "[", "]", '"', ":", ",", "\\"];
  const cases: Array<[string, string, unknown]> = [
    [
      "POST",
      "/api/paste",
      { content: "fuzz ✓ \\u0000", remark: "r", max_views: 3, expires_at: null, slug: "fuzz-slug" },
    ],
    ["POST", "/api/admin/api-keys", { name: "k", permissions: 7, expires_at: "never", base_path: "/fuzz" }],
    ["POST", "/api/fs/mkdir", { path: "/fuzz/a/b/" }],
    ["POST", "/api/fs/batch-copy", { items: [{ sourcePath: "/fuzz/a/", targetPath: "/fuzz/b/" }] }],
    [
      "POST",
      "/api/files/multipart/init",
      { filename: "f.bin", size: 10, part_size: 5, mimetype: "application/octet-stream" },
    ],
  ];
  it.each(cases)(
    "%s %s, cut and mutated: 4xx answers, the process stays up",
    async (method, route, value) => {
      const body = Buffer.from(JSON.stringify(value));
      const bodies = [
        ...truncations(body, JSON_MARKERS),
        ...mutations(body, JSON_MARKERS, 120, route.length),
      ];
      const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
      const { sent, bad } = await run(bodies, (b) => send(method, route, headers, b));
      expect(bad).toEqual([]);
      expect(sent).toBeGreaterThan(20);
    },
    60_000,
  );
});

describe("damaged WebDAV bodies never stop the server", () => {
  const XML_MARKERS = ["<", ">", "/", ":", '"', "xmlns", "D:"];
  const propfind = `<?xml version="1.0" encoding="utf-8"?><D:propfind xmlns:D="DAV:"><D:prop><D:getcontentlength/><D:resourcetype/></D:prop></D:propfind>`;
  const proppatch = `<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:fuzz"><D:set><D:prop><Z:note>x &amp; y</Z:note></D:prop></D:set><D:remove><D:prop><Z:old/></D:prop></D:remove></D:propertyupdate>`;
  const lock = `<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner><D:href>fuzz</D:href></D:owner></D:lockinfo>`;
  const basic = () => `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString("base64")}`;
  const cases: Array<[string, string, string, Record<string, string>]> = [
    ["PROPFIND", "/dav/fuzz/", propfind, { depth: "1" }],
    ["PROPPATCH", "/dav/fuzz/in/", proppatch, {}],
    ["LOCK", "/dav/fuzz/locked.txt", lock, { timeout: "Second-60" }],
  ];
  it.each(cases)(
    "%s %s, cut and mutated: 4xx answers, the process stays up",
    async (method, route, xml, extra) => {
      const body = Buffer.from(xml);
      const bodies = [...truncations(body, XML_MARKERS), ...mutations(body, XML_MARKERS, 120, xml.length)];
      const headers = { authorization: basic(), "content-type": "application/xml", ...extra };
      const { sent, bad } = await run(bodies, async (b) => {
        const answer = await send(method, route, headers, b);
        // A LOCK that succeeded holds the resource: let it go so the next case starts alike.
        if (method === "LOCK" && answer.status < 300) {
          const lockToken = /<D:href>(opaquelocktoken:[^<]+)</i.exec(answer.body)?.[1];
          if (lockToken)
            await send("UNLOCK", route, { authorization: basic(), "lock-token": `<${lockToken}>` });
        }
        return answer;
      });
      expect(bad).toEqual([]);
      expect(sent).toBeGreaterThan(20);
    },
    60_000,
  );
});

describe("every route of the API document, with a damaged body", () => {
  it("answers each operation with something other than 5xx, and the process stays up", async () => {
    const doc = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const operations = Object.entries(doc.paths).flatMap(([route, ops]) =>
      Object.keys(ops)
        .filter((m) => ["get", "post", "put", "patch", "delete"].includes(m))
        // Signing out would end this test's session; it is exercised elsewhere.
        .filter(() => !route.endsWith("/logout"))
        .map((method) => ({ method: method.toUpperCase(), route: route.replace(/\{[^}]+\}/g, "fuzz") })),
    );
    expect(operations.length).toBeGreaterThan(80);
    const boundary = "RouteFuzz";
    const bodies: Array<{ type: string; body: Buffer }> = [
      { type: "application/json", body: Buffer.from('{"path":"/fuzz/x","items":[{"a":') },
      {
        type: `multipart/form-data; boundary=${boundary}`,
        body: Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nx\r\n`,
        ),
      },
      { type: "application/octet-stream", body: Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0x22]) },
    ];
    const bad: string[] = [];
    for (const { method, route } of operations) {
      for (const { type, body } of bodies) {
        const withBody = method !== "GET" && method !== "DELETE";
        const answer = await send(
          method,
          route,
          { authorization: `Bearer ${token}`, ...(withBody ? { "content-type": type } : {}) },
          withBody ? body : undefined,
        );
        if (answer.status >= 500 || answer.status === 0)
          bad.push(`${method} ${route} (${type}): ${answer.status} ${answer.body.slice(0, 160)}`);
        if (server.child.exitCode !== null)
          throw new Error(`the server exited after ${method} ${route} (${type}): ${server.stderr()}`);
      }
    }
    expect(bad).toEqual([]);
  }, 120_000);
});
