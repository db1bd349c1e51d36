import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
let web: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // A second app that serves a tiny built web app.
  const dist = path.join(mkdtempSync(path.join(os.tmpdir(), "clipshare-dist-")), "dist");
  mkdirSync(path.join(dist, "assets"), { recursive: true });
  writeFileSync(path.join(dist, "index.html"), "<!doctype html><title>ClipShare app</title>");
  writeFileSync(path.join(dist, "assets", "app-abc123.js"), "console.log('hi')");
  writeFileSync(path.join(dist, "sw.js"), "self.addEventListener('fetch', () => {})");
  web = await createTestApp({ WEB_DIST_DIR: dist });
});
afterAll(async () => {
  await t.close();
  await web.close();
});

describe("health and version", () => {
  it("health answers ok in the envelope", async () => {
    const res = await t.request("GET", "/api/health");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: 200, success: true, data: { status: "ok" } });
  });

  it("version comes from package.json (0.7.3)", async () => {
    const res = await t.request("GET", "/api/version");
    const pkg = await import("../../package.json", { with: { type: "json" } });
    expect(res.body.data.version).toBe(pkg.default.version);
    expect(res.body.data.version).toBe("0.7.3");
  });
});

describe("error envelope", () => {
  it("unknown API routes answer 404 in the envelope", async () => {
    const res = await t.request("GET", "/api/definitely/not/here");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      code: 404,
      message: "Requested resource not found",
      success: false,
      data: null,
      error: "not_found",
    });
  });

  it("echoes a sane incoming request id and replaces a hostile one", async () => {
    const good = await t.request("GET", "/api/health", { headers: { "x-request-id": "abc-123" } });
    expect(good.headers.get("x-request-id")).toBe("abc-123");
    const bad = await t.request("GET", "/api/health", { headers: { "x-request-id": "<script>" } });
    expect(bad.headers.get("x-request-id")).not.toBe("<script>");
  });
});

describe("web app serving", () => {
  it("serves index.html with no-cache and falls back to it for client routes", async () => {
    for (const p of ["/", "/admin/settings", "/paste/abc", "/mount-explorer/a/b"]) {
      const res = await web.request("GET", p);
      expect(res.status).toBe(200);
      expect(res.text).toContain("ClipShare app");
      expect(res.headers.get("cache-control")).toBe("no-cache");
    }
  });

  it("serves hashed assets with a long immutable cache and 404s missing ones", async () => {
    const res = await web.request("GET", "/assets/app-abc123.js");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("immutable");
    expect(res.headers.get("content-type")).toContain("javascript");
    expect((await web.request("GET", "/assets/missing-zzz.js")).status).toBe(404);
  });

  it("the service worker is revalidated on every load", async () => {
    const res = await web.request("GET", "/sw.js");
    expect(res.headers.get("cache-control")).toBe("no-cache");
  });

  it("refuses to leave the dist directory", async () => {
    const res = await web.request("GET", "/..%2f..%2fsecret.key");
    expect(res.text).not.toContain("secret");
    expect(res.text).toContain("ClipShare app");
  });

  it("serves runtime config at /config.js", async () => {
    const res = await web.request("GET", "/config.js");
    expect(res.text).toContain("window.__CLIPSHARE_CONFIG__");
    expect(res.headers.get("content-type")).toContain("javascript");
  });

  it("answers a share-target POST no service worker took with a redirect into the app", async () => {
    const form = new FormData();
    form.set("text", "hello");
    const res = await web.request("POST", "/share-target", { rawBody: form });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/?share-target=unavailable");
  });

  it("does not fall back to the app for /api paths", async () => {
    const res = await web.request("GET", "/api/nope");
    expect(res.status).toBe(404);
    expect(res.body.error).toBe("not_found");
  });
});
