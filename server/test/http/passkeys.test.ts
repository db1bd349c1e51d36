/**
 * Passkeys (docs/accounts.md#passkeys): registering one in My account, signing in with it after
 * the password and on its own, and what is refused (a wrong signature, a replayed challenge,
 * another user's passkey, a counter that went back, too many tries). A software authenticator
 * (support/soft-authenticator.ts) answers as a browser would. Runs on SQLite and PostgreSQL.
 */
import { Permission } from "@clipshare/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SoftAuthenticator, tamperedSignature } from "../support/soft-authenticator";
import { createTestApp, type TestApp, type TestUser } from "../support/test-app";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

// app.request() addresses the app as http://localhost: that is the origin and the RP ID.
const ORIGIN = "http://localhost";

const login = (username: string, password: string) =>
  t.request("POST", "/api/admin/login", { body: { username, password } });
const signInOptions = async (challenge?: string) => {
  const res = await t.request("POST", "/api/admin/login/passkey/options", {
    body: challenge === undefined ? {} : { challenge },
  });
  expect(res.status, res.text).toBe(200);
  return res.body.data.options;
};
const passwordless = (response: unknown) =>
  t.request("POST", "/api/admin/login/passkey", { body: { response } });
const secondStep = (challenge: string, passkey: unknown) =>
  t.request("POST", "/api/admin/login/second-factor", { body: { challenge, passkey } });

