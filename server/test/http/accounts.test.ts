/**
 * Accounts: users an administrator creates or invites, signing in, sessions, disabling,
 * the last administrator, deleting with a transfer of what the user owns, and API keys that
 * never exceed their user (docs/accounts.md).
 */
import { ALL_PERMISSIONS, Permission } from "@clipshare/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_USERNAME, createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
});
afterAll(() => t.close());

const login = (username: string, password: string) =>
  t.request("POST", "/api/admin/login", { body: { username, password } });

describe("users made by an administrator", () => {
  it("sign in at the 0.7.3 login path, with their role in the answer, and see themselves", async () => {
    const u = await t.createUser({ permissions: Permission.TEXT, display_name: "Ann" } as never);
    const res = await login(u.username, u.password);
    expect(res.status).toBe(200);
    expect(res.body.data.role).toBe("user");
    const me = await t.request("GET", "/api/account", { token: u.token });
    expect(me.body.data).toMatchObject({ username: u.username, role: "user", permissions: Permission.TEXT });
    const check = await t.request("GET", "/api/test/api-key", { token: u.token });
    expect(check.body.data).toMatchObject({ is_admin: false, permission_mask: Permission.TEXT });
    expect(check.body.data.user).toMatchObject({ id: u.id, role: "user" });
    // Not an administrator: the admin checks and routes refuse the session.
    expect((await t.request("GET", "/api/test/admin-token", { token: u.token })).status).toBe(403);
    expect((await t.request("GET", "/api/admin/users", { token: u.token })).body.error).toBe(
      "admin_required",
    );
  });

  it("refuse a name already taken with 409 username_taken", async () => {
    const res = await t.request("POST", "/api/admin/users", {
      token: admin,
      body: { username: ADMIN_USERNAME, password: "long-enough-1" },
    });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe("username_taken");
  });

  it("give a guest only the look-around bits, whatever the administrator ticks", async () => {
    const g = await t.createUser({ role: "guest", permissions: ALL_PERMISSIONS });
    const me = await t.request("GET", "/api/account", { token: g.token });
    expect(me.body.data.permissions).toBe(Permission.MOUNT_VIEW | Permission.WEBDAV_READ);
    const paste = await t.request("POST", "/api/paste", { token: g.token, body: { content: "hi" } });
    expect(paste.status).toBe(403);
    expect(paste.body.error).toBe("permission_denied");
  });
});

describe("invitations", () => {
  const invite = async (body: Record<string, unknown> = {}) => {
    const res = await t.request("POST", "/api/admin/invitations", { token: admin, body });
    expect(res.status).toBe(201);
    return res.body.data as { id: string; token: string; path: string };
  };

  it("sign a new user up and in once, with the role and grant the administrator chose", async () => {
    const inv = await invite({
      role: "user",
      permissions: Permission.TEXT | Permission.MOUNT_VIEW,
      base_path: "/team",
    });
    expect(inv.path).toBe(`/invite/${inv.token}`);
    const preview = await t.request("GET", `/api/invitations/${inv.token}`);
    expect(preview.body.data).toMatchObject({ role: "user" });
    const accepted = await t.request("POST", `/api/invitations/${inv.token}/accept`, {
      body: { username: "invited-1", password: "a-good-password" },
    });
    expect(accepted.status).toBe(201);
    const me = await t.request("GET", "/api/account", { token: accepted.body.data.token });
    expect(me.body.data).toMatchObject({
      username: "invited-1",
      role: "user",
      permissions: Permission.TEXT | Permission.MOUNT_VIEW,
      base_path: "/team",
    });
    const again = await t.request("POST", `/api/invitations/${inv.token}/accept`, {
      body: { username: "invited-2", password: "a-good-password" },
    });
    expect(again.status).toBe(404);
    expect(again.body.error).toBe("invitation_invalid");
    const listed = await t.request("GET", "/api/admin/invitations", { token: admin });
    expect(listed.body.data.invitations.find((i: { id: string }) => i.id === inv.id).status).toBe("accepted");
  });

  it("sign up exactly one user when the link is used five times at once", async () => {
    const inv = await invite();
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map((n) =>
        t.request("POST", `/api/invitations/${inv.token}/accept`, {
          body: { username: `racer-${n}`, password: "a-good-password" },
        }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 404)).toHaveLength(4);
    const users = await t.request("GET", "/api/admin/users?search=racer-", { token: admin });
    expect(users.body.data.total).toBe(1);
  });

  it("give the link back when the chosen name is taken, for another try", async () => {
    const inv = await invite();
    const taken = await t.request("POST", `/api/invitations/${inv.token}/accept`, {
      body: { username: ADMIN_USERNAME, password: "a-good-password" },
    });
    expect(taken.body.error).toBe("username_taken");
    const ok = await t.request("POST", `/api/invitations/${inv.token}/accept`, {
      body: { username: "second-try", password: "a-good-password" },
    });
    expect(ok.status).toBe(201);
  });

  it("refuse an expired link as invalid", async () => {
    const old = await invite();
    await t.ctx.db
      .updateTable("user_invitations")
      .set({ expires_at: "2020-01-01T00:00:00.000Z" })
      .where("id", "=", old.id)
      .execute();
    const expired = await t.request("GET", `/api/invitations/${old.token}`);
    expect(expired.body.error).toBe("invitation_invalid");
  });

  it("answer an unknown link with 404", async () => {
    expect((await t.request("GET", "/api/invitations/not-a-token")).status).toBe(404);
  });
});

