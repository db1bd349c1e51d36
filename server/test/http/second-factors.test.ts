/**
 * Second factors (docs/accounts.md#second-factors): enrolling TOTP, signing in with a code
 * computed here, the limiter on wrong codes, recovery codes that work once, the sign-in
 * challenge (single-use, expiring), turning TOTP off. Runs on SQLite and PostgreSQL.
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

const login = (username: string, password: string) =>
  t.request("POST", "/api/admin/login", { body: { username, password } });
const secondStep = (challenge: string, code: string) =>
  t.request("POST", "/api/admin/login/second-factor", { body: { challenge, code } });

/** The code an authenticator app shows `stepsAhead` periods from now. */
const codeOf = (secret: string, stepsAhead = 0) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({
    timestamp: Date.now() + stepsAhead * 30_000,
  });

/** A user with TOTP on: the secret their app holds and the recovery codes they were shown. */
async function enrolledUser(
  permissions?: number,
): Promise<TestUser & { secret: string; recoveryCodes: string[] }> {
  const u = await t.createUser(permissions === undefined ? {} : { permissions });
  const setup = await t.request("POST", "/api/account/two-factor/totp", { token: u.token });
  expect(setup.status).toBe(200);
  const secret = setup.body.data.secret as string;
  const confirmed = await t.request("POST", "/api/account/two-factor/totp/confirm", {
    token: u.token,
    body: { code: codeOf(secret) },
  });
  expect(confirmed.status).toBe(200);
  return { ...u, secret, recoveryCodes: confirmed.body.data.recovery_codes };
}

/** The challenge a correct password hands out to an enrolled account. */
async function challengeOf(u: { username: string; password: string }): Promise<string> {
  const res = await login(u.username, u.password);
  expect(res.status).toBe(401);
  expect(res.body.error).toBe("second_factor_required");
  return res.body.details.challenge as string;
}

describe("enrolling TOTP", () => {
  it("hands out a secret with an otpauth URI naming ClipShare and the user", async () => {
    const u = await t.createUser();
    const setup = await t.request("POST", "/api/account/two-factor/totp", { token: u.token });
    const uri = OTPAuth.URI.parse(setup.body.data.otpauth_uri) as OTPAuth.TOTP;
    expect(uri.issuer).toBe("ClipShare");
    expect(uri.label).toBe(u.username);
    expect(uri.secret.base32).toBe(setup.body.data.secret);
  });

  it("is not on until a code confirms it: the password alone still signs in", async () => {
    const u = await t.createUser();
    await t.request("POST", "/api/account/two-factor/totp", { token: u.token });
    expect((await login(u.username, u.password)).status).toBe(200);
    const status = await t.request("GET", "/api/account/two-factor", { token: u.token });
    expect(status.body.data).toEqual({
      totp: false,
      recovery_codes_left: 0,
      passkeys: 0,
      enrolment_required: false,
    });
  });

  it("refuses a wrong confirmation code with 401 invalid_second_factor_code", async () => {
    const u = await t.createUser();
    const setup = await t.request("POST", "/api/account/two-factor/totp", { token: u.token });
    const wrong = String((Number(codeOf(setup.body.data.secret)) + 1) % 1_000_000).padStart(6, "0");
    const res = await t.request("POST", "/api/account/two-factor/totp/confirm", {
      token: u.token,
      body: { code: wrong },
    });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe("invalid_second_factor_code");
  });

  it("gives ten distinct recovery codes once confirmed, and shows them as left", async () => {
    const u = await enrolledUser();
    expect(new Set(u.recoveryCodes).size).toBe(10);
    const status = await t.request("GET", "/api/account/two-factor", { token: u.token });
    expect(status.body.data).toEqual({
      totp: true,
      recovery_codes_left: 10,
      passkeys: 0,
      enrolment_required: false,
    });
  });

  it("stores neither the secret nor the recovery codes in the clear", async () => {
    const u = await enrolledUser();
    const totp = await t.ctx.db.selectFrom("user_totp").selectAll().where("user_id", "=", u.id).execute();
    expect(JSON.stringify(totp)).not.toContain(u.secret);
    const codes = await t.ctx.db
      .selectFrom("user_recovery_codes")
      .selectAll()
      .where("user_id", "=", u.id)
      .execute();
    const stored = JSON.stringify(codes);
    for (const code of u.recoveryCodes) {
      expect(stored).not.toContain(code);
      expect(stored).not.toContain(code.replace("-", ""));
    }
  });
});

