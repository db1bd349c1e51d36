/**
 * Upgrading an installation of the release before accounts: a database at migration 0013
 * with its administrator (and a signed-in token), two API keys, pastes made by the
 * administrator, by a key (`apikey:<id>`) and in 0.7.3's spelling (the bare key id), and a
 * file share. After the upgrade the administrator signs in and their old token still works,
 * the keys keep exactly their rights and their own shares, everything belongs to the first
 * administrator, and a 0.7.3 client's calls answer as they did. SQLite or PostgreSQL, as the
 * environment picks.
 */
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Permission } from "@clipshare/shared";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../src/auth/passwords";
import { loadConfig } from "../../src/config";
import { keyCheck, untyped } from "../../src/db/backup/format";
import { loadBackup, openBackup } from "../../src/db/backup/load";
import {
  appliedMigrations,
  knownMigrations,
  migrateOnly,
  migrateTo,
  migrateToLatest,
  nowIso,
} from "../../src/db/database";
import { ApiKeyService } from "../../src/domain/api-keys/api-key-service";
import { sha256Hex } from "../../src/lib/crypto";
import { legacyLocalStorage, scratchDatabase } from "../support/legacy-database";
import { fileRow, pasteRow } from "../support/rows";
import { createTestApp, type TestApp } from "../support/test-app";

const SECRET_KEY = "upgrade-test-secret-key-0123456789abcdef";
const ADMIN = { id: "admin-before-accounts", username: "boss", password: "boss-password-1" };
const OLD_TOKEN = "token-issued-before-the-upgrade";
const KEYS = {
  text: { id: "key-text", key: "text-key-before-upgrade", permissions: Permission.TEXT, base: "/" },
  mount: {
    id: "key-mount",
    key: "mount-key-before-upgrade",
    permissions: Permission.MOUNT_VIEW | Permission.FILE_SHARE,
    base: "/docs",
  },
};

let t: TestApp;