describe("sessions", () => {
  /** A user signed in twice: the session of `u.token` and a second one. */
  async function twoSessions() {
    const u = await t.createUser();
    const second = (await login(u.username, u.password)).body.data.token as string;
    const list = await t.request("GET", "/api/account/sessions", { token: u.token });
    const other = list.body.data.sessions.find((s: { current: boolean }) => !s.current);
    return { u, second, list, other: other as { id: string } };
  }

  it("are listed for their owner, the current one marked", async () => {
    const { list, other } = await twoSessions();
    expect(list.body.data.sessions).toHaveLength(2);
    const current = list.body.data.sessions.find((s: { current: boolean }) => s.current);
    expect(current).toBeDefined();
    expect(other).toBeDefined();
  });

  it("cannot be ended by another user", async () => {
    const { second, other } = await twoSessions();
    const stranger = await t.createUser();
    const foreign = await t.request("DELETE", `/api/account/sessions/${other.id}`, { token: stranger.token });
    expect(foreign.body.error).toBe("session_not_found");
    expect((await t.request("GET", "/api/account", { token: second })).status).toBe(200);
  });

  it("end one at a time when their owner signs it out", async () => {
    const { u, second, other } = await twoSessions();
    expect((await t.request("DELETE", `/api/account/sessions/${other.id}`, { token: u.token })).status).toBe(
      200,
    );
    expect((await t.request("GET", "/api/account", { token: second })).status).toBe(401);
  });

  it("all end but the current one when their owner signs the others out", async () => {
    const u = await t.createUser();
    const third = (await login(u.username, u.password)).body.data.token as string;
    const out = await t.request("POST", "/api/account/sessions/sign-out-others", { token: u.token });
    expect(out.body.data.signed_out).toBe(1);
    expect((await t.request("GET", "/api/account", { token: third })).status).toBe(401);
    expect((await t.request("GET", "/api/account", { token: u.token })).status).toBe(200);
  });

  it("end when the user changes the password, which then signs in", async () => {
    const u = await t.createUser();
    const res = await t.request("POST", "/api/admin/change-password", {
      token: u.token,
      body: { currentPassword: u.password, newPassword: "another-password" },
    });
    expect(res.status).toBe(200);
    expect((await t.request("GET", "/api/account", { token: u.token })).status).toBe(401);
    expect((await login(u.username, "another-password")).status).toBe(200);
  });

  it("keep the display name a user sets", async () => {
    const u = await t.createUser();
    const res = await t.request("PUT", "/api/account", { token: u.token, body: { display_name: "Bea" } });
    expect(res.body.data.display_name).toBe("Bea");
  });
});

describe("disabling", () => {
  it("ends the user's sessions and keys, and sign-in says the account is disabled", async () => {
    const u = await t.createUser({ permissions: Permission.TEXT });
    const key = await u.createApiKey(Permission.TEXT);
    expect((await t.request("GET", "/api/test/api-key", { apiKey: key.key })).status).toBe(200);
    const res = await t.request("PUT", `/api/admin/users/${u.id}`, {
      token: admin,
      body: { disabled: true },
    });
    expect(res.body.data.disabled).toBe(true);
    expect((await t.request("GET", "/api/account", { token: u.token })).status).toBe(401);
    expect((await t.request("GET", "/api/test/api-key", { apiKey: key.key })).status).toBe(401);
    const again = await login(u.username, u.password);
    expect(again.status).toBe(403);
    expect(again.body.error).toBe("account_disabled");
    // A wrong password still says only that the credentials are wrong.
    expect((await login(u.username, "wrong-password")).body.error).toBe("invalid_credentials");
  });
});