/** Registers a passkey for `u` on `device`; answers the stored passkey as listed. */
async function addPasskey(u: TestUser, device: SoftAuthenticator, name = "Laptop") {
  const options = await t.request("POST", "/api/account/passkeys/options", { token: u.token });
  expect(options.status, options.text).toBe(200);
  const res = await t.request("POST", "/api/account/passkeys", {
    token: u.token,
    body: { name, response: device.register(options.body.data.options) },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data as { id: string; name: string; created_at: string; last_used_at: string | null };
}

async function userWithPasskey(counts = true) {
  const u = await t.createUser();
  const device = new SoftAuthenticator({ origin: ORIGIN, counts });
  const passkey = await addPasskey(u, device);
  return { u, device, passkey };
}

async function challengeOf(u: TestUser): Promise<string> {
  const res = await login(u.username, u.password);
  expect(res.status).toBe(401);
  expect(res.body.error).toBe("second_factor_required");
  return res.body.details.challenge as string;
}

describe("registering a passkey", () => {
  it("lists it by name with when it was added, and counts it among the second factors", async () => {
    const { u, passkey } = await userWithPasskey();
    expect(passkey).toMatchObject({ name: "Laptop", last_used_at: null });
    const list = await t.request("GET", "/api/account/passkeys", { token: u.token });
    expect(list.body.data.passkeys).toEqual([passkey]);
    const status = await t.request("GET", "/api/account/two-factor", { token: u.token });
    expect(status.body.data).toEqual({
      totp: false,
      recovery_codes_left: 0,
      passkeys: 1,
      enrolment_required: false,
    });
  });

  it("offers options for this site, excluding the passkeys the account has", async () => {
    const { u, device } = await userWithPasskey();
    const options = (await t.request("POST", "/api/account/passkeys/options", { token: u.token })).body.data
      .options;
    expect(options.rp).toEqual({ name: "ClipShare", id: "localhost" });
    expect(options.user.name).toBe(u.username);
    expect(options.authenticatorSelection.residentKey).toBe("required");
    expect(options.excludeCredentials.map((c: { id: string }) => c.id)).toEqual([
      device.credentials[0]!.id.toString("base64url"),
    ]);
  });

  it("refuses an answer for another origin, and the same options twice", async () => {
    const u = await t.createUser();
    const options = (await t.request("POST", "/api/account/passkeys/options", { token: u.token })).body.data
      .options;
    const phishing = new SoftAuthenticator({ origin: "https://clipshare.example.net" });
    const wrongOrigin = await t.request("POST", "/api/account/passkeys", {
      token: u.token,
      body: { name: "Phone", response: phishing.register(options) },
    });
    expect(wrongOrigin.status).toBe(401);
    expect(wrongOrigin.body.error).toBe("invalid_passkey");
    // The challenge was taken by that attempt: it does not count twice.
    const device = new SoftAuthenticator({ origin: ORIGIN });
    const again = await t.request("POST", "/api/account/passkeys", {
      token: u.token,
      body: { name: "Phone", response: device.register(options) },
    });
    expect(again.status).toBe(401);
    expect(again.body.error).toBe("passkey_challenge_invalid");
    expect((await t.request("GET", "/api/account/passkeys", { token: u.token })).body.data.passkeys).toEqual(
      [],
    );
  });

  it("refuses a registration without a name or with a malformed answer as 400, never 500", async () => {
    const u = await t.createUser();
    const noName = await t.request("POST", "/api/account/passkeys", {
      token: u.token,
      body: { name: "  ", response: { id: "x" } },
    });
    expect(noName.status).toBe(400);
    expect(noName.body).toMatchObject({ success: false, error: "validation_failed" });
    const options = (await t.request("POST", "/api/account/passkeys/options", { token: u.token })).body.data
      .options;
    const answer = new SoftAuthenticator({ origin: ORIGIN }).register(options);
    const garbled = await t.request("POST", "/api/account/passkeys", {
      token: u.token,
      body: {
        name: "Key",
        response: { ...answer, response: { ...answer.response, attestationObject: "AAAA" } },
      },
    });
    expect(garbled.status).toBe(401);
    expect(garbled.body.error).toBe("invalid_passkey");
  });

  it("renames and deletes one's own passkey, and not another user's", async () => {
    const { u, passkey } = await userWithPasskey();
    const other = await t.createUser();
    const renamed = await t.request("PUT", `/api/account/passkeys/${passkey.id}`, {
      token: u.token,
      body: { name: "Work laptop" },
    });
    expect(renamed.body.data.name).toBe("Work laptop");
    const theirs = await t.request("DELETE", `/api/account/passkeys/${passkey.id}`, { token: other.token });
    expect(theirs.status).toBe(404);
    expect(theirs.body.error).toBe("passkey_not_found");
    const renameTheirs = await t.request("PUT", `/api/account/passkeys/${passkey.id}`, {
      token: other.token,
      body: { name: "Mine now" },
    });
    expect(renameTheirs.status).toBe(404);
    expect(
      (await t.request("DELETE", `/api/account/passkeys/${passkey.id}`, { token: u.token })).status,
    ).toBe(200);
    expect((await t.request("GET", "/api/account/passkeys", { token: u.token })).body.data.passkeys).toEqual(
      [],
    );
    // Without a passkey the password alone signs in again.
    expect((await login(u.username, u.password)).status).toBe(200);
  });

  it("is refused to an API key (an account's own thing)", async () => {
    const u = await t.createUser();
    const key = await u.createApiKey(1);
    const res = await t.request("POST", "/api/account/passkeys/options", { apiKey: key.key });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe("account_required");
  });
});

describe("a passkey as the second factor", () => {
  it("makes the password step ask for it, and signs in with the signed options", async () => {
    const { u, device } = await userWithPasskey();
    const res = await login(u.username, u.password);
    expect(res.status).toBe(401);
    expect(res.body.details.methods).toEqual(["passkey"]);
    const challenge = res.body.details.challenge as string;
    const options = await signInOptions(challenge);
    expect(options.allowCredentials.map((c: { id: string }) => c.id)).toEqual([
      device.credentials[0]!.id.toString("base64url"),
    ]);
    const done = await secondStep(challenge, device.assert(options));
    expect(done.status, done.text).toBe(200);
    expect(done.body.data).toMatchObject({ username: u.username, role: "user" });
    const me = await t.request("GET", "/api/account", { token: done.body.data.token });
    expect(me.body.data.id).toBe(u.id);
    const list = await t.request("GET", "/api/account/passkeys", { token: u.token });
    expect(list.body.data.passkeys[0].last_used_at).not.toBeNull();
  });

  it("refuses a wrong signature with 401 invalid_passkey and keeps the sign-in challenge", async () => {
    const { u, device } = await userWithPasskey();
    const challenge = await challengeOf(u);
    const wrong = await secondStep(
      challenge,
      tamperedSignature(device.assert(await signInOptions(challenge))),
    );
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ success: false, error: "invalid_passkey" });
    expect(wrong.body.data).toBeNull();
    const right = await secondStep(challenge, device.assert(await signInOptions(challenge)));
    expect(right.status).toBe(200);
  });

  it("refuses a replayed assertion: its challenge was used", async () => {
    const { u, device } = await userWithPasskey(false);
    const first = await challengeOf(u);
    const assertion = device.assert(await signInOptions(first));
    expect((await secondStep(first, assertion)).status).toBe(200);
    const replay = await secondStep(await challengeOf(u), assertion);
    expect(replay.status).toBe(401);
    expect(replay.body.error).toBe("passkey_challenge_invalid");
  });

  it("refuses another user's passkey, even signing this account's options", async () => {
    const { u } = await userWithPasskey();
    const other = await userWithPasskey();
    const challenge = await challengeOf(u);
    const options = await signInOptions(challenge);
    const res = await secondStep(
      challenge,
      other.device.assert(options, { credential: other.device.credentials[0] }),
    );
    expect(res.status).toBe(401);
    expect(res.body.error).toBe("invalid_passkey");
  });

  it("refuses a signature counter that did not grow (a cloned authenticator)", async () => {
    const { u, device } = await userWithPasskey();
    const challenge = await challengeOf(u);
    expect(
      (await secondStep(challenge, device.assert(await signInOptions(challenge), { counter: 5 }))).status,
    ).toBe(200);
    const next = await challengeOf(u);
    const cloned = await secondStep(next, device.assert(await signInOptions(next), { counter: 5 }));
    expect(cloned.status).toBe(401);
    expect(cloned.body.error).toBe("invalid_passkey");
  });

  it("answers options for a spent or unknown sign-in challenge with sign_in_challenge_invalid", async () => {
    const res = await t.request("POST", "/api/admin/login/passkey/options", { body: { challenge: "nope" } });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe("sign_in_challenge_invalid");
  });

  it("puts wrong signatures on the second-factor limiter: 429 after five, even for a right one", async () => {
    const { u, device } = await userWithPasskey();
    const challenge = await challengeOf(u);
    for (let i = 0; i < 5; i++) {
      const res = await secondStep(
        challenge,
        tamperedSignature(device.assert(await signInOptions(challenge))),
      );
      expect(res.status).toBe(401);
    }
    const locked = await secondStep(challenge, device.assert(await signInOptions(challenge)));
    expect(locked.status).toBe(429);
    expect(locked.body.error).toBe("rate_limited");
    expect(locked.headers.get("retry-after")).toBeTruthy();
  });

  it("lists TOTP and the passkey together when the account has both", async () => {
    const { u } = await userWithPasskey();
    const OTPAuth = await import("otpauth");
    const setup = await t.request("POST", "/api/account/two-factor/totp", { token: u.token });
    expect(setup.status, setup.text).toBe(200);
    const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(setup.body.data.secret) }).generate();
    const on = await t.request("POST", "/api/account/two-factor/totp/confirm", {
      token: u.token,
      body: { code },
    });
    expect(on.status, on.text).toBe(200);
    const res = await login(u.username, u.password);
    expect(res.body.details.methods).toEqual(["totp", "recovery_code", "passkey"]);
  });

  it("makes WebDAV refuse the account's password, as TOTP does", async () => {
    const u = await t.createUser({ permissions: Permission.WEBDAV_READ | Permission.MOUNT_VIEW });
    const propfind = () =>
      t.request("PROPFIND", "/dav/", {
        headers: {
          authorization: `Basic ${Buffer.from(`${u.username}:${u.password}`).toString("base64")}`,
          depth: "0",
        },
      });
    expect((await propfind()).status).toBe(207);
    await addPasskey(u, new SoftAuthenticator({ origin: ORIGIN }));
    const res = await propfind();
    expect(res.status).toBe(401);
    expect(res.text).toContain("an API key as the password");
  });
});

