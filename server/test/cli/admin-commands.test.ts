/**
 * `clipshare-server reset-admin-password` and `create-api-key`, run as real child processes
 * against the database of a running ClipShare (SQLite, or PostgreSQL with
 * CLIPSHARE_TEST_DB=postgres), checked through that server's API and WebDAV.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ALL_PERMISSIONS, Permission } from "@clipshare/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, serverEnv } from "../support/cli";
import { ADMIN_PASSWORD, ADMIN_USERNAME, createTestApp, type TestApp } from "../support/test-app";

/** Each test runs the command several times, a second or more each on a busy machine. */
const CLI_TIMEOUT = { timeout: 120_000 };

let t: TestApp;
let env: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  env = serverEnv(t);
});
afterAll(() => t.close());

const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
const propfind = (authorization: string) =>
  t.request("PROPFIND", "/dav/", { headers: { authorization, depth: "0" } });
const keyNamed = async (name: string) => {
  const key = (await t.ctx.apiKeys.list("all")).find((k) => k.name === name);
  if (!key) throw new Error(`no key ${name}`);
  return key;
};
const login = (password: string, ip: string) =>
  t.request("POST", "/api/admin/login", {
    body: { username: ADMIN_USERNAME, password },
    headers: { "x-forwarded-for": ip },
  });

