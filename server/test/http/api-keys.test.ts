import { ALL_PERMISSIONS, Permission } from "@clipshare/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: "true" });
  token = await t.adminToken();
});
afterAll(async () => t.close());

const create = (body: unknown) => t.request("POST", "/api/admin/api-keys", { token, body });

describe("API key management", () => {
  it("creates a key, shows it in full once, lists it masked and stores only a keyed hash", async () => {
    const res = await create({
      name: "ci-bot",
      permissions: Permission.TEXT | Permission.FILE_SHARE,
      expires_at: "never",
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ code: 201, success: true });
    const key: string = res.body.data.key;
    expect(key).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(res.body.data).toMatchObject({
      name: "ci-bot",
      permissions: 3,
      role: "GENERAL",
      basic_path: "/",
      is_guest: 0,
      expires_at: null,
      key_masked: `${key.slice(0, 6)}...`,
      permission_names: ["TEXT", "FILE_SHARE"],
    });

    const list = await t.request("GET", "/api/admin/api-keys", { token });
    expect(list.status).toBe(200);
    const listed = list.body.data.find((k: { id: string }) => k.id === res.body.data.id);
    expect(listed.key_masked).toBe(`${key.slice(0, 6)}...`);
    expect(JSON.stringify(list.body)).not.toContain(key);

    const row = await t.ctx.db
      .selectFrom("api_keys")
      .selectAll()
      .where("id", "=", res.body.data.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(key);
  });

  it("defaults: expiry one day ahead, role GENERAL, base path /", async () => {
    const res = await create({ name: "defaults" });
    expect(res.status).toBe(201);
    const expires = Date.parse(res.body.data.expires_at);
    expect(expires - Date.now()).toBeGreaterThan(23 * 3600 * 1000);
    expect(expires - Date.now()).toBeLessThan(25 * 3600 * 1000);
    expect(res.body.data.permissions).toBe(0);
  });

  it("accepts a custom key, the permission flag object and a base path, and normalizes it", async () => {
    const res = await create({
      name: "custom",
      custom_key: "my-Custom_key-123",
      permissions: { mount_view: true, webdav_read: true },
      basic_path: "/team/docs/",
      is_guest: true,
      role: "GUEST",
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      key: "my-Custom_key-123",
      permissions: Permission.MOUNT_VIEW | Permission.WEBDAV_READ,
      basic_path: "/team/docs",
      is_guest: 1,
      role: "GUEST",
    });
  });

  it.each([
    [{ name: "" }, "Key name cannot be empty"],
    [{ name: "x".repeat(65) }, "Key name may be at most 64 characters"],
    [
      { name: "bad-key", custom_key: "has space!" },
      "Key may only contain letters, digits, hyphen and underscore",
    ],
    [{ name: "short-key", custom_key: "abc" }, "Custom key must be 8-128 characters"],
    [
      { name: "bad-perm", permissions: -1 },
      "Permission value must be a non-negative integer made of known permission bits",
    ],
    [
      { name: "bad-perm2", permissions: 8 },
      "Permission value must be a non-negative integer made of known permission bits",
    ],
    [{ name: "bad-perm3", permissions: "3" }, null],
    [{ name: "bad-expiry", expires_at: "tomorrow-ish" }, "Invalid expiry time"],
    [{ name: "past-expiry", expires_at: "2001-01-01T00:00:00Z" }, "Expiry time must be in the future"],
    [{ name: "bad-path", basic_path: "no-slash" }, "Base path must start with /"],
    [{ name: "bad-path2", basic_path: "/a/../b" }, "Base path may not contain . or .. segments"],
    [{ name: "bad-role", role: "ROOT" }, null],
  ])("rejects invalid input %j with 400", async (body, message) => {
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    if (message) expect(res.body.message).toBe(message);
    else expect(res.body.message.length).toBeGreaterThan(0);
  });

  describe("beside a key named dup", () => {
    beforeAll(async () => {
      expect((await create({ name: "dup", custom_key: "duplicate-key-1" })).status).toBe(201);
    });

    it("refuses a duplicate name with 409 api_key_name_taken", async () => {
      const byName = await create({ name: "dup" });
      expect(byName.status).toBe(409);
      expect(byName.body.error).toBe("api_key_name_taken");
    });

    it("refuses a duplicate custom key with 409", async () => {
      const byKey = await create({ name: "dup2", custom_key: "duplicate-key-1" });
      expect(byKey.status).toBe(409);
    });
  });

  it("an update sets name, permissions, base path and expiry, and the key's calls carry the new mask", async () => {
    const created = await create({ name: "editable", permissions: 1 });
    const id = created.body.data.id;
    const upd = await t.request("PUT", `/api/admin/api-keys/${id}`, {
      token,
      body: { name: "edited", permissions: ALL_PERMISSIONS, basic_path: "/x", expires_at: null },
    });
    expect(upd.status).toBe(200);
    expect(upd.body.data).toMatchObject({
      name: "edited",
      permissions: ALL_PERMISSIONS,
      basic_path: "/x",
      expires_at: null,
    });

    const key = created.body.data.key;
    const info = await t.request("GET", "/api/test/api-key", { apiKey: key });
    expect(info.body.data.permission_mask).toBe(ALL_PERMISSIONS);
  });

  it("updating an unknown id is 404", async () => {
    expect((await t.request("PUT", "/api/admin/api-keys/nope", { token, body: { name: "z" } })).status).toBe(
      404,
    );
  });

  it("a deleted key is refused with 401", async () => {
    const created = await create({ name: "deletable", permissions: 1 });
    const { id, key } = created.body.data;
    expect((await t.request("DELETE", `/api/admin/api-keys/${id}`, { token })).status).toBe(200);
    expect((await t.request("GET", "/api/test/api-key", { apiKey: key })).status).toBe(401);
  });

  it("deleting a key a second time is 404", async () => {
    const { id } = (await create({ name: "twice", permissions: 1 })).body.data;
    expect((await t.request("DELETE", `/api/admin/api-keys/${id}`, { token })).status).toBe(200);
    expect((await t.request("DELETE", `/api/admin/api-keys/${id}`, { token })).status).toBe(404);
  });

  it("needs a signed-in account: anonymous gets 401, an API key (even with every bit) gets 403", async () => {
    expect((await t.request("GET", "/api/admin/api-keys")).status).toBe(401);
    const { key } = await t.createApiKey(ALL_PERMISSIONS);
    const res = await t.request("GET", "/api/admin/api-keys", { apiKey: key });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe("account_required");
  });
});

describe("GET /api/test/api-key", () => {
  it("returns the flag object, the mask and key_info", async () => {
    const { id, key } = await t.createApiKey(Permission.TEXT | Permission.MOUNT_VIEW, {
      basic_path: "/docs",
    });
    const res = await t.request("GET", "/api/test/api-key", { apiKey: key });
    expect(res.status).toBe(200);
    expect(res.body.data.permissions).toEqual({
      text: true,
      file_share: false,
      file: false,
      mount_view: true,
      mount_upload: false,
      mount_copy: false,
      mount_rename: false,
      mount_delete: false,
      webdav_read: false,
      webdav_manage: false,
    });
    expect(res.body.data.permission_mask).toBe(257);
    expect(res.body.data.key_info).toMatchObject({ id, basic_path: "/docs" });
  });

  it("records the key's last use", async () => {
    const { id, key } = await t.createApiKey(Permission.TEXT);
    expect((await t.request("GET", "/api/test/api-key", { apiKey: key })).status).toBe(200);
    const row = await t.ctx.db
      .selectFrom("api_keys")
      .select("last_used")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row.last_used).not.toBeNull();
  });

  it("also accepts the X-Custom-Auth-Key header", async () => {
    const { key } = await t.createApiKey(Permission.TEXT);
    const res = await t.request("GET", "/api/test/api-key", { headers: { "x-custom-auth-key": key } });
    expect(res.status).toBe(200);
  });

  it("refuses unknown and expired keys with 401 api_key_invalid", async () => {
    const unknown = await t.request("GET", "/api/test/api-key", {
      apiKey: "definitely-not-a-key",
      headers: { "x-forwarded-for": "10.9.0.1" },
    });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error).toBe("api_key_invalid");

    const { id, key } = await t.createApiKey(Permission.TEXT);
    await t.ctx.db
      .updateTable("api_keys")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("id", "=", id)
      .execute();
    const expired = await t.request("GET", "/api/test/api-key", {
      apiKey: key,
      headers: { "x-forwarded-for": "10.9.0.2" },
    });
    expect(expired.status).toBe(401);
    expect(expired.body.error).toBe("api_key_invalid");
    const listed = (await t.request("GET", "/api/admin/api-keys", { token })).body.data.find(
      (k: { id: string }) => k.id === id,
    );
    expect(listed.is_expired).toBe(true);
  });

  it("rate-limits guessing like every key check: the 11th failure from one IP within 15 minutes gets 429", async () => {
    const headers = { "x-forwarded-for": "10.9.9.9" };
    for (let i = 0; i < 10; i++) {
      expect((await t.request("GET", "/api/test/api-key", { apiKey: `guess-${i}`, headers })).status).toBe(
        401,
      );
    }
    const blocked = await t.request("GET", "/api/test/api-key", { apiKey: "guess-11", headers });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("for an admin token answers with every permission and is_admin", async () => {
    const res = await t.request("GET", "/api/test/api-key", { token });
    expect(res.status).toBe(200);
    expect(res.body.data.is_admin).toBe(true);
    expect(res.body.data.permission_mask).toBe(ALL_PERMISSIONS);
  });
});
