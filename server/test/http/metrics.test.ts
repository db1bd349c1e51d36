/**
 * GET /metrics: off by default, guarded by METRICS_TOKEN and METRICS_ALLOW, and
 * a scrape before and after real traffic shows the counters move.
 */
import type { AddressInfo } from "node:net";
import { Permission } from "@clipshare/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveApp } from "../../src/http/node-server";
import { createTestApp, type TestApp } from "../support/test-app";

const TOKEN = "scrape-secret-0123456789";
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ METRICS_TOKEN: TOKEN });
});
afterAll(() => t.close());

/** The value of one sample line, 0 when absent. */
function sample(text: string, series: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

const scrape = async () => {
  const res = await t.request("GET", "/metrics", { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("text/plain; version=0.0.4");
  return res.text;
};

/** A server on a loopback port, for address-based access. */
async function listening(app: TestApp): Promise<{ base: string; server: ReturnType<typeof serveApp> }> {
  const server = serveApp(app.app, { port: 0, hostname: "127.0.0.1", log: app.ctx.log });
  await new Promise<void>((r) => server.once("listening", () => r()));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe("/metrics", () => {
  it("does not exist unless METRICS_TOKEN or METRICS_ALLOW is set", async () => {
    const plain = await createTestApp();
    try {
      const res = await plain.request("GET", "/metrics");
      expect(res.status).toBe(404);
    } finally {
      await plain.close();
    }
  });

  it("needs the bearer token", async () => {
    const none = await t.request("GET", "/metrics");
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toContain("Bearer");
    expect(none.body).toMatchObject({ success: false, error: "unauthorized" });
    const wrong = await t.request("GET", "/metrics", { headers: { authorization: "Bearer nope" } });
    expect(wrong.status).toBe(403);
  });

  it("counts requests, latency, bytes, uploads, downloads and views as they happen", async () => {
    const before = await scrape();
    const key = (await t.createApiKey(Permission.TEXT | Permission.FILE_SHARE)).key;
    const made = await t.request("POST", "/api/paste", { apiKey: key, body: { content: "counted" } });
    expect(made.status).toBe(201);
    expect((await t.request("GET", `/api/paste/${made.body.data.slug}`)).status).toBe(200);
    const up = await t.request("PUT", "/api/upload-direct/m.txt", {
      apiKey: key,
      rawBody: "0123456789",
      headers: { "content-type": "text/plain", "content-length": "10" },
    });
    expect(up.status).toBe(201);
    const view = await t.request("GET", `/api/public/files/${up.body.data.slug}`);
    expect((await t.request("GET", view.body.data.downloadUrl)).text).toBe("0123456789");
    expect((await t.request("GET", "/api/paste/does-not-exist")).status).toBe(404);

    const after = await scrape();
    const moved = (series: string) => sample(after, series) - sample(before, series);
    expect(moved('clipshare_http_requests_total{group="paste",status="2xx"}')).toBeGreaterThanOrEqual(2);
    expect(moved('clipshare_http_requests_total{group="paste",status="4xx"}')).toBe(1);
    expect(moved('clipshare_http_request_duration_seconds_count{group="paste"}')).toBeGreaterThanOrEqual(3);
    expect(moved('clipshare_http_request_bytes_total{group="files"}')).toBeGreaterThanOrEqual(10);
    expect(moved('clipshare_uploads_total{storage="LOCAL"}')).toBe(1);
    expect(moved('clipshare_upload_bytes_total{storage="LOCAL"}')).toBe(10);
    expect(moved('clipshare_downloads_total{storage="LOCAL"}')).toBe(1);
    expect(moved('clipshare_views_total{kind="paste"}')).toBe(1);
    expect(moved('clipshare_views_total{kind="file"}')).toBe(1);
    expect(after).toMatch(
      /^clipshare_http_request_duration_seconds_bucket\{group="paste",le="\+Inf"\} \d+$/m,
    );
    expect(after).toMatch(/^process_resident_memory_bytes \d+$/m);
    expect(after).toMatch(/^clipshare_tasks|# TYPE clipshare_tasks gauge/m);
    expect(after).toMatch(/^clipshare_cache_hits_total\{cache="\w+"\} \d+$/m);
  });

  it("counts rate-limit refusals", async () => {
    const before = sample(await scrape(), "clipshare_rate_limit_refusals_total");
    let refused = false;
    for (let i = 0; i < 40 && !refused; i++) {
      const res = await t.request("POST", "/api/admin/login", {
        body: { username: "admin", password: `wrong-${i}` },
        headers: { "x-forwarded-for": "203.0.113.9" },
      });
      refused = res.status === 429;
    }
    expect(refused).toBe(true);
    expect(sample(await scrape(), "clipshare_rate_limit_refusals_total") - before).toBeGreaterThanOrEqual(1);
  });

  it("METRICS_ALLOW lets listed networks scrape without a token, and no one else", async () => {
    for (const [allow, status] of [
      ["10.0.0.0/8, 127.0.0.0/8", 200],
      ["10.0.0.0/8", 404],
    ] as const) {
      const app = await createTestApp({ METRICS_ALLOW: allow });
      const { base, server } = await listening(app);
      try {
        const res = await fetch(`${base}/metrics`);
        expect(res.status, allow).toBe(status === 404 ? 403 : 200);
      } finally {
        await new Promise((r) => server.close(r));
        await app.close();
      }
    }
  });
});
