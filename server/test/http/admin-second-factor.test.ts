/**
 * "Require a second factor for administrators" (docs/accounts.md#second-factors, decision 0088):
 * turning it on takes one's own second factor; an administrator without one then reaches only
 * enrolment until TOTP is on, on the API and on WebDAV. Runs on SQLite and PostgreSQL.
 */
import { Permission } from "@clipshare/shared";
import * as OTPAuth from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { davPropfind } from "../support/dav";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
let admin: string;

const codeOf = (secret: string, stepsAhead = 0) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({
    timestamp: Date.now() + stepsAhead * 30_000,
  });

/** Turns TOTP on for the session's account; returns the app's secret. */
async function enrol(token: string): Promise<string> {
  const setup = await t.request("POST", "/api/account/two-factor/totp", { token });
  expect(setup.status).toBe(200);
  const secret = setup.body.data.secret as string;
  const confirmed = await t.request("POST", "/api/account/two-factor/totp/confirm", {
    token,
    body: { code: codeOf(secret) },
  });
  expect(confirmed.status).toBe(200);
  return secret;
}

const requirement = (token: string, on: boolean) =>
  t.request("PUT", "/api/admin/system-settings", { token, body: { require_admin_second_factor: on } });

const setting = async () => {
  const rows = await t.request("GET", "/api/admin/system-settings", { token: admin });
  return rows.body.data.find((r: { key: string }) => r.key === "require_admin_second_factor")?.value;
};

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
});
afterAll(() => t.close());

describe("turning the requirement on", () => {
  it("is refused with 400 to an administrator without a second factor, and stays off", async () => {
    const res = await requirement(admin, true);
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.error).toBe("own_second_factor_required");
    expect(res.body.message).toContain("Turn on two-factor sign-in for your own account first");
    expect(await setting()).toBe("false");
  });

  it("is taken from an administrator with a second factor", async () => {
    await enrol(admin);
    expect((await requirement(admin, true)).status).toBe(200);
    expect(await setting()).toBe("true");
  });
});

describe("with the requirement on", () => {
  const WEBDAV = Permission.WEBDAV_READ | Permission.MOUNT_VIEW;

  beforeAll(async () => {
    expect((await requirement(admin, true)).status).toBe(200);
  });

  it("gives a new administrator a session that reaches only enrolment until TOTP is on", async () => {
    const other = await t.createUser({ role: "admin" });
    const users = await t.request("GET", "/api/admin/users", { token: other.token });
    expect(users.status).toBe(403);
    expect(users.body.error).toBe("second_factor_enrolment_required");
    const paste = await t.request("POST", "/api/paste", { token: other.token, body: { content: "x" } });
    expect(paste.status).toBe(403);
    expect(paste.body.error).toBe("second_factor_enrolment_required");

    const status = await t.request("GET", "/api/account/two-factor", { token: other.token });
    expect(status.status).toBe(200);
    expect(status.body.data.enrolment_required).toBe(true);
    expect((await t.request("GET", "/api/account", { token: other.token })).status).toBe(200);

    await enrol(other.token);
    expect((await t.request("GET", "/api/admin/users", { token: other.token })).status).toBe(200);
    const after = await t.request("GET", "/api/account/two-factor", { token: other.token });
    expect(after.body.data.enrolment_required).toBe(false);
  });

  it("does not let that administrator turn the requirement off before enrolling", async () => {
    const other = await t.createUser({ role: "admin" });
    const res = await requirement(other.token, false);
    expect(res.status).toBe(403);
    expect(await setting()).toBe("true");
  });

  it("refuses WebDAV to an administrator without a second factor, by password or session", async () => {
    const other = await t.createUser({ role: "admin" });
    const basic = await davPropfind(t, other.username, other.password);
    expect(basic.status).toBe(401);
    expect(basic.text).toContain("set up an authenticator app or a passkey in My account first");
    const bearer = await t.request("PROPFIND", "/dav/", {
      headers: { authorization: `Bearer ${other.token}`, depth: "0" },
    });
    expect(bearer.status).toBe(401);
  });

  it("leaves users and guests without a second factor as they were", async () => {
    const u = await t.createUser({ permissions: WEBDAV | Permission.TEXT });
    expect((await t.request("GET", "/api/account/sessions", { token: u.token })).status).toBe(200);
    const status = await t.request("GET", "/api/account/two-factor", { token: u.token });
    expect(status.body.data.enrolment_required).toBe(false);
    const basic = await davPropfind(t, u.username, u.password);
    expect(basic.status).toBe(207);
  });

  it("holds back nothing once turned off again", async () => {
    const other = await t.createUser({ role: "admin" });
    expect((await t.request("GET", "/api/admin/users", { token: other.token })).status).toBe(403);
    expect((await requirement(admin, false)).status).toBe(200);
    expect((await t.request("GET", "/api/admin/users", { token: other.token })).status).toBe(200);
    expect((await requirement(admin, true)).status).toBe(200);
  });
});
