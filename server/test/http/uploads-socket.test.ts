/**
 * Upload routes over a real socket, where a client can go away mid-body and a
 * body can be larger than the limit without announcing it: every route feeds
 * storage through lib/ingest, so each cleans up and answers the same way.
 */
import { existsSync, readdirSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listenTestApp } from "../support/listen";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
let token: string;
let server: Awaited<ReturnType<typeof listenTestApp>>;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  token = await t.adminToken();
  server = await listenTestApp(t);
  base = server.base;
});
afterAll(async () => {
  await server.close();
  await t.close();
});

const MiB = 1024 * 1024;
const tmpDir = () => path.join(t.dataDir, "files", ".clipshare-tmp");
const spoolDir = () => path.join(t.dataDir, "tmp", "uploads");
const entries = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);

/** Sends the first chunks of a body, then drops the connection. */
function cutAfter(
  method: string,
  url: string,
  headers: Record<string, string>,
  chunks: Buffer[],
): Promise<void> {
  return new Promise((resolve) => {
    const req = http.request(url, { method, headers });
    req.on("error", () => resolve());
    req.on("response", (res) => {
      res.resume();
      resolve();
    });
    for (const chunk of chunks) req.write(chunk);
    setTimeout(() => {
      req.destroy();
      resolve();
    }, 300);
  });
}

async function eventually(check: () => Promise<boolean> | boolean) {
  for (let i = 0; i < 50 && !(await check()); i++) await new Promise((r) => setTimeout(r, 100));
  expect(await check()).toBe(true);
}

describe("a client that goes away mid-body leaves nothing behind", () => {
  it("a LOCAL part PUT: no part is stored, the upload can go on", async () => {
    const init = await t.request("POST", "/api/files/multipart/init", {
      token,
      body: { filename: "cut.bin", total_size: 11 * MiB, part_size: 5 * MiB, part_count: 3 },
    });
    expect(init.status, init.text).toBe(200);
    const d = init.body.data;
    await cutAfter(
      "PUT",
      d.presigned_urls[0].url.replace(/^https?:\/\/[^/]+/, base),
      { "content-length": String(5 * MiB) },
      [Buffer.alloc(2 * MiB, 1)],
    );
    const uploadDir = path.join(tmpDir(), `mp-${d.upload_id}`);
    // Bytes of a cut part may sit in the upload's data file; without its marker no part is stored.
    await eventually(() => entries(uploadDir).every((n) => n === "meta.json" || n === "data"));
    const resumed = await t.request("POST", "/api/files/multipart/resume", {
      token,
      body: { file_id: d.file_id, upload_id: d.upload_id },
    });
    expect(resumed.status).toBe(200);
    expect(resumed.body.data.parts).toEqual([]);
  });

  it("a form whose file comes first: no share, no spooled file", async () => {
    const boundary = "----cut";
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="gone.bin"\r\n` +
        "Content-Type: application/octet-stream\r\n\r\n",
    );
    await cutAfter(
      "POST",
      `${base}/api/upload`,
      {
        authorization: `Bearer ${token}`,
        "content-type": `multipart/form-data; boundary=${boundary}`,
        "content-length": String(20 * MiB),
      },
      [head, Buffer.alloc(3 * MiB, 2)],
    );
    await eventually(() => entries(spoolDir()).length === 0);
    const rows = await t.ctx.db.selectFrom("files").select("id").where("filename", "=", "gone.bin").execute();
    expect(rows).toEqual([]);
  });

  it("PUT /api/upload-direct: no share, no temp file", async () => {
    await cutAfter(
      "PUT",
      `${base}/api/upload-direct/cut-direct.bin`,
      { authorization: `Bearer ${token}`, "content-length": String(20 * MiB) },
      [Buffer.alloc(3 * MiB, 3)],
    );
    await eventually(async () => {
      const rows = await t.ctx.db
        .selectFrom("files")
        .select("id")
        .where("filename", "=", "cut-direct.bin")
        .execute();
      return rows.length === 0 && entries(tmpDir()).every((n) => n.startsWith("mp-"));
    });
  });
});

/** Sends `chunks` as a chunked body over a real socket; the answer's status and text. */
function sendChunked(
  url: string,
  options: http.RequestOptions,
  chunks: Array<string | Buffer>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, options, (res) => {
      let text = "";
      res.on("data", (c) => {
        text += c;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on("error", reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

describe("a body over the limit gets 413, not a reset connection", () => {
  it("on a JSON route (POST /api/admin/login, 1 MiB) sent chunked, and the server goes on answering", async () => {
    const answer = await sendChunked(
      `${base}/api/admin/login`,
      { method: "POST", headers: { "content-type": "application/json" } },
      ['{"username":"', ...Array.from({ length: 24 }, () => Buffer.alloc(64 * 1024, 97)), '"}'],
    );
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ success: false, error: "content_too_large" });
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
  });

  it("on PUT /api/upload-direct sent chunked", async () => {
    await t.request("PUT", "/api/admin/system-settings", {
      token,
      body: { max_upload_size: 64, max_upload_size_unit: "KB" },
    });
    try {
      const answer = await sendChunked(
        `${base}/api/upload-direct/too-big.bin`,
        { method: "PUT", headers: { authorization: `Bearer ${token}` } },
        Array.from({ length: 8 }, () => Buffer.alloc(64 * 1024, 1)),
      );
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body)).toMatchObject({
        success: false,
        error: "content_too_large",
        message: expect.stringMatching(/^File size exceeds system limit, max 64\.00 KB/),
      });
    } finally {
      await t.request("PUT", "/api/admin/system-settings", {
        token,
        body: { max_upload_size: 100, max_upload_size_unit: "MB" },
      });
    }
  });
});