describe("signing in with TOTP on", () => {
  it("answers a correct password with a challenge and no token", async () => {
    const u = await enrolledUser();
    const res = await login(u.username, u.password);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ success: false, error: "second_factor_required" });
    expect(res.body.data).toBeNull();
    expect(res.body.details).toMatchObject({ methods: ["totp", "recovery_code"] });
    expect(res.body.details.token).toBeUndefined();
  });

  it("signs in with the challenge and the app's code", async () => {
    const u = await enrolledUser();
    const res = await secondStep(await challengeOf(u), codeOf(u.secret, 1));
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ username: u.username, role: "user" });
    const me = await t.request("GET", "/api/account", { token: res.body.data.token });
    expect(me.body.data.id).toBe(u.id);
  });

  it("keeps a wrong password a plain invalid_credentials, with no challenge", async () => {
    const u = await enrolledUser();
    const res = await login(u.username, "not-the-password");
    expect(res.status).toBe(401);
    expect(res.body.error).toBe("invalid_credentials");
    expect(res.body.details).toBeUndefined();
  });

  it("accepts a code only once", async () => {
    const u = await enrolledUser();
    const code = codeOf(u.secret, 1);
    expect((await secondStep(await challengeOf(u), code)).status).toBe(200);
    const again = await secondStep(await challengeOf(u), code);
    expect(again.status).toBe(401);
    expect(again.body.error).toBe("invalid_second_factor_code");
  });

  it("uses a challenge once: a second sign-in with it is refused", async () => {
    const u = await enrolledUser();
    const challenge = await challengeOf(u);
    expect((await secondStep(challenge, codeOf(u.secret, 1))).status).toBe(200);
    const reuse = await secondStep(challenge, u.recoveryCodes[0]!);
    expect(reuse.status).toBe(401);
    expect(reuse.body.error).toBe("sign_in_challenge_invalid");
  });

  it("refuses an expired challenge", async () => {
    const u = await enrolledUser();
    const challenge = await challengeOf(u);
    await t.ctx.db
      .updateTable("sign_in_challenges")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("user_id", "=", u.id)
      .execute();
    const res = await secondStep(challenge, codeOf(u.secret, 1));
    expect(res.status).toBe(401);
    expect(res.body.error).toBe("sign_in_challenge_invalid");
  });

  it("counts wrong codes in the limiter: the sixth attempt is 429, even with the right code", async () => {
    const u = await enrolledUser();
    const challenge = await challengeOf(u);
    const right = codeOf(u.secret, 1);
    for (let i = 1; i <= 5; i++) {
      const wrong = String((Number(right) + i * 100_000) % 1_000_000).padStart(6, "0");
      const res = await secondStep(challenge, wrong);
      expect(res.body.error).toBe("invalid_second_factor_code");
    }
    const locked = await secondStep(challenge, right);
    expect(locked.status).toBe(429);
    expect(locked.body.error).toBe("rate_limited");
    expect(locked.headers.get("retry-after")).toMatch(/^\d+$/);
  });

  it("signs in with a recovery code once, with or without its dash, in any case", async () => {
    const u = await enrolledUser();
    const [first] = u.recoveryCodes;
    const used = await secondStep(await challengeOf(u), first!.replace("-", "").toUpperCase());
    expect(used.status).toBe(200);
    const again = await secondStep(await challengeOf(u), first!);
    expect(again.status).toBe(401);
    expect(again.body.error).toBe("invalid_second_factor_code");
    const status = await t.request("GET", "/api/account/two-factor", { token: used.body.data.token });
    expect(status.body.data.recovery_codes_left).toBe(9);
  });

  it("does not take another account's recovery code", async () => {
    const a = await enrolledUser();
    const b = await enrolledUser();
    const res = await secondStep(await challengeOf(a), b.recoveryCodes[0]!);
    expect(res.status).toBe(401);
    expect(res.body.error).toBe("invalid_second_factor_code");
  });
});

describe("administrators and 0.7.3 clients", () => {
  it("answer an administrator without a second factor exactly as 0.7.3 did", async () => {
    const res = await login("admin", "correct-horse-battery");
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual(["expiresAt", "role", "token", "username"]);
  });

  it("let an administrator enrol and then need a code", async () => {
    const u = await t.createUser({ role: "admin" });
    const setup = await t.request("POST", "/api/account/two-factor/totp", { token: u.token });
    await t.request("POST", "/api/account/two-factor/totp/confirm", {
      token: u.token,
      body: { code: codeOf(setup.body.data.secret) },
    });
    const res = await secondStep(await challengeOf(u), codeOf(setup.body.data.secret, 1));
    expect(res.body.data.role).toBe("admin");
  });
});