describe("signing in with a passkey alone", () => {
  it("signs in without a user name or password, with the session a password sign-in gets", async () => {
    const { u, device } = await userWithPasskey();
    const options = await signInOptions();
    expect(options.allowCredentials ?? []).toEqual([]);
    expect(options.userVerification).toBe("required");
    const res = await passwordless(device.assert(options));
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual(["expiresAt", "role", "token", "username"]);
    expect(res.body.data).toMatchObject({ username: u.username, role: "user" });
    const me = await t.request("GET", "/api/account", { token: res.body.data.token });
    expect(me.body.data.id).toBe(u.id);
  });

  it("needs user verification (PIN or biometric), since no password was asked", async () => {
    const { device } = await userWithPasskey();
    const res = await passwordless(device.assert(await signInOptions(), { userVerified: false }));
    expect(res.status).toBe(401);
    expect(res.body.error).toBe("invalid_passkey");
  });

  it("refuses a challenge the server never gave, a replay, and a wrong signature", async () => {
    const { device } = await userWithPasskey(false);
    const options = await signInOptions();
    const forged = await passwordless(device.assert(options, { challenge: "c2VsZi1tYWRl" }));
    expect(forged.status).toBe(401);
    expect(forged.body.error).toBe("passkey_challenge_invalid");
    const assertion = device.assert(options);
    expect((await passwordless(assertion)).status).toBe(200);
    const replay = await passwordless(assertion);
    expect(replay.status).toBe(401);
    expect(replay.body.error).toBe("passkey_challenge_invalid");
    const wrong = await passwordless(tamperedSignature(device.assert(await signInOptions())));
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe("invalid_passkey");
  });

  it("refuses a passkey that is not registered, and one that was deleted", async () => {
    const stranger = new SoftAuthenticator({ origin: ORIGIN });
    const u = await t.createUser();
    const options = (await t.request("POST", "/api/account/passkeys/options", { token: u.token })).body.data
      .options;
    stranger.register(options); // made on the device, never sent to the server
    const unknown = await passwordless(stranger.assert({ ...(await signInOptions()), rpId: "localhost" }));
    expect(unknown.status).toBe(401);
    expect(unknown.body.error).toBe("invalid_passkey");

    const { u: owner, device, passkey } = await userWithPasskey();
    await t.request("DELETE", `/api/account/passkeys/${passkey.id}`, { token: owner.token });
    const deleted = await passwordless(device.assert(await signInOptions()));
    expect(deleted.status).toBe(401);
    expect(deleted.body.error).toBe("invalid_passkey");
  });

  it("tells a disabled account so, with no session", async () => {
    const { u, device } = await userWithPasskey();
    await t.request("PUT", `/api/admin/users/${u.id}`, {
      token: await t.adminToken(),
      body: { disabled: true },
    });
    const res = await passwordless(device.assert(await signInOptions()));
    expect(res.status).toBe(403);
    expect(res.body.error).toBe("account_disabled");
  });

  it("answers a malformed body with 400 in the envelope", async () => {
    const res = await passwordless({ id: "not base64url!", type: "public-key" });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: "validation_failed" });
  });
});

