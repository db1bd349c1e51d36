import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = await t.adminToken();
});
afterAll(async () => t.close());

describe("admin dashboard", () => {
  it("counts pastes, files, keys and configs, storage use and the last seven days", async () => {
    await t.request("POST", "/api/paste", { token, body: { content: "one" } });
    await t.request("POST", "/api/paste", { token, body: { content: "two" } });
    await t.request("PUT", "/api/upload-direct/a.txt", { token, rawBody: "12345" });
    await t.createApiKey(1);
    const res = await t.request("GET", "/api/admin/dashboard/stats", { token });
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d).toMatchObject({
      totalPastes: 2,
      totalFiles: 1,
      totalApiKeys: 1,
      totalS3Configs: 1,
      totalStorageUsed: 5,
    });
    expect(d.lastWeekPastes).toHaveLength(7);
    expect(d.lastWeekPastes[6]).toBe(2);
    expect(d.lastWeekFiles[6]).toBe(1);
    expect(d.days[6]).toBe(new Date().toISOString().slice(0, 10));
    expect(d.s3Buckets[0]).toMatchObject({ usedStorage: 5, fileCount: 1 });
    expect(JSON.stringify(d)).not.toMatch(/secret_access_key_enc|access_key_id_enc/);
  });

  it("lists the five newest shares, newest first, without content or password hashes", async () => {
    for (const n of [1, 2, 3, 4]) {
      await t.request("POST", "/api/paste", { token, body: { content: `filler ${n}` } });
    }
    await new Promise((r) => setTimeout(r, 5));
    await t.request("PUT", "/api/upload-direct/report.pdf", { token, rawBody: "pdf-bytes" });
    await new Promise((r) => setTimeout(r, 5));
    const created = await t.request("POST", "/api/paste", {
      token,
      body: { content: "secret text", remark: "Meeting notes", password: "hunter22" },
    });
    expect(created.status).toBe(201);
    const res = await t.request("GET", "/api/admin/dashboard/stats", { token });
    const recent = res.body.data.recentShares;
    expect(recent).toHaveLength(5);
    expect(recent[0]).toMatchObject({
      type: "paste",
      title: "Meeting notes",
      has_password: true,
      size: null,
    });
    expect(recent[0].slug).toBe(created.body.data.slug);
    expect(recent[1]).toMatchObject({ type: "file", title: "report.pdf", size: 9, has_password: false });
    const times = recent.map((s: { created_at: string }) => s.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(JSON.stringify(recent)).not.toMatch(/secret text|password_hash|hunter22/);
  });

  it("is admin-only", async () => {
    const { key } = await t.createApiKey(204547);
    expect((await t.request("GET", "/api/admin/dashboard/stats", { apiKey: key })).status).toBe(403);
  });
});
