/**
 * Starting on a database: a new one gets the whole schema, a current one is left as it is
 * (the usual restart, which skips the migrator), one behind gets exactly what it lacks, and
 * one written by a newer ClipShare is refused rather than used. SQLite by default, PostgreSQL
 * with CLIPSHARE_TEST_DB=postgres.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPgDatabase, testDialect } from "../../test/support/test-app";
import { type Db, knownMigrations, migrateTo, migrateToLatest, openDatabase } from "./database";

let dir: string;
let db: Db;
let dropPg: (() => Promise<void>) | undefined;

beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "clipshare-migrations-"));
  if (testDialect() === "postgres") {
    const pg = await createPgDatabase();
    dropPg = pg.drop;
    db = openDatabase({ dialect: "postgres", url: pg.url });
  } else {
    db = openDatabase({ dialect: "sqlite", file: path.join(dir, "clipshare.db") });
  }
});

afterEach(async () => {
  await db.destroy();
  await dropPg?.();
  dropPg = undefined;
  rmSync(dir, { recursive: true, force: true });
});

const appliedNames = async () =>
  (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db)).rows.map(
    (r) => r.name,
  );

describe("migrations at start", () => {
  it("give a new database every migration, in order, and a restart none", async () => {
    expect(await migrateToLatest(db)).toEqual(knownMigrations());
    expect(await appliedNames()).toEqual(knownMigrations());
    expect(await migrateToLatest(db)).toEqual([]);
    expect(await appliedNames()).toEqual(knownMigrations());
  });

  it("give a database one migration behind exactly the one it lacks", async () => {
    const known = knownMigrations();
    await migrateTo(db, known.at(-2)!);
    expect(await migrateToLatest(db)).toEqual([known.at(-1)]);
    expect(await appliedNames()).toEqual(known);
  });

  it("apply a migration that landed after others with higher numbers were applied", async () => {
    // 0021 comes from a branch merged after 0025 and 0030 had run on this database.
    await migrateTo(db, "0020-collections");
    const ranAhead = ["0025-public-browsing", "0030-index-folder-parents"];
    for (const name of ranAhead) {
      const migration = (await import(`./migrations/${name}.ts`)) as { up(db: Db): Promise<void> };
      await migration.up(db);
      await sql`insert into kysely_migration (name, timestamp) values (${name}, ${new Date().toISOString()})`.execute(
        db,
      );
    }
    const lacking = knownMigrations().filter((n) => n > "0020-collections" && !ranAhead.includes(n));
    expect(lacking[0]).toBe("0021-notifications");
    expect(await migrateToLatest(db)).toEqual(lacking);
    expect(await appliedNames()).toEqual(knownMigrations());
  });

  it("refuse a database that a newer ClipShare has migrated further", async () => {
    await migrateToLatest(db);
    await sql`insert into kysely_migration (name, timestamp) values ('9999-from-a-newer-release', '2099-01-01T00:00:00.000Z')`.execute(
      db,
    );
    await expect(migrateToLatest(db)).rejects.toThrow(/9999-from-a-newer-release/);
  });
});

describe("0008: one upload-session model", () => {
  it("renames the per-target session kinds and keeps each session's target", async () => {
    await migrateTo(db, "0007-mount-roots");
    const old = [
      ["a", "share-multipart", "f1", null],
      ["b", "share-multipart-completing", "f2", null],
      ["c", "fs-multipart", null, "m1"],
      ["d", "fs-presign", null, "m1"],
      ["e", "presign", "f3", null],
    ] as const;
    for (const [id, kind, fileId, mountId] of old) {
      await sql`insert into upload_sessions (id, kind, storage_config_id, mount_id, storage_path, upload_id, file_id, created_by, expires_at, created_at)
        values (${id}, ${kind}, 'c1', ${mountId}, 'p', 'u', ${fileId}, 'admin', '2099-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`.execute(
        db,
      );
    }
    await migrateToLatest(db);
    const rows = (
      await sql<{ id: string; kind: string; file_id: string | null; mount_id: string | null }>`
        select id, kind, file_id, mount_id from upload_sessions order by id`.execute(db)
    ).rows;
    expect(rows).toEqual([
      { id: "a", kind: "multipart", file_id: "f1", mount_id: null },
      { id: "b", kind: "multipart-completing", file_id: "f2", mount_id: null },
      { id: "c", kind: "multipart", file_id: null, mount_id: "m1" },
      { id: "d", kind: "presign", file_id: null, mount_id: "m1" },
      { id: "e", kind: "presign", file_id: "f3", mount_id: null },
    ]);
  });
});

describe("0031: folder totals", () => {
  it("gives an existing index each folder's figures and the mount root's", async () => {
    await migrateTo(db, "0030-index-folder-parents");
    await sql`insert into mounts (id, name, storage_type, mount_path, created_by, created_at, updated_at)
      values ('m1', 'm', 'LOCAL', '/m', 'admin', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`.execute(
      db,
    );
    await sql`insert into mount_index_state (mount_id, complete) values ('m1', 1)`.execute(db);
    const entries = [
      ["top.txt", "", "file", 7],
      ["a", "", "dir", 0],
      ["a/one.txt", "a", "file", 10],
      ["a/two.txt", "a", "file", 5],
      ["a/b", "a", "dir", 0],
      ["a/b/deep.bin", "a/b", "file", 100],
    ] as const;
    for (const [p, parent, type, size] of entries) {
      await sql`insert into fs_index (mount_id, path, parent, name, size, type, gen)
        values ('m1', ${p}, ${parent}, ${p.split("/").at(-1)!}, ${size}, ${type}, 1)`.execute(db);
    }
    await migrateToLatest(db);
    const folders = (
      await sql<{ path: string; dir_size: number; dir_files: number; dir_folders: number }>`
        select path, dir_size, dir_files, dir_folders from fs_index where type = 'dir' order by path`.execute(
        db,
      )
    ).rows.map((r) => [r.path, Number(r.dir_size), Number(r.dir_files), Number(r.dir_folders)]);
    expect(folders).toEqual([
      ["a", 15, 2, 1],
      ["a/b", 100, 1, 0],
    ]);
    const root = (
      await sql<{ root_size: number; root_files: number; root_folders: number }>`
        select root_size, root_files, root_folders from mount_index_state`.execute(db)
    ).rows.map((r) => [Number(r.root_size), Number(r.root_files), Number(r.root_folders)]);
    expect(root).toEqual([[7, 1, 1]]);
  });
});