describe("command line", CLI_TIMEOUT, () => {
  it("help lists every command and exits 0; a wrong command line exits 2 and names the problem", async () => {
    const help = await runCli(["help"], env);
    expect(help.code).toBe(0);
    for (const name of ["reset-admin-password", "create-api-key", "backup", "restore"]) {
      expect(help.stdout).toContain(name);
    }
    const unknown = await runCli(["frobnicate"], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown command "frobnicate"');
    const badOption = await runCli(["reset-admin-password", "--user", "admin"], env);
    expect(badOption.code).toBe(2);
    expect(badOption.stderr).toContain("--user");
    expect((await runCli([], env)).code).toBe(2);
  });

  it("refuses a DATA_DIR that holds no ClipShare database, and creates nothing there", async () => {
    const empty = mkdtempSync(path.join(os.tmpdir(), "clipshare-cli-empty-"));
    try {
      const res = await runCli(["reset-admin-password"], { DATA_DIR: empty });
      expect(res.code).toBe(1);
      expect(res.stderr).toContain("No ClipShare database at");
      expect(readdirSync(empty)).toEqual([]);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe("reset-admin-password", CLI_TIMEOUT, () => {
  it("prints a new password that logs in; old tokens, the old password and cached WebDAV logins stop working", async () => {
    const oldToken = await t.adminToken();
    expect((await t.request("GET", "/api/admin/api-keys", { token: oldToken })).status).toBe(200);
    // WebDAV caches a proven password for a minute: this login is now in that cache.
    expect((await propfind(basic(ADMIN_USERNAME, ADMIN_PASSWORD))).status).toBe(207);
    // Earlier wrong guesses from some address must not lock the owner out of the new password.
    for (let i = 0; i < 5; i++) expect((await login(`wrong-${i}`, "10.9.9.9")).status).toBe(401);
    expect((await login("wrong-again", "10.9.9.9")).status).toBe(429);

    const res = await runCli(["reset-admin-password"], env);
    expect(res.code, res.stderr).toBe(0);
    const password = /New password for administrator "admin": (\S+)/.exec(res.stdout)?.[1];
    expect(password).toMatch(/^[A-Za-z0-9]{20}$/);

    expect((await t.request("GET", "/api/admin/api-keys", { token: oldToken })).status).toBe(401);
    expect((await propfind(basic(ADMIN_USERNAME, ADMIN_PASSWORD))).status).toBe(401);
    expect((await login(ADMIN_PASSWORD, "10.9.9.10")).status).toBe(401);
    const fresh = await login(password!, "10.9.9.9");
    expect(fresh.status, fresh.text).toBe(200);
    expect((await t.request("GET", "/api/admin/api-keys", { token: fresh.body.data.token })).status).toBe(
      200,
    );
    expect((await propfind(basic(ADMIN_USERNAME, password!))).status).toBe(207);
  });

  it("an unknown --username fails with exit 1 and changes nothing", async () => {
    const before = await t.ctx.db.selectFrom("users").select("password_hash").executeTakeFirstOrThrow();
    const res = await runCli(["reset-admin-password", "--username", "nobody"], env);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('No administrator named "nobody"');
    expect(res.stdout).toBe("");
    const after = await t.ctx.db.selectFrom("users").select("password_hash").executeTakeFirstOrThrow();
    expect(after.password_hash).toBe(before.password_hash);
  });
  it("with several administrators asks for --username, then resets only that one", async () => {
    const now = new Date().toISOString();
    const before = await t.ctx.db.selectFrom("users").select("password_hash").executeTakeFirstOrThrow();
    await t.ctx.db
      .insertInto("users")
      .values({ id: "second-admin", username: "ops", password_hash: "x", created_at: now, updated_at: now })
      .execute();
    const ambiguous = await runCli(["reset-admin-password"], env);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toContain(
      "Several administrators exist (admin, ops); choose one with --username",
    );

    const res = await runCli(["reset-admin-password", "--username", "ops"], env);
    expect(res.code, res.stderr).toBe(0);
    const password = /New password for administrator "ops": (\S+)/.exec(res.stdout)?.[1];
    const ops = await t.request("POST", "/api/admin/login", { body: { username: "ops", password } });
    expect(ops.status, ops.text).toBe(200);
    const first = await t.ctx.db
      .selectFrom("users")
      .select("password_hash")
      .where("username", "=", ADMIN_USERNAME)
      .executeTakeFirstOrThrow();
    expect(first.password_hash).toBe(before.password_hash);
  });
});

describe("create-api-key", CLI_TIMEOUT, () => {
  it("prints a key that works on the API with exactly its permissions, base path and expiry", async () => {
    const res = await runCli(
      [
        "create-api-key",
        "--name",
        "cli-key",
        "--permissions",
        "text,mount_view",
        "--base-path",
        "/docs",
        "--expires",
        "30d",
      ],
      env,
    );
    expect(res.code, res.stderr).toBe(0);
    const key = /^Key: (\S+)$/m.exec(res.stdout)?.[1];
    expect(key).toBeTruthy();
    expect(res.stdout).toContain("permissions: TEXT, MOUNT_VIEW");

    const info = await t.request("GET", "/api/test/api-key", { apiKey: key });
    expect(info.status, info.text).toBe(200);
    expect(info.body.data.permission_mask).toBe(Permission.TEXT | Permission.MOUNT_VIEW);
    expect(info.body.data.key_info).toMatchObject({ name: "cli-key", basic_path: "/docs" });
    const expires = Date.parse((await keyNamed("cli-key")).expires_at ?? "");
    expect(Math.abs(expires - (Date.now() + 30 * 86400_000))).toBeLessThan(120_000);
    const paste = await t.request("POST", "/api/paste", { apiKey: key, body: { content: "from a cli key" } });
    expect(paste.status, paste.text).toBe(201);
    const upload = await t.request("PUT", "/api/upload-direct/x.txt", { apiKey: key, rawBody: "x" });
    expect(upload.status).toBe(403);
  });

  it("--quiet prints only the key; 'never' does not expire", async () => {
    const res = await runCli(
      ["create-api-key", "--name", "quiet-key", "--permissions", "all", "--expires", "never", "--quiet"],
      env,
    );
    expect(res.code, res.stderr).toBe(0);
    const key = res.stdout.trim();
    expect(key).toMatch(/^[A-Za-z0-9]{32}$/);
    const info = await t.request("GET", "/api/test/api-key", { apiKey: key });
    expect(info.body.data.key_info).toMatchObject({ name: "quiet-key" });
    expect((await keyNamed("quiet-key")).expires_at).toBeNull();
    expect(info.body.data.permission_mask).toBe(ALL_PERMISSIONS);
  });

  it("follows the API's rules: a taken name fails (exit 1), bad options are usage errors (exit 2)", async () => {
    const admin = await t.ctx.db.selectFrom("users").select("id").executeTakeFirstOrThrow();
    await t.ctx.apiKeys.create({ name: "taken-name", permissions: Permission.TEXT }, admin.id);
    const taken = await runCli(["create-api-key", "--name", "taken-name"], env);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain("Key name already exists");

    const badPath = await runCli(["create-api-key", "--name", "bad-path", "--base-path", "/a/../b"], env);
    expect(badPath.code).toBe(1);
    expect(badPath.stderr).toContain("Base path may not contain . or .. segments");

    const past = await runCli(["create-api-key", "--name", "past", "--expires", "2001-01-01"], env);
    expect(past.code).toBe(1);
    expect(past.stderr).toContain("Expiry time must be in the future");

    const unknown = await runCli(["create-api-key", "--name", "x", "--permissions", "text,fly"], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown permission "FLY"');
    expect((await runCli(["create-api-key"], env)).stderr).toContain("--name is required");

    const names = (await t.ctx.apiKeys.list("all")).map((k) => k.name);
    expect(names).not.toContain("bad-path");
    expect(names).not.toContain("past");
  });
});
