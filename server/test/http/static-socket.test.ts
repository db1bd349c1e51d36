/**
 * The web app's files over a real socket (the Node server as main.ts starts
 * it): a browser asks for them compressed, and the compressed answer must
 * carry the whole file. The fast byte path hands bodies straight to the
 * socket; one that compression wraps must still be read to its end.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listenTestApp } from "../support/listen";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
let server: Awaited<ReturnType<typeof listenTestApp>>;
// Large enough for several reads, varied enough that it does not compress to nothing.
const script = Array.from({ length: 60_000 }, (_, i) => `console.log(${i * 7919});`).join("\n");

beforeAll(async () => {
  const dist = mkdtempSync(path.join(os.tmpdir(), "clipshare-web-"));
  mkdirSync(path.join(dist, "assets"));
  writeFileSync(path.join(dist, "index.html"), "<!doctype html><title>ClipShare</title>");
  writeFileSync(path.join(dist, "assets", "app-1234.js"), script);
  t = await createTestApp({ WEB_DIST_DIR: dist });
  server = await listenTestApp(t);
});
afterAll(async () => {
  await server.close();
  await t.close();
});

function get(url: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>(
    (resolve, reject) => {
      http
        .get(url, { headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
          );
          res.on("error", reject);
        })
        .on("error", reject);
    },
  );
}

describe("web app files over a socket", () => {
  it("a gzip-compressed asset arrives whole", async () => {
    const res = await get(`${server.base}/assets/app-1234.js`, { "accept-encoding": "gzip" });
    expect(res.status).toBe(200);
    expect(res.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(res.body).toString()).toBe(script);
  });

  it("an uncompressed asset arrives whole with its length", async () => {
    const res = await get(`${server.base}/assets/app-1234.js`, { "accept-encoding": "identity" });
    expect(res.status).toBe(200);
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.body.toString()).toBe(script);
  });
});