describe("changing one's second factor", () => {
  it("turns TOTP off with the password and a code: the password alone signs in again", async () => {
    const u = await enrolledUser();
    const off = await t.request("POST", "/api/account/two-factor/totp/disable", {
      token: u.token,
      body: { password: u.password, code: codeOf(u.secret, 1) },
    });
    expect(off.status).toBe(200);
    expect((await login(u.username, u.password)).status).toBe(200);
    const status = await t.request("GET", "/api/account/two-factor", { token: u.token });
    expect(status.body.data).toEqual({
      totp: false,
      recovery_codes_left: 0,
      passkeys: 0,
      enrolment_required: false,
    });
  });

  it("does not turn TOTP off without the right password", async () => {
    const u = await enrolledUser();
    const off = await t.request("POST", "/api/account/two-factor/totp/disable", {
      token: u.token,
      body: { password: "wrong-password", code: codeOf(u.secret, 1) },
    });
    expect(off.status).toBe(401);
    expect(off.body.error).toBe("wrong_current_password");
    expect((await login(u.username, u.password)).body.error).toBe("second_factor_required");
  });

  it("renews the recovery codes: the old ones stop working", async () => {
    const u = await enrolledUser();
    const renewed = await t.request("POST", "/api/account/two-factor/recovery-codes", {
      token: u.token,
      body: { password: u.password, code: u.recoveryCodes[0] },
    });
    expect(renewed.status).toBe(200);
    expect(renewed.body.data.recovery_codes).toHaveLength(10);
    const old = await secondStep(await challengeOf(u), u.recoveryCodes[1]!);
    expect(old.body.error).toBe("invalid_second_factor_code");
    const fresh = await secondStep(await challengeOf(u), renewed.body.data.recovery_codes[0]);
    expect(fresh.status).toBe(200);
  });

  it("refuses a second enrolment while TOTP is on with 409 totp_already_enabled", async () => {
    const u = await enrolledUser();
    const res = await t.request("POST", "/api/account/two-factor/totp", { token: u.token });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe("totp_already_enabled");
  });

  it("is refused to an API key with 403 account_required", async () => {
    const u = await t.createUser();
    const key = await u.createApiKey(1);
    const res = await t.request("POST", "/api/account/two-factor/totp", { apiKey: key.key });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe("account_required");
  });
});

describe("WebDAV with a second factor", () => {
  const WEBDAV = Permission.WEBDAV_READ | Permission.MOUNT_VIEW;
  const propfind = (user: string, password: string) => davPropfind(t, user, password);

  it("takes the account password while no second factor is on", async () => {
    const u = await t.createUser({ permissions: WEBDAV });
    expect((await propfind(u.username, u.password)).status).toBe(207);
  });

  it("refuses the account password with 401 and a text naming app passwords and API keys instead", async () => {
    const u = await enrolledUser(WEBDAV);
    const res = await propfind(u.username, u.password);
    expect(res.status).toBe(401);
    expect(res.text).toContain("use an app password (My account) or an API key as the password");
    expect(res.headers.get("www-authenticate")).toMatch(/^Basic /);
  });

  it("refuses a password proven just before TOTP was turned on", async () => {
    const u = await t.createUser({ permissions: WEBDAV });
    expect((await propfind(u.username, u.password)).status).toBe(207);
    const setup = await t.request("POST", "/api/account/two-factor/totp", { token: u.token });
    await t.request("POST", "/api/account/two-factor/totp/confirm", {
      token: u.token,
      body: { code: codeOf(setup.body.data.secret) },
    });
    expect((await propfind(u.username, u.password)).status).toBe(401);
  });

  it("still takes an API key of the account as the password", async () => {
    const u = await enrolledUser(WEBDAV);
    const key = await u.createApiKey(WEBDAV);
    expect((await propfind(u.username, key.key)).status).toBe(207);
  });
});

describe("an administrator's reset", () => {
  it("removes the user's TOTP and recovery codes and signs them out: the password alone signs in", async () => {
    const admin = await t.adminToken();
    const u = await enrolledUser();
    const shown = await t.request("GET", `/api/admin/users/${u.id}`, { token: admin });
    expect(shown.body.data.two_factor).toBe(true);
    const res = await t.request("POST", `/api/admin/users/${u.id}/reset-second-factor`, { token: admin });
    expect(res.status).toBe(200);
    const listed = await t.request("GET", "/api/admin/users", { token: admin });
    expect(listed.body.data.users.find((x: { id: string }) => x.id === u.id).two_factor).toBe(false);
    expect((await t.request("GET", "/api/account", { token: u.token })).status).toBe(401);
    const again = await login(u.username, u.password);
    expect(again.status).toBe(200);
    const status = await t.request("GET", "/api/account/two-factor", { token: again.body.data.token });
    expect(status.body.data).toEqual({
      totp: false,
      recovery_codes_left: 0,
      passkeys: 0,
      enrolment_required: false,
    });
  });

  it("is for administrators only: a user gets 403", async () => {
    const u = await enrolledUser();
    const other = await t.createUser();
    const res = await t.request("POST", `/api/admin/users/${u.id}/reset-second-factor`, {
      token: other.token,
    });
    expect(res.status).toBe(403);
    expect((await login(u.username, u.password)).body.error).toBe("second_factor_required");
  });

  it("answers 404 user_not_found for an unknown user", async () => {
    const res = await t.request("POST", "/api/admin/users/no-such-user/reset-second-factor", {
      token: await t.adminToken(),
    });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe("user_not_found");
  });
});
