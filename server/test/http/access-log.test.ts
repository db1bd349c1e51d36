/**
 * The share access log over HTTP: each kind of access is recorded with its
 * bytes and client, privacy mode and the per-share switch record nothing
 * while views still count, IP logging and retention, listing, CSV export and
 * deletion (with the share, on burn and by the sweep). SQLite by default,
 * PostgreSQL with CLIPSHARE_TEST_DB=postgres; presigned redirects on Swift S3.
 */
import http from "node:http";
import { Permission } from "@clipshare/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ShareAccessLog } from "../../src/domain/shares/access-log";
import { createLogger } from "../../src/logger";
import { createS3Storage, type StorageUnderTest } from "../support/fs-helpers";
import { listenTestApp } from "../support/listen";
import { describeS3 } from "../support/s3-env";
import { createTestApp, type TestApp } from "../support/test-app";

const FIREFOX = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0";
const SAFARI_IOS =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
const CURL = "curl/8.5.0";
const BODY = "0123456789abcdefghij";

async function createPaste(t: TestApp, body: Record<string, unknown>) {
  const res = await t.request("POST", "/api/paste", { token: await t.adminToken(), body });
  expect(res.status, res.text).toBe(201);
  return res.body.data as { id: string; slug: string };
}

async function upload(t: TestApp, filename: string, query = "", body: string | Buffer = BODY) {
  const res = await t.request("PUT", `/api/upload-direct/${encodeURIComponent(filename)}?${query}`, {
    token: await t.adminToken(),
    rawBody: body,
    headers: { "content-type": "application/octet-stream" },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data as { id: string; slug: string };
}

/** A visitor's request, body read to the end (as a browser would). */
async function visit(t: TestApp, url: string, ua = FIREFOX, init: RequestInit = {}) {
  const res = await t.app.request(url, {
    ...init,
    headers: { "user-agent": ua, ...(init.headers as Record<string, string>) },
  });
  const text = await res.text();
  return { status: res.status, text, headers: res.headers };
}

async function logOf(t: TestApp, type: "pastes" | "files", id: string, query = "", token?: string) {
  await t.ctx.accessLog.flush();
  const res = await t.request("GET", `/api/${type}/${id}/access-log${query}`, {
    token: token ?? (await t.adminToken()),
  });
  expect(res.status, res.text).toBe(200);
  return res.body.data as {
    logging: string;
    ip_logging: boolean;
    entries: Array<{ kind: string; bytes: number | null; browser: string; os: string; ip: string | null }>;
    pagination: { total: number; limit: number; offset: number; hasMore: boolean };
  };
}

async function setSettings(t: TestApp, body: Record<string, unknown>) {
  const res = await t.request("PUT", "/api/admin/system-settings", { token: await t.adminToken(), body });
  expect(res.status, res.text).toBe(200);
  await t.ctx.accessLog.flush(); // what the timer does within a second
}

describe("share access log", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: "true" });
  });
  afterAll(async () => t.close());

  it("records page views, password unlocks and raw reads of a paste with bytes and client", async () => {
    const open = await createPaste(t, { content: "héllo" });
    expect((await visit(t, `/api/paste/${open.slug}`, FIREFOX)).status).toBe(200);
    expect((await visit(t, `/api/raw/${open.slug}`, CURL)).text).toBe("héllo");
    // The owner and HEAD requests only peek: not logged.
    await t.request("GET", `/api/paste/${open.slug}`, { token: await t.adminToken() });
    await visit(t, `/api/raw/${open.slug}`, FIREFOX, { method: "HEAD" });
    const log = await logOf(t, "pastes", open.id);
    expect(log.logging).toBe("on");
    expect(log.entries.map((e) => [e.kind, e.bytes, e.browser, e.os]).sort()).toEqual([
      ["page_view", 6, "firefox", "windows"],
      ["raw", 6, "cli", "other"],
    ]);
    expect(log.entries.every((e) => e.ip === null)).toBe(true);

    const locked = await createPaste(t, { content: "secret", password: "pw" });
    await visit(t, `/api/paste/${locked.slug}`, SAFARI_IOS); // password form only: nothing delivered
    const unlocked = await visit(t, `/api/paste/${locked.slug}`, SAFARI_IOS, {
      method: "POST",
      body: JSON.stringify({ password: "pw" }),
      headers: { "content-type": "application/json" },
    });
    expect(unlocked.status).toBe(200);
    const lockedLog = await logOf(t, "pastes", locked.id);
    expect(lockedLog.entries.map((e) => [e.kind, e.bytes, e.browser, e.os])).toEqual([
      ["page_view", 6, "safari", "ios"],
    ]);
  });

  it("records file page views, downloads and ranged previews with the bytes sent", async () => {
    const file = await upload(t, "data.bin");
    expect((await visit(t, `/api/public/files/${file.slug}`)).status).toBe(200);
    expect((await visit(t, `/api/file-download/${file.slug}`)).text).toBe(BODY);
    const ranged = await visit(t, `/api/file-view/${file.slug}`, FIREFOX, {
      headers: { range: "bytes=5-9" },
    });
    expect(ranged.status).toBe(206);
    expect(ranged.text).toBe("56789");
    await visit(t, `/api/file-download/${file.slug}`, FIREFOX, { method: "HEAD" });
    const log = await logOf(t, "files", file.id);
    expect(log.entries.map((e) => [e.kind, e.bytes]).sort()).toEqual([
      ["download", BODY.length],
      ["page_view", null],
      ["preview", 5],
    ]);
  });

  it("a LOCAL share in direct mode has no storage URL to redirect to: it is served and logged with its bytes", async () => {
    const file = await upload(t, "direct-local.bin", "use_proxy=0");
    const res = await visit(t, `/api/file-download/${file.slug}`);
    expect(res.status).toBe(200);
    expect((await logOf(t, "files", file.id)).entries.map((e) => [e.kind, e.bytes])).toEqual([
      ["download", BODY.length],
    ]);
  });

  it("a download the client cuts off records the bytes that went out, not the file size", async () => {
    const size = 32 * 1024 * 1024;
    const file = await upload(t, "big.bin", "", Buffer.alloc(size, 7));
    const server = await listenTestApp(t);
    try {
      const received = await new Promise<number>((resolve, reject) => {
        const req = http.get(`${server.base}/api/file-download/${file.slug}`, (res) => {
          let got = 0;
          res.on("data", (chunk: Buffer) => {
            got += chunk.length;
            if (got >= 1024 * 1024) {
              req.destroy();
              resolve(got);
            }
          });
        });
        req.on("error", (e) => (e.message.includes("socket hang up") ? undefined : reject(e)));
      });
      let entry: { bytes: number | null } | undefined;
      for (let i = 0; i < 50 && !entry; i++) {
        await new Promise((r) => setTimeout(r, 50));
        entry = (await logOf(t, "files", file.id)).entries[0];
      }
      expect(entry?.bytes).toBeGreaterThanOrEqual(received);
      expect(entry?.bytes).toBeLessThan(size / 2);
    } finally {
      await server.close();
    }
  });

  it("privacy mode and a share's own switch record nothing while views still count", async () => {
    const quiet = await createPaste(t, { content: "quiet", no_log: true });
    const legacy = await createPaste(t, { content: "0.7.3 client" }); // sends no no_log: logged
    await visit(t, `/api/paste/${quiet.slug}`);
    await visit(t, `/api/paste/${legacy.slug}`);
    expect((await logOf(t, "pastes", quiet.id)).logging).toBe("share_off");
    expect((await logOf(t, "pastes", quiet.id)).entries).toHaveLength(0);
    expect((await logOf(t, "pastes", legacy.id)).entries).toHaveLength(1);

    const file = await upload(t, "quiet.bin", "no_log=true");
    await visit(t, `/api/file-download/${file.slug}`);
    expect((await logOf(t, "files", file.id)).entries).toHaveLength(0);
    const edited = await t.request("PUT", `/api/files/${file.id}`, {
      token: await t.adminToken(),
      body: { no_log: false },
    });
    expect(edited.status).toBe(200);
    await visit(t, `/api/file-download/${file.slug}`);
    expect((await logOf(t, "files", file.id)).entries).toHaveLength(1);

    await setSettings(t, { access_log_privacy_mode: true });
    try {
      await visit(t, `/api/paste/${legacy.slug}`);
      await visit(t, `/api/file-download/${file.slug}`);
      const pasteLog = await logOf(t, "pastes", legacy.id);
      expect(pasteLog.logging).toBe("privacy_mode");
      expect(pasteLog.entries).toHaveLength(1);
      expect((await logOf(t, "files", file.id)).entries).toHaveLength(1);
    } finally {
      await setSettings(t, { access_log_privacy_mode: false });
    }
    const rows = await t.ctx.db
      .selectFrom("pastes")
      .select(["slug", "views"])
      .where("id", "in", [quiet.id, legacy.id])
      .execute();
    expect(Object.fromEntries(rows.map((r) => [r.slug, Number(r.views)]))).toEqual({
      [quiet.slug]: 1,
      [legacy.slug]: 2,
    });
  });

  it("stores the IP only while IP logging is on", async () => {
    const paste = await createPaste(t, { content: "ip" });
    const from = (ip: string) =>
      visit(t, `/api/paste/${paste.slug}`, FIREFOX, { headers: { "x-forwarded-for": ip } });
    await from("203.0.113.7");
    await setSettings(t, { access_log_ip: true });
    try {
      await from("198.51.100.9");
      const log = await logOf(t, "pastes", paste.id);
      expect(log.ip_logging).toBe(true);
      expect(log.entries.map((e) => e.ip).sort()).toEqual(["198.51.100.9", null]);
    } finally {
      await setSettings(t, { access_log_ip: false });
    }
  });

  it("purges entries past their retention, and keeps younger ones", async () => {
    const paste = await createPaste(t, { content: "retained" });
    await visit(t, `/api/paste/${paste.slug}`, FIREFOX);
    await visit(t, `/api/paste/${paste.slug}`, FIREFOX);
    await setSettings(t, { access_log_retention_days: 30 });
    const inDays = (days: number) => new Date(Date.now() + days * 86_400_000);
    expect((await t.ctx.housekeeping.run({ now: inDays(29) })).accessLogEntries).toBe(0);
    expect((await logOf(t, "pastes", paste.id)).entries).toHaveLength(2);
    const report = await t.ctx.housekeeping.run({ now: inDays(31) });
    expect(report.accessLogEntries).toBeGreaterThanOrEqual(2);
    expect((await logOf(t, "pastes", paste.id)).entries).toHaveLength(0);
    await setSettings(t, { access_log_retention_days: 90 });
  });

  describe("of a key's paste opened five times", () => {
    let key: { id: string; key: string };
    let paste: { id: string; slug: string };
    beforeAll(async () => {
      key = await t.createApiKey(Permission.TEXT);
      const res = await t.request("POST", "/api/paste", { apiKey: key.key, body: { content: "paged" } });
      paste = res.body.data as { id: string; slug: string };
      for (let i = 0; i < 5; i++) {
        await visit(t, `/api/paste/${paste.slug}`);
        await new Promise((r) => setTimeout(r, 2));
      }
      await t.ctx.accessLog.flush();
    });

    it("lists newest first in pages", async () => {
      const page = async (offset: number) => {
        const r = await t.request("GET", `/api/pastes/${paste.id}/access-log?limit=2&offset=${offset}`, {
          apiKey: key.key,
        });
        expect(r.status, r.text).toBe(200);
        return r.body.data;
      };
      const [a, b, c] = [await page(0), await page(2), await page(4)];
      expect(a.pagination).toEqual({ total: 5, limit: 2, offset: 0, hasMore: true });
      expect(c.pagination.hasMore).toBe(false);
      const times = [...a.entries, ...b.entries, ...c.entries].map((e: { at: string }) => e.at);
      expect(times).toHaveLength(5);
      expect([...times].sort().reverse()).toEqual(times);
    });

    it("is not found for another key, nor its CSV export", async () => {
      const other = await t.createApiKey(Permission.TEXT);
      const stranger = await t.request("GET", `/api/pastes/${paste.id}/access-log`, { apiKey: other.key });
      expect(stranger.status).toBe(404);
      const strangerCsv = await t.request("GET", `/api/pastes/${paste.id}/access-log/export`, {
        apiKey: other.key,
      });
      expect(strangerCsv.status).toBe(404);
    });

    it("refuses a page size of 0 with 400 validation_failed", async () => {
      const bad = await t.request("GET", `/api/pastes/${paste.id}/access-log?limit=0`, { apiKey: key.key });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toBe("validation_failed");
    });
  });

  it("exports CSV with a header, quoting, and formula-safe cells", async () => {
    const paste = await createPaste(t, { content: "csv" });
    await setSettings(t, { access_log_ip: true });
    try {
      await visit(t, `/api/paste/${paste.slug}`, FIREFOX, {
        headers: { "x-forwarded-for": '=HYPERLINK("x")' },
      });
      await visit(t, `/api/raw/${paste.slug}`, CURL, { headers: { "x-forwarded-for": "192.0.2.1" } });
      await t.ctx.accessLog.flush();
    } finally {
      await setSettings(t, { access_log_ip: false });
    }
    await t.ctx.accessLog.flush();
    const res = await t.app.request(`/api/pastes/${paste.id}/access-log/export`, {
      headers: { authorization: `Bearer ${await t.adminToken()}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toContain(`access-log-${paste.slug}.csv`);
    const lines = (await res.text()).split("\r\n");
    expect(lines[0]).toBe("time,kind,bytes,browser,os,ip");
    expect(lines).toHaveLength(4); // header, two entries, and the final line end
    const rows = lines.slice(1, 3);
    expect(rows).toContainEqual(expect.stringMatching(/^[\dT:.Z-]+,raw,3,cli,other,192\.0\.2\.1$/));
    expect(rows).toContainEqual(
      expect.stringMatching(/^[\dT:.Z-]+,page_view,3,firefox,windows,"'=HYPERLINK\(""x""\)"$/),
    );
  });

  it("is deleted on request, with the share, on burn-after-reading and by the sweep", async () => {
    const token = await t.adminToken();
    const kept = await createPaste(t, { content: "clear me" });
    await visit(t, `/api/paste/${kept.slug}`);
    await t.ctx.accessLog.flush();
    const cleared = await t.request("DELETE", `/api/pastes/${kept.id}/access-log`, { token });
    expect(cleared.body.data).toEqual({ deleted: 1 });
    expect((await logOf(t, "pastes", kept.id)).entries).toHaveLength(0);

    const entriesOf = async (column: "paste_id" | "file_id", id: string) => {
      await t.ctx.accessLog.flush();
      const rows = await t.ctx.db
        .selectFrom("share_access_log")
        .select("id")
        .where(column, "=", id)
        .execute();
      return rows.length;
    };
    const deleted = await createPaste(t, { content: "delete me" });
    await visit(t, `/api/paste/${deleted.slug}`);
    expect(await entriesOf("paste_id", deleted.id)).toBe(1);
    await t.request("DELETE", "/api/pastes/batch-delete", { token, body: { ids: [deleted.id] } });
    expect(await entriesOf("paste_id", deleted.id)).toBe(0);

    const burn = await createPaste(t, { content: "burn", max_views: 1 });
    await visit(t, `/api/paste/${burn.slug}`);
    expect(await entriesOf("paste_id", burn.id)).toBe(1);
    await t.request("POST", "/api/pastes/clear-expired", { token });
    expect(await entriesOf("paste_id", burn.id)).toBe(0);

    const file = await upload(t, "once.bin", "max_views=1");
    await visit(t, `/api/file-download/${file.slug}`);
    expect(await entriesOf("file_id", file.id)).toBe(1);
    await t.ctx.housekeeping.run({ now: new Date(Date.now() + 2 * 3600_000) });
    expect(await entriesOf("file_id", file.id)).toBe(0);

    // A visit whose share goes before its batch is written is skipped, not an error.
    const gone = await upload(t, "gone.bin");
    await visit(t, `/api/file-download/${gone.slug}`);
    await t.request("DELETE", "/api/files/batch-delete", { token, body: { ids: [gone.id] } });
    await t.ctx.accessLog.flush();
    expect(await entriesOf("file_id", gone.id)).toBe(0);
  });

  it("holds a bounded number of entries while they wait: the oldest are dropped, never the visit", async () => {
    const paste = await createPaste(t, { content: "bounded" });
    const log = new ShareAccessLog(t.ctx.db, t.ctx.settings, t.ctx.log, { maxBuffered: 3, flushMs: 60_000 });
    try {
      const share = { type: "paste" as const, id: paste.id, no_log: 0 };
      for (const bytes of [1, 2, 3, 4, 5]) log.record(share, "raw", { userAgent: CURL, ip: "" }, bytes);
      await log.flush();
    } finally {
      await log.close();
    }
    const entries = (await logOf(t, "pastes", paste.id)).entries;
    expect(entries.map((e) => e.bytes).sort()).toEqual([3, 4, 5]);
  });

  it("writes a large batch whole; a share deleted before the write loses only its own entries", async () => {
    const token = await t.adminToken();
    const kept = await createPaste(t, { content: "kept" });
    const gone = await createPaste(t, { content: "gone" });
    const warnings: string[] = [];
    const log = new ShareAccessLog(
      t.ctx.db,
      t.ctx.settings,
      createLogger("warn", { write: (line) => warnings.push(line) }),
      { flushMs: 60_000 },
    );
    try {
      // Several insert statements' worth and a few over; every other entry belongs to the deleted share.
      for (let i = 0; i < 123; i++) {
        const share = { type: "paste" as const, id: i % 2 ? gone.id : kept.id, no_log: 0 };
        log.record(share, "raw", { userAgent: CURL, ip: "" }, i);
      }
      await t.request("DELETE", "/api/pastes/batch-delete", { token, body: { ids: [gone.id] } });
      await log.flush();
    } finally {
      await log.close();
    }
    const listed = await logOf(t, "pastes", kept.id, "?limit=200");
    expect(listed.pagination.total).toBe(62);
    expect(listed.entries.map((e) => e.bytes).sort((a, b) => a! - b!)).toEqual(
      Array.from({ length: 62 }, (_, i) => i * 2),
    );
    const orphans = await t.ctx.db
      .selectFrom("share_access_log")
      .select("id")
      .where("paste_id", "=", gone.id)
      .execute();
    expect(orphans).toHaveLength(0);
    expect(warnings).toEqual([]);
    // Leaves the dashboard's figures to the test that checks them.
    await t.request("DELETE", "/api/pastes/batch-delete", { token, body: { ids: [kept.id] } });
  });

  it("sums the last 7 days by kind for the dashboard, with the most visited shares", async () => {
    const paste = await createPaste(t, { content: "popular" });
    for (let i = 0; i < 12; i++) await visit(t, `/api/paste/${paste.slug}`);
    const res = await t.request("GET", "/api/admin/dashboard/access-log", { token: await t.adminToken() });
    expect(res.status, res.text).toBe(200);
    const data = res.body.data;
    expect(data.days).toBe(7);
    expect(data.by_kind.page_view).toBeGreaterThanOrEqual(12);
    expect(data.total).toBe(Object.values(data.by_kind as Record<string, number>).reduce((a, b) => a + b, 0));
    expect(data.top[0]).toEqual({
      share_type: "paste",
      id: paste.id,
      slug: paste.slug,
      name: null,
      accesses: 12,
    });
    const key = await t.createApiKey(Permission.TEXT);
    expect((await t.request("GET", "/api/admin/dashboard/access-log", { apiKey: key.key })).status).toBe(403);
  });
});

describeS3("share access log on S3", (s3) => {
  let t: TestApp;
  let swift: StorageUnderTest;
  beforeAll(async () => {
    t = await createTestApp();
    swift = await createS3Storage(t, s3, "access-log");
  });
  afterAll(async () => {
    await swift.cleanup();
    await t.close();
  });

  it("a redirect to a presigned URL is recorded as presigned_redirect without bytes", async () => {
    const direct = await upload(t, "direct.bin", `s3_config_id=${swift.configId}&use_proxy=0`);
    const res = await visit(t, `/api/file-download/${direct.slug}`);
    expect(res.status).toBe(302);
    const viaProxy = await upload(t, "proxied.bin", `s3_config_id=${swift.configId}`);
    expect((await visit(t, `/api/file-view/${viaProxy.slug}`)).text).toBe(BODY);
    expect((await logOf(t, "files", direct.id)).entries.map((e) => [e.kind, e.bytes])).toEqual([
      ["presigned_redirect", null],
    ]);
    expect((await logOf(t, "files", viaProxy.id)).entries.map((e) => [e.kind, e.bytes])).toEqual([
      ["preview", BODY.length],
    ]);
  });
});
