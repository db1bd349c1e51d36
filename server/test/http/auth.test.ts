import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContext } from "../../src/context";
import { createApp } from "../../src/http/app";
import { createLogger } from "../../src/logger";
import { ADMIN_PASSWORD, ADMIN_USERNAME, createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: "true" });
});
afterAll(async () => t.close());

/** Each test gets its own client IP so rate-limit counters do not leak between tests. */
let ipCounter = 1;
const freshIp = () => ({ "x-forwarded-for": `10.0.0.${ipCounter++}` });

describe("admin login", () => {
  it("returns a token in the envelope and the token works", async () => {
    const res = await t.request("POST", "/api/admin/login", {
      body: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
      headers: freshIp(),
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: 200, success: true, data: { username: ADMIN_USERNAME } });
    expect(res.body.data.token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(Date.parse(res.body.data.expiresAt)).toBeGreaterThan(Date.now());
    expect(res.headers.get("x-request-id")).toBeTruthy();
    const check = await t.request("GET", "/api/test/admin-token", { token: res.body.data.token });
    expect(check.status).toBe(200);
    expect(check.body.success).toBe(true);
  });

  it("stores only a hash of the token", async () => {
    const token = (
      await t.request("POST", "/api/admin/login", {
        body: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
        headers: freshIp(),
      })
    ).body.data.token;
    const rows = await t.ctx.db.selectFrom("sessions").select("token_hash").execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((r) => r.token_hash === token)).toBe(false);
  });

  it("stores the admin password hashed with scrypt", async () => {
    const admin = await t.ctx.db.selectFrom("users").selectAll().executeTakeFirstOrThrow();
    expect(admin.password_hash.startsWith("scrypt$")).toBe(true);
    expect(admin.password_hash).not.toContain(ADMIN_PASSWORD);
  });

  it("rejects a wrong password with 401 and the invalid_credentials id", async () => {
    const res = await t.request("POST", "/api/admin/login", {
      body: { username: ADMIN_USERNAME, password: "nope-nope" },
      headers: freshIp(),
    });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({
      code: 401,
      success: false,
      error: "invalid_credentials",
      message: "Wrong username or password",
    });
  });

  it("rejects an unknown user exactly like a wrong password", async () => {
    const res = await t.request("POST", "/api/admin/login", {
      body: { username: "ghost", password: "whatever1" },
      headers: freshIp(),
    });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe("invalid_credentials");
  });

  it.each([
    ["empty body", undefined, "validation_failed"],
    ["missing password", { username: "admin" }, "validation_failed"],
    ["wrong types", { username: 42, password: true }, "validation_failed"],
    ["over-long username", { username: "a".repeat(500), password: "x" }, "validation_failed"],
    ["array body", [1, 2], "invalid_json"],
  ])("answers 400 for %s", async (_label, body, error) => {
    const res = await t.request("POST", "/api/admin/login", { body, headers: freshIp() });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error });
    expect(res.body.message).toBeTruthy();
  });

  it("answers 400 for malformed JSON", async () => {
    const res = await t.request("POST", "/api/admin/login", {
      rawBody: '{"username": "admin",',
      headers: { "content-type": "application/json", ...freshIp() },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "invalid_json", message: "Request body is not valid JSON" });
  });

  it("answers 413 for a body over the limit", async () => {
    const res = await t.request("POST", "/api/admin/login", {
      rawBody: JSON.stringify({ username: "admin", password: "x".repeat(2 * 1024 * 1024) }),
      headers: { "content-type": "application/json", ...freshIp() },
    });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: 413, success: false, error: "content_too_large" });
  });
});

describe("login rate limiting", () => {
  it("locks an IP out after 5 failures with 429 and Retry-After, and other IPs still log in", async () => {
    const ip = freshIp();
    for (let i = 0; i < 5; i++) {
      const res = await t.request("POST", "/api/admin/login", {
        body: { username: ADMIN_USERNAME, password: `bad-${i}` },
        headers: ip,
      });
      expect(res.status).toBe(401);
    }
    const blocked = await t.request("POST", "/api/admin/login", {
      body: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
      headers: ip,
    });
    expect(blocked.status).toBe(429);
    expect(blocked.body.error).toBe("rate_limited");
    const retryAfter = Number(blocked.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);

    const other = await t.request("POST", "/api/admin/login", {
      body: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
      headers: freshIp(),
    });
    expect(other.status).toBe(200);
  });

  it("holds across server instances that share the database", async () => {
    const ip = freshIp();
    for (let i = 0; i < 5; i++) {
      await t.request("POST", "/api/admin/login", {
        body: { username: ADMIN_USERNAME, password: `bad-${i}` },
        headers: ip,
      });
    }
    const secondCtx = await createContext(t.config, { log: createLogger("silent") });
    try {
      const second = createApp(secondCtx);
      const res = await second.request("/api/admin/login", {
        method: "POST",
        headers: { "content-type": "application/json", ...ip },
        body: JSON.stringify({ username: ADMIN_USERNAME, password: ADMIN_PASSWORD }),
      });
      expect(res.status).toBe(429);
    } finally {
      await secondCtx.close();
    }
  });
});