/** Rows of 0.7.3 had no owner column. */
function withoutOwner<R extends { owner_id: string | null }>(row: R): Omit<R, "owner_id"> {
  const { owner_id: _, ...old } = row;
  return old;
}
let dataDir: string;
let dropPg: (() => Promise<void>) | undefined;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "clipshare-accounts-upgrade-"));
  const { db, pg } = await scratchDatabase(dataDir);
  dropPg = pg?.drop;
  const env = { DATA_DIR: dataDir, SECRET_KEY, ...(pg ? { DATABASE_URL: pg.url } : {}) };
  await migrateTo(db, "0013-file-requests");
  const now = nowIso();
  const later = new Date(Date.now() + 86_400_000).toISOString();
  // What the previous release wrote: its tables and columns, no accounts.
  const old = untyped(db);
  await old
    .insertInto("admins")
    .values({
      id: ADMIN.id,
      username: ADMIN.username,
      password_hash: await hashPassword(ADMIN.password),
      created_at: now,
      updated_at: now,
    })
    .execute();
  await old
    .insertInto("admin_tokens")
    .values({ token_hash: sha256Hex(OLD_TOKEN), admin_id: ADMIN.id, expires_at: later, created_at: now })
    .execute();
  const hasher = new ApiKeyService(db, loadConfig({ ...env, LOG_LEVEL: "silent" }).secretKey);
  for (const k of Object.values(KEYS)) {
    await old
      .insertInto("api_keys")
      .values({
        id: k.id,
        name: k.id,
        key_hash: hasher.hashKey(k.key),
        key_prefix: k.key.slice(0, 6),
        permissions: k.permissions,
        role: "GENERAL",
        basic_path: k.base,
        is_guest: 0,
        expires_at: null,
        last_used: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
  const paste = (slug: string, createdBy: string) =>
    withoutOwner(pasteRow(slug, createdBy, { created_at: now, updated_at: now }));
  await old
    .insertInto("pastes")
    .values([
      paste("by-admin", ADMIN.id),
      paste("by-key", `apikey:${KEYS.text.id}`),
      paste("bare-key", KEYS.text.id),
    ])
    .execute();
  const files = path.join(dataDir, "files");
  mkdirSync(path.join(files, ".clipshare-shares"), { recursive: true });
  writeFileSync(path.join(files, ".clipshare-shares", "f1-old.txt"), "old bytes");
  const configId = randomUUID();
  await old
    .insertInto("storage_configs")
    .values(legacyLocalStorage({ id: configId, root: files, adminId: ADMIN.id, now, hostKey: true }))
    .execute();
  await old
    .insertInto("files")
    .values(
      withoutOwner(
        fileRow("old-file", `apikey:${KEYS.mount.id}`, {
          id: "file-by-key",
          filename: "old.txt",
          storage_config_id: configId,
          storage_path: ".clipshare-shares/f1-old.txt",
          size: 9,
          delete_object_with_share: 1,
          created_at: now,
          updated_at: now,
        }),
      ),
    )
    .execute();
  await db.destroy();
  t = await createTestApp(env);
});
afterAll(async () => {
  await t?.close();
  await dropPg?.();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("upgrading a database of the release before accounts", () => {
  it("keeps the administrator: the old password signs in and the old token still works", async () => {
    const login = await t.request("POST", "/api/admin/login", {
      body: { username: ADMIN.username, password: ADMIN.password },
    });
    expect(login.status).toBe(200);
    expect(login.body.data.role).toBe("admin");
    expect((await t.request("GET", "/api/test/admin-token", { token: OLD_TOKEN })).status).toBe(200);
    const sessions = await t.request("GET", "/api/account/sessions", { token: OLD_TOKEN });
    expect(sessions.body.data.sessions.some((s: { current: boolean }) => s.current)).toBe(true);
  });

  it("gives every key to the first administrator with exactly the rights it had", async () => {
    for (const k of Object.values(KEYS)) {
      const check = await t.request("GET", "/api/test/api-key", { apiKey: k.key });
      expect(check.status).toBe(200);
      expect(check.body.data).toMatchObject({ permission_mask: k.permissions, basic_path: k.base });
      expect(check.body.data.user).toMatchObject({ id: ADMIN.id, role: "admin" });
    }
  });

  it("lets each key see its own shares (both spellings) and nothing else, as before", async () => {
    const pastes = await t.request("GET", "/api/pastes", { apiKey: KEYS.text.key });
    expect(pastes.body.data.map((p: { slug: string }) => p.slug).sort()).toEqual(["bare-key", "by-key"]);
    const files = await t.request("GET", "/api/files", { apiKey: KEYS.mount.key });
    expect(files.body.data.files.map((f: { slug: string }) => f.slug)).toEqual(["old-file"]);
  });

  it("makes the first administrator the owner of every share, and the links keep working", async () => {
    const token = await t.request("POST", "/api/admin/login", {
      body: { username: ADMIN.username, password: ADMIN.password },
    });
    const list = await t.request("GET", "/api/pastes?limit=50", { token: token.body.data.token });
    expect(list.body.data).toHaveLength(3);
    for (const row of list.body.data)
      expect(row).toMatchObject({ owner_id: ADMIN.id, owner_name: ADMIN.username });
    const raw = await t.app.request("/api/raw/by-key");
    expect(await raw.text()).toBe("content of by-key");
    const download = await t.app.request("/api/file-download/old-file");
    expect(await download.text()).toBe("old bytes");
  });

  it("still answers a 0.7.3 client as the administrator", async () => {
    // 0.7.3's web app: log in, check the token, list pastes with page/limit, read settings.
    const login = await t.request("POST", "/api/admin/login", {
      body: { username: ADMIN.username, password: ADMIN.password },
    });
    const token = login.body.data.token as string;
    expect(typeof token).toBe("string");
    expect((await t.request("GET", "/api/test/admin-token", { token })).body.success).toBe(true);
    const pastes = await t.request("GET", "/api/pastes?page=1&limit=10", { token });
    expect(pastes.body).toMatchObject({ code: 200, success: true });
    expect((await t.request("GET", "/api/admin/api-keys", { token })).body.data).toHaveLength(2);
    expect((await t.request("GET", "/api/admin/system-settings", { token })).status).toBe(200);
    // The key header 0.7.3 clients send.
    const custom = await t.request("GET", "/api/test/api-key", {
      headers: { "x-custom-auth-key": KEYS.text.key },
    });
    expect(custom.body.data.permission_mask).toBe(Permission.TEXT);
  });
});

describe("restoring a backup of the release before accounts", () => {
  it("loads its admins and admin_tokens tables, then upgrades them into users and sessions", async () => {
    const secret = loadConfig({ DATA_DIR: dataDir, SECRET_KEY, LOG_LEVEL: "silent" }).secretKey;
    const migrations = knownMigrations().filter((m) => m <= "0013-file-requests");
    const now = nowIso();
    const lines = [
      JSON.stringify({
        format: "clipshare-backup",
        version: 1,
        schema: "0013-file-requests",
        migrations,
        dialect: "sqlite",
        created_at: now,
        key_check: keyCheck(secret),
        contents: "database content only",
      }),
      JSON.stringify({
        table: "admins",
        columns: ["id", "username", "password_hash", "created_at", "updated_at"],
      }),
      JSON.stringify(["restored-admin", "restored", await hashPassword("restored-pw-1"), now, now]),
      JSON.stringify({
        table: "admin_tokens",
        columns: ["token_hash", "admin_id", "expires_at", "created_at"],
      }),
      JSON.stringify([sha256Hex("restored-token"), "restored-admin", "2999-01-01T00:00:00.000Z", now]),
      JSON.stringify({ end: true, rows: { admins: 1, admin_tokens: 1 } }),
    ];
    const target = mkdtempSync(path.join(os.tmpdir(), "clipshare-restore-"));
    const { db, pg } = await scratchDatabase(target);
    try {
      const result = await loadBackup(
        db,
        await openBackup(
          (async function* () {
            yield* lines;
          })(),
        ),
        {
          force: false,
        },
      );
      expect(result.upgraded).toContain("0014-accounts");
      const user = await db.selectFrom("users").selectAll().executeTakeFirstOrThrow();
      expect(user).toMatchObject({ id: "restored-admin", username: "restored", role: "admin" });
      const session = await db.selectFrom("sessions").selectAll().executeTakeFirstOrThrow();
      expect(session.user_id).toBe("restored-admin");
    } finally {
      await db.destroy();
      await pg?.drop();
      rmSync(target, { recursive: true, force: true });
    }
  });
});

describe("a database that ran later-numbered migrations before accounts", () => {
  it("runs 0014-accounts after them, and gives existing collections their owner", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "clipshare-unordered-"));
    const { db, pg } = await scratchDatabase(dir);
    try {
      // main before accounts landed: 0020 and later applied, none of the accounts range (0014-0019)
      // nor what came after accounts and needs its users table.
      const afterAccounts = new Set(["0022-user-notification-defaults"]);
      await migrateOnly(
        db,
        knownMigrations().filter((m) => (m < "0014" || m >= "0020") && !afterAccounts.has(m)),
      );
      const old = untyped(db);
      const now = nowIso();
      await old
        .insertInto("admins")
        .values({
          id: "first-admin",
          username: "first",
          password_hash: "x",
          created_at: now,
          updated_at: now,
        })
        .execute();
      // A collection made before owner_id existed (0020 as it first ran had no such column).
      await sql`drop index collections_owner`.execute(db);
      await sql`alter table collections drop column owner_id`.execute(db);
      await old
        .insertInto("collections")
        .values({
          id: "c1",
          slug: "c1",
          title: null,
          remark: null,
          password_hash: null,
          expires_at: null,
          max_views: null,
          views: 0,
          no_log: 0,
          created_by: "first-admin",
          created_at: now,
          updated_at: now,
        })
        .execute();
      const accountsRange = knownMigrations().filter((m) => m >= "0014" && m < "0020");
      expect(accountsRange[0]).toBe("0014-accounts");
      expect(await migrateToLatest(db)).toEqual([...accountsRange, ...afterAccounts]);
      expect(await appliedMigrations(db)).toEqual(knownMigrations());
      const row = await db.selectFrom("collections").select("owner_id").executeTakeFirstOrThrow();
      expect(row.owner_id).toBe("first-admin");
    } finally {
      await db.destroy();
      await pg?.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