describe("the last administrator", () => {
  it("cannot be demoted, disabled or deleted", async () => {
    const me = (await t.request("GET", "/api/account", { token: admin })).body.data;
    for (const body of [{ role: "user" }, { disabled: true }]) {
      const res = await t.request("PUT", `/api/admin/users/${me.id}`, { token: admin, body });
      expect(res.status).toBe(409);
      expect(res.body.error).toBe("last_admin");
    }
    const del = await t.request("DELETE", `/api/admin/users/${me.id}`, { token: admin });
    expect(del.body.error).toBe("last_admin");
  });

  it("survives two administrators demoting each other at the same moment", async () => {
    // Its own server: here the two administrators are the only ones.
    const own = await createTestApp();
    try {
      const first = await own.adminToken();
      const firstId = (await own.request("GET", "/api/account", { token: first })).body.data.id;
      const second = await own.createUser({ role: "admin" });
      const [a, b] = await Promise.all([
        own.request("PUT", `/api/admin/users/${second.id}`, { token: first, body: { role: "user" } }),
        own.request("PUT", `/api/admin/users/${firstId}`, { token: second.token, body: { role: "user" } }),
      ]);
      expect([a.status, b.status].sort()).toEqual([200, 409]);
      const left = await own.ctx.db.selectFrom("users").select("id").where("role", "=", "admin").execute();
      expect(left).toHaveLength(1);
    } finally {
      await own.close();
    }
  });
});

describe("deleting a user", () => {
  it("needs someone to receive what they own, hands it over, and takes their keys along", async () => {
    const u = await t.createUser({ permissions: Permission.TEXT });
    const key = await u.createApiKey(Permission.TEXT);
    const paste = await t.request("POST", "/api/paste", { apiKey: key.key, body: { content: "mine" } });
    expect(paste.status).toBe(201);
    const bare = await t.request("DELETE", `/api/admin/users/${u.id}`, { token: admin });
    expect(bare.body.error).toBe("transfer_required");
    const heir = await t.createUser({ permissions: Permission.TEXT });
    const toSelf = await t.request("DELETE", `/api/admin/users/${u.id}?transfer_to=${u.id}`, {
      token: admin,
    });
    expect(toSelf.body.error).toBe("invalid_transfer_target");
    const del = await t.request("DELETE", `/api/admin/users/${u.id}?transfer_to=${heir.id}`, {
      token: admin,
    });
    expect(del.status).toBe(200);
    expect(del.body.data.transferred).toBe(1);
    const heirs = await t.request("GET", "/api/pastes", { token: heir.token });
    expect(heirs.body.data.map((p: { slug: string }) => p.slug)).toContain(paste.body.data.slug);
    expect((await t.request("GET", "/api/test/api-key", { apiKey: key.key })).status).toBe(401);
    expect((await login(u.username, u.password)).status).toBe(401);
  });
});