describe("logout and token expiry", () => {
  it("logout revokes the token", async () => {
    const login = await t.request("POST", "/api/admin/login", {
      body: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
      headers: freshIp(),
    });
    const token = login.body.data.token;
    const out = await t.request("POST", "/api/admin/logout", { token });
    expect(out.status).toBe(200);
    const check = await t.request("GET", "/api/test/admin-token", { token });
    expect(check.status).toBe(401);
    expect(check.body.error).toBe("token_expired");
  });

  it("an expired token is refused", async () => {
    const login = await t.request("POST", "/api/admin/login", {
      body: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
      headers: freshIp(),
    });
    await t.ctx.db
      .updateTable("sessions")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .execute();
    const check = await t.request("GET", "/api/test/admin-token", { token: login.body.data.token });
    expect(check.status).toBe(401);
    expect(check.body.error).toBe("token_expired");
  });

  it("without credentials admin routes answer 401 unauthorized", async () => {
    const res = await t.request("GET", "/api/test/admin-token");
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({
      success: false,
      error: "unauthorized",
      message: "Authentication required",
    });
  });
});

describe("change password", () => {
  it("enforces the admin update rules", async () => {
    const token = await t.adminToken();
    const cases: Array<[unknown, number, string]> = [
      [{ newPassword: "something-new" }, 400, "validation_failed"],
      [{ currentPassword: ADMIN_PASSWORD }, 400, "nothing_to_update"],
      [{ currentPassword: "wrong-current", newPassword: "something-new" }, 401, "wrong_current_password"],
      [{ currentPassword: ADMIN_PASSWORD, newPassword: ADMIN_PASSWORD }, 400, "password_unchanged"],
      [{ currentPassword: ADMIN_PASSWORD, newPassword: "short" }, 400, "validation_failed"],
      [{ currentPassword: ADMIN_PASSWORD, newUsername: "bad name!" }, 400, "validation_failed"],
    ];
    for (const [body, status, error] of cases) {
      const res = await t.request("POST", "/api/admin/change-password", { token, body });
      expect({ body, status: res.status, error: res.body.error }).toEqual({ body, status, error });
    }
  });

  it("changes credentials, revokes every token and the new ones work", async () => {
    const other = await createTestApp({ TRUST_PROXY: "true" });
    try {
      const tokenA = await other.adminToken();
      const tokenB = (
        await other.request("POST", "/api/admin/login", {
          body: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
        })
      ).body.data.token;
      const res = await other.request("POST", "/api/admin/change-password", {
        token: tokenA,
        body: { currentPassword: ADMIN_PASSWORD, newPassword: "brand-new-secret", newUsername: "root2" },
      });
      expect(res.status).toBe(200);
      for (const token of [tokenA, tokenB]) {
        expect((await other.request("GET", "/api/test/admin-token", { token })).status).toBe(401);
      }
      const oldLogin = await other.request("POST", "/api/admin/login", {
        body: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
      });
      expect(oldLogin.status).toBe(401);
      const newLogin = await other.request("POST", "/api/admin/login", {
        body: { username: "root2", password: "brand-new-secret" },
      });
      expect(newLogin.status).toBe(200);
    } finally {
      await other.close();
    }
  });
});

describe("first-run bootstrap", () => {
  it("without ADMIN_PASSWORD creates 'admin' with a random password logged once", async () => {
    const lines: string[] = [];
    const log = createLogger("info", { write: (line) => lines.push(line) });
    const { loadConfig } = await import("../../src/config");
    const { mkdtempSync, rmSync } = await import("node:fs");
    const os = await import("node:os");
    const path = await import("node:path");
    const dir = mkdtempSync(path.join(os.tmpdir(), "clipshare-boot-"));
    // Bootstrap is dialect-independent; a private SQLite file keeps this test isolated on either matrix leg.
    const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: "info" });
    const ctx = await createContext(config, { log });
    try {
      const line = lines.find((l) => l.includes("generated password"));
      expect(line).toBeTruthy();
      const password = /generated password: ([A-Za-z0-9]+)/.exec(line!)![1]!;
      expect(password.length).toBeGreaterThanOrEqual(16);
      expect(password).not.toBe("admin123");
      const app = createApp(ctx);
      const res = await app.request("/api/admin/login", {
        method: "POST",
        body: JSON.stringify({ username: "admin", password }),
      });
      expect(res.status).toBe(200);
      // A second start neither recreates the admin nor prints a password again.
      lines.length = 0;
      const again = await createContext(config, { log });
      await again.close();
      expect(lines.some((l) => l.includes("generated password"))).toBe(false);
    } finally {
      await ctx.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
