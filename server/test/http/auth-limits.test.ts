/**
 * Every password check is rate-limited, reserved before the hash is computed:
 * bursts of concurrent wrong guesses are verified at most up to the limit (the
 * rest get 429), on SQLite and PostgreSQL. HTTP Basic is not accepted on the
 * JSON API. The admin-login limit is keyed on (address, user name). A password
 * change revokes cached WebDAV Basic credentials at once, on every instance.
 * Forwarded headers while TRUST_PROXY is off produce one warning.
 */
import { Permission } from "@clipshare/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContext } from "../../src/context";
import { createApp } from "../../src/http/app";
import { createLogger } from "../../src/logger";
import { ADMIN_PASSWORD, ADMIN_USERNAME, createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: "true" });
  token = await t.adminToken();
});
afterAll(async () => t.close());

let ipSeq = 1;
const freshIp = () => ({ "x-forwarded-for": `10.77.${Math.floor(ipSeq / 250)}.${ipSeq++ % 250}` });
const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString("base64")}`;
const BURST = 100;

/** Fires `BURST` requests at once and counts the statuses. */
async function burst(
  send: (i: number) => Promise<{ status: number }> | { status: number },
): Promise<Record<number, number>> {
  const results = await Promise.all(Array.from({ length: BURST }, (_, i) => send(i)));
  const counts: Record<number, number> = {};
  for (const { status } of results) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

const login = (username: string, password: string, headers: Record<string, string>) =>
  t.request("POST", "/api/admin/login", { body: { username, password }, headers });

describe("a burst of concurrent wrong passwords is verified at most up to the limit", () => {
  it("admin login: 5 × 401, the rest 429, and then the right password is refused too", async () => {
    const ip = freshIp();
    const counts = await burst((i) => login(ADMIN_USERNAME, `wrong-${i}`, ip));
    expect(counts).toEqual({ 401: 5, 429: BURST - 5 });
    const locked = await login(ADMIN_USERNAME, ADMIN_PASSWORD, ip);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("paste password: 10 × 401, the rest 429", async () => {
    const created = await t.request("POST", "/api/paste", {
      token,
      body: { content: "burst target", password: "paste-secret" },
    });
    const slug = created.body.data.slug;
    const ip = freshIp();
    const counts = await burst((i) =>
      t.request("POST", `/api/paste/${slug}`, { body: { password: `guess-${i}` }, headers: ip }),
    );
    expect(counts).toEqual({ 401: 10, 429: BURST - 10 });
    const raw = await t.app.request(`/api/raw/${slug}?password=paste-secret`, { headers: ip });
    expect(raw.status).toBe(429);
  });

  it("file-share password: 10 × 401, the rest 429", async () => {
    const up = await t.request("PUT", "/api/upload-direct/burst.txt?password=file-secret", {
      token,
      rawBody: "guarded bytes",
      headers: { "content-type": "application/octet-stream" },
    });
    expect(up.status).toBe(201);
    const slug = up.body.data.slug;
    const ip = freshIp();
    const counts = await burst((i) =>
      t.request("POST", `/api/public/files/${slug}/verify`, {
        body: { password: `guess-${i}` },
        headers: ip,
      }),
    );
    expect(counts).toEqual({ 401: 10, 429: BURST - 10 });
  });

  it("WebDAV Basic: 10 × 401, the rest 429", async () => {
    const ip = freshIp();
    const counts = await burst((i) =>
      t.app.request("/dav/", {
        method: "PROPFIND",
        headers: { ...ip, depth: "0", authorization: basic(ADMIN_USERNAME, `wrong-${i}`) },
      }),
    );
    expect(counts).toEqual({ 401: 10, 429: BURST - 10 });
  });

  it("API-key test: 10 × 401, the rest 429", async () => {
    const ip = freshIp();
    const counts = await burst((i) =>
      t.request("GET", "/api/test/api-key", { apiKey: `guess-${i}`, headers: ip }),
    );
    expect(counts).toEqual({ 401: 10, 429: BURST - 10 });
  });

  it("one address cycling user names is stopped by the per-address limit", async () => {
    const ip = freshIp();
    const counts = await Promise.all(
      Array.from({ length: 110 }, (_, i) => login(`nobody-${i}`, "whatever-1", ip)),
    );
    const refused = counts.filter((r) => r.status === 429).length;
    expect(counts.filter((r) => r.status === 401).length).toBe(100);
    expect(refused).toBe(10);
  });
});

describe("API keys are guessed no faster than passwords", () => {
  it("wrong keys on any route count against the address, and then the right key is refused too", async () => {
    const ip = freshIp();
    const { key } = await t.createApiKey(Permission.TEXT);
    for (let i = 0; i < 10; i++) {
      const res = await t.request("GET", "/api/pastes", { apiKey: `guess-${i}`, headers: ip });
      expect(res.status).toBe(401);
    }
    const locked = await t.request("GET", "/api/pastes", { apiKey: key, headers: ip });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another address is not affected.
    expect((await t.request("GET", "/api/pastes", { apiKey: key, headers: freshIp() })).status).toBe(200);
  });

  it("X-Custom-Auth-Key guesses count the same way", async () => {
    const ip = freshIp();
    const { key } = await t.createApiKey(Permission.TEXT);
    for (let i = 0; i < 10; i++)
      await t.request("GET", "/api/pastes", { headers: { ...ip, "x-custom-auth-key": `guess-${i}` } });
    const locked = await t.request("GET", "/api/pastes", { headers: { ...ip, "x-custom-auth-key": key } });
    expect(locked.status).toBe(429);
  });

  it("WebDAV Basic tells a locked-out address nothing about a right key", async () => {
    const ip = freshIp();
    const { key } = await t.createApiKey(Permission.WEBDAV_READ);
    for (let i = 0; i < 10; i++) {
      await t.app.request("/dav/", {
        method: "PROPFIND",
        headers: { ...ip, depth: "0", authorization: basic("rclone", `wrong-${i}`) },
      });
    }
    const res = await t.app.request("/dav/", {
      method: "PROPFIND",
      headers: { ...ip, depth: "0", authorization: basic("rclone", key) },
    });
    expect(res.status).toBe(429);
  });

  it("a valid key writes no counter: fifty requests leave the table as it was", async () => {
    const ip = freshIp();
    const { key } = await t.createApiKey(Permission.TEXT);
    const before = await t.ctx.db
      .selectFrom("rate_limits")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    for (let i = 0; i < 50; i++)
      expect((await t.request("GET", "/api/pastes", { apiKey: key, headers: ip })).status).toBe(200);
    const after = await t.ctx.db
      .selectFrom("rate_limits")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });
});

describe("concurrent attempts with the same password are one attempt", () => {
  it("20 parallel logins with the right password all succeed, each with its own token", async () => {
    const ip = freshIp();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => login(ADMIN_USERNAME, ADMIN_PASSWORD, ip)),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(new Set(results.map((r) => r.body.data.token)).size).toBe(20);
  });

  it("a WebDAV client opening 20 connections at once with the admin password is not refused", async () => {
    // A fresh instance: nothing is cached yet, every request needs the password checked.
    const second = await createContext(t.config, { log: createLogger("silent") });
    try {
      const app = createApp(second);
      const ip = freshIp();
      const results = await Promise.all(
        Array.from({ length: 20 }, () =>
          app.request("/dav/", {
            method: "PROPFIND",
            headers: { ...ip, depth: "0", authorization: basic(ADMIN_USERNAME, ADMIN_PASSWORD) },
          }),
        ),
      );
      expect(results.map((r) => r.status)).toEqual(Array(20).fill(207));
    } finally {
      await second.close();
    }
  });

  it("20 parallel key checks with a valid key all succeed", async () => {
    const { key } = await t.createApiKey(Permission.TEXT);
    const ip = freshIp();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => t.request("GET", "/api/test/api-key", { apiKey: key, headers: ip })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
  });

  it("20 parallel downloads of a protected file with ?password= all succeed", async () => {
    const up = await t.request("PUT", "/api/upload-direct/parallel.txt?password=video-pass", {
      token,
      rawBody: "parallel bytes",
      headers: { "content-type": "application/octet-stream" },
    });
    const slug = up.body.data.slug;
    const ip = freshIp();
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.app.request(`/api/file-download/${slug}?password=video-pass`, { headers: ip }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
  });
});

describe("admin login limit keys", () => {
  it("is per (address, user name): guesses on another name do not lock the admin out", async () => {
    const ip = freshIp();
    for (let i = 0; i < 6; i++) await login("not-the-admin", `guess-${i}`, ip);
    expect((await login("not-the-admin", "guess-7", ip)).status).toBe(429);
    const admin = await login(ADMIN_USERNAME, ADMIN_PASSWORD, ip);
    expect(admin.status).toBe(200);
  });

  it("successes do not count, and do not wipe earlier failures", async () => {
    const ip = freshIp();
    for (let i = 0; i < 10; i++) expect((await login(ADMIN_USERNAME, ADMIN_PASSWORD, ip)).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await login(ADMIN_USERNAME, `bad-${i}`, ip)).status).toBe(401);
    expect((await login(ADMIN_USERNAME, ADMIN_PASSWORD, ip)).status).toBe(200);
    expect((await login(ADMIN_USERNAME, "bad-5", ip)).status).toBe(401);
    expect((await login(ADMIN_USERNAME, ADMIN_PASSWORD, ip)).status).toBe(429);
  });

  it("stores no user name in the counters (people type passwords into name fields)", async () => {
    await login("typed-my-password-here", "x-x-x-x-x", freshIp());
    const rows = await t.ctx.db.selectFrom("rate_limits").select("subject").execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((r) => r.subject.includes("typed-my-password-here"))).toBe(false);
  });

  it("the current password of a password change is rate-limited too", async () => {
    const ip = freshIp();
    for (let i = 0; i < 5; i++) {
      const res = await t.request("POST", "/api/admin/change-password", {
        token,
        headers: ip,
        body: { currentPassword: `wrong-current-${i}`, newPassword: "never-applied-1" },
      });
      expect(res.body.error).toBe("wrong_current_password");
    }
    const limited = await t.request("POST", "/api/admin/change-password", {
      token,
      headers: ip,
      body: { currentPassword: ADMIN_PASSWORD, newPassword: "never-applied-1" },
    });
    expect(limited.status).toBe(429);
  });
});

describe("HTTP Basic on the JSON API", () => {
  it("is refused even with the right admin password, with a clear error and no prompt", async () => {
    const res = await t.request("GET", "/api/admin/api-keys", {
      headers: { ...freshIp(), authorization: basic(ADMIN_USERNAME, ADMIN_PASSWORD) },
    });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 401, success: false, error: "basic_auth_not_accepted" });
    expect(res.body.message).toContain("/dav");
    expect(res.headers.get("www-authenticate")).toBeNull();
  });

  it("is refused with an API key as the password as well", async () => {
    const { key } = await t.createApiKey(Permission.TEXT | Permission.WEBDAV_READ);
    const res = await t.request("GET", "/api/pastes", {
      headers: { ...freshIp(), authorization: basic(key, key) },
    });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe("basic_auth_not_accepted");
  });

  it("costs public routes nothing: wrong Basic on /api/health is served and counts nowhere", async () => {
    const ip = freshIp();
    const before = await t.ctx.db.selectFrom("rate_limits").select("subject").execute();
    const statuses = await Promise.all(
      Array.from({ length: 50 }, () =>
        t.app.request("/api/health", { headers: { ...ip, authorization: basic(ADMIN_USERNAME, "nope") } }),
      ),
    );
    expect(statuses.every((r) => r.status === 200)).toBe(true);
    const after = await t.ctx.db.selectFrom("rate_limits").select("subject").execute();
    expect(after.length).toBe(before.length);
    expect((await login(ADMIN_USERNAME, ADMIN_PASSWORD, ip)).status).toBe(200);
  });
});

describe("WebDAV credential cache", () => {
  it("a password change revokes cached Basic credentials at once, on another instance too", async () => {
    const own = await createTestApp({ TRUST_PROXY: "true" });
    const secondCtx = await createContext(own.config, { log: createLogger("silent") });
    try {
      const second = createApp(secondCtx);
      const propfind = (app: ReturnType<typeof createApp>, password: string) =>
        app.request("/dav/", {
          method: "PROPFIND",
          headers: {
            depth: "0",
            "x-forwarded-for": "10.78.0.1",
            authorization: basic(ADMIN_USERNAME, password),
          },
        });
      // Both instances have now proven (and cached) the old password.
      expect((await propfind(own.app, ADMIN_PASSWORD)).status).toBe(207);
      expect((await propfind(second, ADMIN_PASSWORD)).status).toBe(207);
      const changed = await own.request("POST", "/api/admin/change-password", {
        token: await own.adminToken(),
        body: { currentPassword: ADMIN_PASSWORD, newPassword: "the-new-password" },
      });
      expect(changed.status).toBe(200);
      expect((await propfind(own.app, ADMIN_PASSWORD)).status).toBe(401);
      expect((await propfind(second, ADMIN_PASSWORD)).status).toBe(401);
      expect((await propfind(second, "the-new-password")).status).toBe(207);
    } finally {
      await secondCtx.close();
      await own.close();
    }
  });

  it("an API key as the Basic password is never rate-limited by wrong admin guesses", async () => {
    const ip = freshIp();
    for (let i = 0; i < 10; i++) {
      await t.app.request("/dav/", {
        method: "PROPFIND",
        headers: { ...ip, depth: "0", authorization: basic(ADMIN_USERNAME, `wrong-${i}`) },
      });
    }
    const { key } = await t.createApiKey(Permission.WEBDAV_READ);
    const res = await t.app.request("/dav/", {
      method: "PROPFIND",
      headers: { ...ip, depth: "0", authorization: basic("rclone", key) },
    });
    expect(res.status).toBe(207);
  });
});

describe("forwarded headers while TRUST_PROXY is off", () => {
  async function warningsFor(env: Record<string, string>, requests: number): Promise<string[]> {
    const own = await createTestApp(env);
    const lines: string[] = [];
    const ctx = await createContext(own.config, {
      log: createLogger("warn", { write: (line) => lines.push(line) }),
    });
    try {
      const app = createApp(ctx);
      for (let i = 0; i < requests; i++) {
        await app.request("/api/health", { headers: { "x-forwarded-for": `203.0.113.${i + 1}` } });
      }
      return lines.filter((l) => l.includes("TRUST_PROXY"));
    } finally {
      await ctx.close();
      await own.close();
    }
  }

  it("warns once, naming TRUST_PROXY", async () => {
    const warnings = await warningsFor({}, 3);
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0]!).level).toBe(40);
  });

  it("stays quiet when TRUST_PROXY is on", async () => {
    expect(await warningsFor({ TRUST_PROXY: "true" }, 3)).toHaveLength(0);
  });
});
