/**
 * App passwords (docs/accounts.md#app-passwords): made in My account, shown once, stored as a
 * keyed hash; WebDAV Basic takes them with the account's name (also with a second factor on),
 * nothing else does. Runs on SQLite and PostgreSQL.
 */
import { Permission } from "@clipshare/shared";
import * as OTPAuth from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { davPropfind } from "../support/dav";
import { createTestApp, type TestApp, type TestUser } from "../support/test-app";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const WEBDAV = Permission.WEBDAV_READ | Permission.MOUNT_VIEW;

const propfind = (user: string, password: string) => davPropfind(t, user, password);

async function appPassword(u: TestUser, name = "laptop") {
  const res = await t.request("POST", "/api/account/app-passwords", { token: u.token, body: { name } });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; name: string; password: string };
}

async function turnOnTotp(u: TestUser) {
  const setup = await t.request("POST", "/api/account/two-factor/totp", { token: u.token });
  const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(setup.body.data.secret) }).generate();
  const confirmed = await t.request("POST", "/api/account/two-factor/totp/confirm", {
    token: u.token,
    body: { code },
  });
  expect(confirmed.status).toBe(200);
}

describe("making and listing app passwords", () => {
  it("shows the password once: the list has the name and dates but never the password", async () => {
    const u = await t.createUser({ permissions: WEBDAV });
    const made = await appPassword(u, "phone");
    expect(made.password).toMatch(/^[A-Za-z0-9]{32}$/);
    const list = await t.request("GET", "/api/account/app-passwords", { token: u.token });
    expect(list.status).toBe(200);
    expect(list.body.data.app_passwords).toEqual([
      { id: made.id, name: "phone", created_at: expect.any(String), last_used_at: null },
    ]);
    expect(list.text).not.toContain(made.password);
  });

  it("keeps only a keyed hash at rest", async () => {
    const u = await t.createUser();
    const made = await appPassword(u);
    const rows = await t.ctx.db.selectFrom("app_passwords").selectAll().where("id", "=", made.id).execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(made.password);
  });

  it("refuses an empty name with 400 and the error envelope", async () => {
    const u = await t.createUser();
    const res = await t.request("POST", "/api/account/app-passwords", {
      token: u.token,
      body: { name: " " },
    });
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.error).toBe("validation_failed");
  });

  it("is refused to an API key with 403 account_required", async () => {
    const u = await t.createUser({ permissions: WEBDAV });
    const key = await u.createApiKey(WEBDAV);
    const res = await t.request("POST", "/api/account/app-passwords", {
      headers: { authorization: `ApiKey ${key.key}` },
      body: { name: "x" },
    });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe("account_required");
  });
});

describe("WebDAV with an app password", () => {
  it("answers PROPFIND with the account's name and the app password, and records its use", async () => {
    const u = await t.createUser({ permissions: WEBDAV });
    const made = await appPassword(u);
    expect((await propfind(u.username, made.password)).status).toBe(207);
    const list = await t.request("GET", "/api/account/app-passwords", { token: u.token });
    expect(list.body.data.app_passwords[0].last_used_at).not.toBeNull();
  });

  it("works with a second factor on, where the account password is refused", async () => {
    const u = await t.createUser({ permissions: WEBDAV });
    const made = await appPassword(u);
    await turnOnTotp(u);
    const refused = await propfind(u.username, u.password);
    expect(refused.status).toBe(401);
    expect(refused.text).toContain("use an app password");
    expect((await propfind(u.username, made.password)).status).toBe(207);
  });

  it("is refused as a password at /api/admin/login", async () => {
    const u = await t.createUser({ permissions: WEBDAV });
    const made = await appPassword(u);
    const res = await t.request("POST", "/api/admin/login", {
      body: { username: u.username, password: made.password },
    });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe("invalid_credentials");
    expect(res.body.data ?? null).toBeNull();
  });

  it("is refused once revoked", async () => {
    const u = await t.createUser({ permissions: WEBDAV });
    const made = await appPassword(u);
    expect((await propfind(u.username, made.password)).status).toBe(207);
    const revoked = await t.request("DELETE", `/api/account/app-passwords/${made.id}`, { token: u.token });
    expect(revoked.status).toBe(200);
    expect((await propfind(u.username, made.password)).status).toBe(401);
  });

  it("does not sign in another user's name with my app password", async () => {
    const me = await t.createUser({ permissions: WEBDAV });
    const other = await t.createUser({ permissions: WEBDAV });
    const made = await appPassword(me);
    expect((await propfind(other.username, made.password)).status).toBe(401);
  });

  it("cannot be revoked by another user (404), and still works afterwards", async () => {
    const me = await t.createUser({ permissions: WEBDAV });
    const other = await t.createUser();
    const made = await appPassword(me);
    const res = await t.request("DELETE", `/api/account/app-passwords/${made.id}`, { token: other.token });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe("app_password_not_found");
    expect((await propfind(me.username, made.password)).status).toBe(207);
  });

  it("stops working when the account is disabled", async () => {
    const u = await t.createUser({ permissions: WEBDAV });
    const made = await appPassword(u);
    await t.request("PUT", `/api/admin/users/${u.id}`, {
      token: await t.adminToken(),
      body: { disabled: true },
    });
    expect((await propfind(u.username, made.password)).status).toBe(401);
  });

  it("counts wrong app passwords on the WebDAV limiter: over the limit even the right one gets 429", async () => {
    const u = await t.createUser({ permissions: WEBDAV });
    const made = await appPassword(u);
    for (let i = 0; i < 10; i++) {
      expect((await propfind(u.username, `wrong-app-password-${i}`)).status).toBe(401);
    }
    const res = await propfind(u.username, made.password);
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
  });
});
