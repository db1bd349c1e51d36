/**
 * Downloads over a real socket, where the Node server pipes stored bytes
 * straight into the response (http/node-body.ts): the body, Range, HEAD,
 * conditional requests and every header the middleware adds must be exactly
 * what the in-process path gives, and a client that goes away must not leave
 * the stored file open.
 */
import { createHash, randomBytes } from "node:crypto";
import { readdirSync, readlinkSync, truncateSync } from "node:fs";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listenTestApp } from "../support/listen";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
let token: string;
let server: Awaited<ReturnType<typeof listenTestApp>>;
let base: string;
const MiB = 1024 * 1024;
const bytes = randomBytes(5 * MiB + 123);
const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
let slug: string;

beforeAll(async () => {
  t = await createTestApp();
  token = await t.adminToken();
  server = await listenTestApp(t);
  base = server.base;
  const up = await t.request("PUT", "/api/upload-direct/movie.mp4", {
    token,
    rawBody: bytes,
    headers: { "content-type": "video/mp4" },
  });
  expect(up.status).toBe(201);
  slug = up.body.data.slug;
});
afterAll(async () => {
  await server.close();
  await t.close();
});

async function get(path: string, headers: Record<string, string> = {}, method = "GET") {
  const res = await fetch(`${base}${path}`, { method, headers });
  return { res, body: Buffer.from(await res.arrayBuffer()) };
}

const views = async () => (await t.request("GET", `/api/public/files/${slug}`)).body.data.views as number;

/** Open descriptors of this process that point into the data dir. */
const openDataFiles = () =>
  readdirSync("/proc/self/fd").filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`).startsWith(t.dataDir);
    } catch {
      return false;
    }
  }).length;

describe("file download over a socket", () => {
  it("sends the exact bytes with the type, disposition, security headers, request id and one counted view", async () => {
    const before = await views();
    const { res, body } = await get(`/api/file-download/${slug}`);
    expect(res.status).toBe(200);
    expect(sha(body)).toBe(sha(bytes));
    expect(res.headers.get("content-length")).toBe(String(bytes.length));
    expect(res.headers.get("content-type")).toBe("video/mp4");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="movie.mp4"');
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get("etag")).toMatch(/^"[0-9a-f]+"$/);
    expect(await views()).toBe(before + 1);
  });

  it("Range, HEAD and If-None-Match answer as before", async () => {
    const part = await get(`/api/file-view/${slug}`, { range: "bytes=1048570-2097160" });
    expect(part.res.status).toBe(206);
    expect(part.res.headers.get("content-range")).toBe(`bytes 1048570-2097160/${bytes.length}`);
    expect(part.body.equals(bytes.subarray(1048570, 2097161))).toBe(true);
    const suffix = await get(`/api/file-view/${slug}`, { range: "bytes=-100" });
    expect(suffix.body.equals(bytes.subarray(bytes.length - 100))).toBe(true);
    // Across three 1 MiB reads of the fast path, starting and ending inside one.
    const wide = await get(`/api/file-view/${slug}`, { range: "bytes=2097100-4194400" });
    expect(wide.body.equals(bytes.subarray(2097100, 4194401))).toBe(true);
    const bad = await get(`/api/file-view/${slug}`, { range: `bytes=${bytes.length + 10}-` });
    expect(bad.res.status).toBe(416);

    const head = await get(`/api/file-view/${slug}`, {}, "HEAD");
    expect(head.res.status).toBe(200);
    expect(head.res.headers.get("content-length")).toBe(String(bytes.length));
    expect(head.body.length).toBe(0);
    const etag = head.res.headers.get("etag")!;
    const cached = await get(`/api/file-view/${slug}`, { "if-none-match": etag });
    expect(cached.res.status).toBe(304);
    expect(cached.body.length).toBe(0);
  });

  it("a client that disconnects mid-download leaves no stored file open", async () => {
    const idle = openDataFiles();
    await new Promise<void>((resolve, reject) => {
      const req = http.get(`${base}/api/file-download/${slug}`, (res) => {
        res.once("data", () => {
          req.destroy();
          resolve();
        });
      });
      req.on("error", (e) => (req.destroyed ? undefined : reject(e)));
    });
    for (let i = 0; i < 50 && openDataFiles() > idle; i++) await new Promise((r) => setTimeout(r, 50));
    expect(openDataFiles()).toBe(idle);
    // The server still answers after the cut.
    const again = await get(`/api/file-view/${slug}`, { range: "bytes=0-9" });
    expect(again.body.equals(bytes.subarray(0, 10))).toBe(true);
  });

  it("a file that shrinks while it downloads cuts the response at once and is closed", async () => {
    const size = 16 * MiB;
    const up = await t.request("PUT", "/api/upload-direct/shrinking.bin", {
      token,
      rawBody: Buffer.alloc(size, 1),
    });
    expect(up.status).toBe(201);
    const { driver } = await t.ctx.storageConfigs.driverById(up.body.data.storage_config_id);
    const stored = await driver.localPath!(up.body.data.storage_path);
    const idle = openDataFiles();
    const started = performance.now();
    const outcome = await new Promise<{ received: number; complete: boolean }>((resolve, reject) => {
      const req = http.get(`${base}/api/file-download/${up.body.data.slug}`, (res) => {
        let received = 0;
        res.on("data", (chunk: Buffer) => {
          if (received === 0) truncateSync(stored, MiB);
          received += chunk.length;
        });
        res.on("error", () => {});
        res.on("close", () => resolve({ received, complete: res.complete }));
      });
      req.on("error", (e) => (req.destroyed ? undefined : reject(e)));
    });
    // A response that just stopped short would leave the client waiting for bytes that never come.
    expect(outcome.complete).toBe(false);
    expect(outcome.received).toBeLessThan(size);
    expect(performance.now() - started).toBeLessThan(2500);
    for (let i = 0; i < 50 && openDataFiles() > idle; i++) await new Promise((r) => setTimeout(r, 50));
    expect(openDataFiles()).toBe(idle);
  });
});