describe("the administrator's reset", () => {
  it("removes the user's passkeys: the password alone signs in, the passkey no more", async () => {
    const { u, device } = await userWithPasskey();
    const reset = await t.request("POST", `/api/admin/users/${u.id}/reset-second-factor`, {
      token: await t.adminToken(),
    });
    expect(reset.status).toBe(200);
    expect((await login(u.username, u.password)).status).toBe(200);
    const res = await passwordless(device.assert(await signInOptions()));
    expect(res.status).toBe(401);
  });
});

describe("the administrators' second-factor requirement", () => {
  it("lets a held administrator add a passkey, which frees them as TOTP would", async () => {
    const other = await t.createUser({ role: "admin" });
    // Set directly: turning it on through the API takes an administrator with a second factor.
    await t.ctx.settings.update({ require_admin_second_factor: true });
    try {
      const held = await t.request("GET", "/api/admin/users", { token: other.token });
      expect(held.status).toBe(403);
      expect(held.body.error).toBe("second_factor_enrolment_required");
      const before = await t.request("GET", "/api/account/two-factor", { token: other.token });
      expect(before.body.data).toMatchObject({ passkeys: 0, enrolment_required: true });

      await addPasskey(other, new SoftAuthenticator({ origin: ORIGIN }));
      const after = await t.request("GET", "/api/account/two-factor", { token: other.token });
      expect(after.body.data).toMatchObject({ passkeys: 1, enrolment_required: false });
      expect((await t.request("GET", "/api/admin/users", { token: other.token })).status).toBe(200);
    } finally {
      await t.ctx.settings.update({ require_admin_second_factor: false });
    }
  });
});
