/**
 * Single sign-on against a real OpenID Connect provider (oidc-provider on a loopback port,
 * test/support/oidc-idp.ts): the whole code flow with PKCE, the role from a claim, linking by
 * subject and by e-mail, and every refusal ending on the sign-in error page
 * (docs/accounts.md#single-sign-on).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInAtIdp, startTestIdp, type TestIdp } from "../support/oidc-idp";
import { createTestApp, type TestApp } from "../support/test-app";

const CALLBACK = "http://localhost/api/auth/oidc/callback";
const ALICE = {
  sub: "alice-sub",
  email: "alice@example.com",
  password: "alice-pass",
  name: "Alice",
  groups: ["cs-admins"],
};
const BOB = { sub: "bob-sub", email: "bob@other.org", password: "bob-pass", groups: ["cs-guests"] };
const CAROL = { sub: "carol-sub", email: "carol@example.com", password: "carol-pass" };
const DAN = { sub: "dan-sub", email: "dan@example.com", password: "dan-pass" };
/** Her groups change at the provider between sign-ins (the provider reads them at each sign-in). */
const ERIN = { sub: "erin-sub", email: "erin@example.com", password: "erin-pass", groups: ["cs-guests"] };

let idp: TestIdp;
let t: TestApp;
let admin: string;

beforeAll(async () => {
  idp = await startTestIdp([CALLBACK], [ALICE, BOB, CAROL, DAN, ERIN]);
  // The provider is on loopback: like any user-given URL there, it must be allow-listed.
  t = await createTestApp({ URL_FETCH_ALLOW: idp.hostPort });
  admin = await t.adminToken();
});
afterAll(async () => {
  await t?.close();
  await idp?.close();
});

const configure = (settings: Record<string, unknown>) =>
  t.request("PUT", "/api/admin/sso-settings", { token: admin, body: settings });

const baseSettings = () => ({
  enabled: true,
  provider_name: "Test IdP",
  issuer_url: idp.issuer,
  client_id: idp.clientId,
  client_secret: idp.clientSecret,
  role_claim: "groups",
  admin_values: ["cs-admins"],
  guest_values: ["cs-guests"],
  default_role: "user",
  allowed_domains: [],
  auto_create: true,
});

/** ClipShare's start, the provider's login form, and the callback: where the browser lands. */
async function signIn(person: { email: string; password: string }, tamper?: (state: string) => string) {
  const start = await t.app.request("/api/auth/oidc/start");
  expect(start.status).toBe(302);
  const cookie = start.headers.getSetCookie().find((c) => c.startsWith("clipshare_sso_state="))!;
  const state = cookie.split(";")[0]!.split("=")[1]!;
  const back = new URL(await signInAtIdp(idp, start.headers.get("location")!, person.email, person.password));
  expect(back.href.startsWith(CALLBACK)).toBe(true);
  if (tamper) back.searchParams.set("state", tamper(state));
  const done = await t.app.request(`${back.pathname}${back.search}`, {
    headers: { cookie: `clipshare_sso_state=${state}` },
  });
  expect(done.status).toBe(302);
  return new URL(done.headers.get("location")!, "http://localhost");
}

/** Lands signed in: trades the hand-off code for a session and reads the account. */
async function signedInAs(person: { email: string; password: string }) {
  const landed = await signIn(person);
  expect(landed.pathname).toBe("/sso");
  const code = new URLSearchParams(landed.hash.slice(1)).get("code");
  expect(code).toBeTruthy();
  const exchanged = await t.request("POST", "/api/auth/oidc/exchange", { body: { code } });
  expect(exchanged.status).toBe(200);
  const me = await t.request("GET", "/api/account", { token: exchanged.body.data.token });
  return { login: exchanged.body.data, me: me.body.data, code };
}