describe("a user's API keys", () => {
  it("cannot be made with a bit or a path the user lacks", async () => {
    const u = await t.createUser({
      permissions: Permission.TEXT | Permission.MOUNT_VIEW,
      base_path: "/team",
    });
    const more = await t.request("POST", "/api/admin/api-keys", {
      token: u.token,
      body: { name: "too-much", permissions: Permission.TEXT | Permission.FILE_SHARE },
    });
    expect(more.status).toBe(403);
    expect(more.body.error).toBe("grant_exceeded");
    const wider = await t.request("POST", "/api/admin/api-keys", {
      token: u.token,
      body: { name: "too-wide", permissions: Permission.MOUNT_VIEW, basic_path: "/" },
    });
    expect(wider.body.error).toBe("grant_exceeded");
    const fits = await u.createApiKey(Permission.MOUNT_VIEW, { basic_path: "/team/docs" });
    expect(fits.key).toBeTruthy();
  });

  it("lose at once what the administrator takes from their user", async () => {
    const u = await t.createUser({ permissions: Permission.TEXT | Permission.FILE_SHARE });
    const key = await u.createApiKey(Permission.TEXT | Permission.FILE_SHARE);
    await t.request("PUT", `/api/admin/users/${u.id}`, {
      token: admin,
      body: { permissions: Permission.TEXT },
    });
    const check = await t.request("GET", "/api/test/api-key", { apiKey: key.key });
    expect(check.body.data.permission_mask).toBe(Permission.TEXT);
    const files = await t.request("GET", "/api/files", { apiKey: key.key });
    expect(files.status).toBe(403);
  });

  it("are listed only to their user; administrators see every key with its owner", async () => {
    const a = await t.createUser({ permissions: Permission.TEXT });
    const b = await t.createUser({ permissions: Permission.TEXT });
    const ka = await a.createApiKey(Permission.TEXT);
    const kb = await b.createApiKey(Permission.TEXT);
    const mine = await t.request("GET", "/api/admin/api-keys", { token: a.token });
    expect(mine.body.data.map((k: { id: string }) => k.id)).toEqual([ka.id]);
    expect((await t.request("DELETE", `/api/admin/api-keys/${kb.id}`, { token: a.token })).status).toBe(404);
    expect(
      (await t.request("PUT", `/api/admin/api-keys/${kb.id}`, { token: a.token, body: { name: "x" } }))
        .status,
    ).toBe(404);
    const all = await t.request("GET", "/api/admin/api-keys", { token: admin });
    const listed = all.body.data.find((k: { id: string }) => k.id === kb.id);
    expect(listed).toMatchObject({ user_id: b.id, owner: b.username });
    const onlyB = await t.request("GET", `/api/admin/api-keys?user_id=${b.id}`, { token: admin });
    expect(onlyB.body.data.map((k: { id: string }) => k.id)).toEqual([kb.id]);
  });
});

describe("quotas", () => {
  it("ten uploads at once past a user's quota: those that fit are stored, the rest get 507, usage equals the bytes stored", async () => {
    const size = 1000;
    const u = await t.createUser({ permissions: Permission.FILE_SHARE });
    const set = await t.request("PUT", `/api/admin/users/${u.id}`, {
      token: admin,
      body: { quota_bytes: 5500 },
    });
    expect(set.body.data.quota_bytes).toBe(5500);
    const token = (await login(u.username, u.password)).body.data.token as string;
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        t.request("PUT", `/api/upload-direct/part-${i}.bin`, {
          token,
          rawBody: new Uint8Array(size).fill(i),
          headers: { "content-type": "application/octet-stream", "content-length": String(size) },
        }),
      ),
    );
    const stored = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status === 507);
    expect(stored).toHaveLength(5);
    expect(refused).toHaveLength(5);
    for (const r of refused) {
      expect(r.body.error).toBe("insufficient_storage");
      expect(r.body.message).toMatch(/^Insufficient storage space: file size \(.*\) exceeds remaining space/);
    }
    const me = await t.request("GET", "/api/account", { token });
    const files = await t.request("GET", "/api/files", { token });
    const bytes = (files.body.data.files as Array<{ size: number }>).reduce((sum, f) => sum + f.size, 0);
    expect(files.body.data.files).toHaveLength(5);
    expect(me.body.data.used_bytes).toBe(bytes);
    expect(bytes).toBe(5 * size);
  });

  it("counts a form upload of unknown length at its commit, and a quota on one storage config", async () => {
    const u = await t.createUser({ permissions: Permission.FILE_SHARE });
    const configs = await t.request("GET", "/api/s3-configs", { token: admin });
    const configId = (configs.body.data as Array<{ id: string; is_default: unknown }>)[0]!.id;
    await t.request("PUT", `/api/admin/users/${u.id}`, {
      token: admin,
      body: { storage_quotas: [{ storage_config_id: configId, quota_bytes: 1500 }] },
    });
    const token = (await login(u.username, u.password)).body.data.token as string;
    const form = (name: string, bytes: number) => {
      const body = new FormData();
      body.append("file", new Blob([new Uint8Array(bytes)]), name);
      return t.request("POST", "/api/upload", { token, rawBody: body });
    };
    expect((await form("a.bin", 1000)).status).toBe(201);
    const second = await form("b.bin", 1000);
    expect(second.status).toBe(507);
    const me = await t.request("GET", "/api/account", { token });
    expect(me.body.data.used_bytes).toBe(1000);
    expect(me.body.data.storage_quotas).toEqual([
      { storage_config_id: configId, quota_bytes: 1500, used_bytes: 1000 },
    ]);
    // The refused upload left nothing behind: no share, no pending row.
    const rows = await t.ctx.db.selectFrom("files").select("id").where("owner_id", "=", u.id).execute();
    expect(rows).toHaveLength(1);
  });
});