describe("single sign-on through a real OpenID Connect provider", () => {
  beforeAll(async () => {
    expect((await configure(baseSettings())).status).toBe(200);
  });

  it("tells the sign-in form that it is set up, with the provider's name", async () => {
    const res = await t.request("GET", "/api/auth/oidc/status");
    expect(res.body.data).toEqual({ enabled: true, provider_name: "Test IdP" });
  });

  it("creates a user with the role from the claim and signs them in", async () => {
    const { login, me } = await signedInAs(ALICE);
    expect(login.role).toBe("admin");
    expect(me).toMatchObject({
      username: "alice",
      role: "admin",
      email: "alice@example.com",
      display_name: "Alice",
    });
  });

  it("finds the same user on a second sign-in", async () => {
    const first = await signedInAs(BOB);
    const second = await signedInAs(BOB);
    expect(first.me.role).toBe("guest");
    expect(second.me.id).toBe(first.me.id);
    const users = await t.request("GET", "/api/admin/users", { token: admin });
    expect(users.body.data.users.filter((u: { email: string }) => u.email === BOB.email)).toHaveLength(1);
  });

  it("gives the user the role the claim names at every sign-in, and keeps a disabled user disabled", async () => {
    const first = await signedInAs(ERIN);
    expect(first.me.role).toBe("guest");
    ERIN.groups = ["cs-admins"];
    const promoted = await signedInAs(ERIN);
    expect(promoted.me.id).toBe(first.me.id);
    expect(promoted.login.role).toBe("admin");
    expect(promoted.me.role).toBe("admin");
    // The role changed: the session of the first sign-in ended, as when an administrator changes it.
    expect((await t.request("GET", "/api/account", { token: first.login.token })).status).toBe(401);
    ERIN.groups = [];
    const byDefault = await signedInAs(ERIN);
    expect(byDefault.me.role).toBe("user");

    await t.request("PUT", `/api/admin/users/${first.me.id}`, { token: admin, body: { disabled: true } });
    ERIN.groups = ["cs-admins"];
    const refused = await signIn(ERIN);
    expect(refused.searchParams.get("error")).toBe("account_disabled");
    const stored = await t.request("GET", `/api/admin/users/${first.me.id}`, { token: admin });
    expect(stored.body.data).toMatchObject({ role: "user", disabled: true });
  });

  it("uses a hand-off code only once", async () => {
    const { code } = await signedInAs(ALICE);
    const again = await t.request("POST", "/api/auth/oidc/exchange", { body: { code } });
    expect(again.status).toBe(400);
    expect(again.body.error).toBe("sso_state_invalid");
  });

  it("refuses a wrong state", async () => {
    const landed = await signIn(ALICE, (state) => `${state}x`);
    expect(landed.pathname).toBe("/sso");
    expect(landed.searchParams.get("error")).toBe("sso_state_invalid");
  });

  it("refuses a callback without the browser's state cookie", async () => {
    const start = await t.app.request("/api/auth/oidc/start");
    const back = new URL(await signInAtIdp(idp, start.headers.get("location")!, ALICE.email, ALICE.password));
    const done = await t.app.request(`${back.pathname}${back.search}`);
    expect(new URL(done.headers.get("location")!, "http://localhost").searchParams.get("error")).toBe(
      "sso_state_invalid",
    );
  });

  it("refuses an e-mail domain that is not allowed", async () => {
    await configure({ allowed_domains: ["example.com"] });
    try {
      const landed = await signIn(BOB);
      expect(landed.searchParams.get("error")).toBe("sso_domain_not_allowed");
    } finally {
      await configure({ allowed_domains: [] });
    }
  });

  it("with auto-create off, refuses an unknown person and admits a user an administrator made with their address", async () => {
    await configure({ auto_create: false });
    try {
      const refused = await signIn(CAROL);
      expect(refused.searchParams.get("error")).toBe("sso_unknown_user");
      const made = await t.request("POST", "/api/admin/users", {
        token: admin,
        body: { username: "dan", password: "dan-local-password", email: DAN.email },
      });
      expect(made.status).toBe(201);
      const { me } = await signedInAs(DAN);
      expect(me.id).toBe(made.body.data.id);
    } finally {
      await configure({ auto_create: true });
    }
  });

  it("refuses a disabled user", async () => {
    const { me } = await signedInAs(CAROL);
    await t.request("PUT", `/api/admin/users/${me.id}`, { token: admin, body: { disabled: true } });
    const landed = await signIn(CAROL);
    expect(landed.searchParams.get("error")).toBe("account_disabled");
  });

  it("refuses password sign-in of a user it made, with a clear text", async () => {
    await signedInAs(ALICE);
    const res = await t.request("POST", "/api/admin/login", {
      body: { username: "alice", password: "anything-at-all" },
    });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe("password_not_set");
  });

  it("never answers the client secret, only whether it is set", async () => {
    const res = await t.request("GET", "/api/admin/sso-settings", { token: admin });
    expect(res.body.data).toMatchObject({
      has_client_secret: true,
      redirect_uri: CALLBACK,
      configured: true,
    });
    const saved = await configure({ provider_name: "Test IdP" });
    for (const answer of [res.text, saved.text, (await t.request("GET", "/api/auth/oidc/status")).text]) {
      expect(answer).not.toContain(idp.clientSecret);
    }
    const row = await t.ctx.db
      .selectFrom("sso_settings")
      .select("client_secret_enc")
      .executeTakeFirstOrThrow();
    expect(row.client_secret_enc).not.toContain(idp.clientSecret);
  });

  it("refuses the settings to anyone but an administrator", async () => {
    const user = await t.createUser();
    expect((await t.request("GET", "/api/admin/sso-settings", { token: user.token })).status).toBe(403);
  });
});

describe("single sign-on that is not set up", () => {
  it("sends the browser to the error page", async () => {
    await configure({ enabled: false });
    try {
      const res = await t.app.request("/api/auth/oidc/start");
      expect(res.headers.get("location")).toBe("/sso?error=sso_not_configured");
      expect((await t.request("GET", "/api/auth/oidc/status")).body.data.enabled).toBe(false);
    } finally {
      await configure({ enabled: true });
    }
  });
});
