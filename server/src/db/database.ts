/**
 * Opens the configured database (SQLite by default, PostgreSQL when DATABASE_URL
 * says so) behind one Kysely instance and runs pending migrations.
 */
import { closeSync, openSync } from "node:fs";
import { createRequire } from "node:module";
import SqliteDatabase from "better-sqlite3";
import {
  Kysely,
  type Migration,
  type MigrationProvider,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  sql,
} from "kysely";
import type Pg from "pg";
import type { DatabaseConfig } from "../config";
import { lazyRequire } from "../lib/lazy-require";
import * as initial from "./migrations/0001-initial";
import * as taskAttempts from "./migrations/0002-task-attempts";
import * as uploadSessionParts from "./migrations/0003-upload-session-parts";
import * as shareAccessLog from "./migrations/0004-share-access-log";
import * as e2eEncryption from "./migrations/0005-e2e-encryption";
import * as accessLogPartialIndexes from "./migrations/0006-access-log-partial-indexes";
import * as mountRoots from "./migrations/0007-mount-roots";
import * as uploadSessionKinds from "./migrations/0008-upload-session-kinds";
import * as mountIndex from "./migrations/0009-mount-index";
import * as folderSettings from "./migrations/0011-folder-settings";
import * as sftpHostKey from "./migrations/0012-sftp-host-key";
import * as fileRequests from "./migrations/0013-file-requests";
import * as accounts from "./migrations/0014-accounts";
import * as userQuotas from "./migrations/0015-user-quotas";
import * as secondFactors from "./migrations/0016-second-factors";
import * as passkeys from "./migrations/0017-passkeys";
import * as singleSignOn from "./migrations/0018-single-sign-on";
import * as appPasswords from "./migrations/0019-app-passwords";
import * as collections from "./migrations/0020-collections";
import * as notifications from "./migrations/0021-notifications";
import * as userNotificationDefaults from "./migrations/0022-user-notification-defaults";
import * as publicBrowsing from "./migrations/0025-public-browsing";
import * as indexFolderParents from "./migrations/0030-index-folder-parents";
import * as folderTotals from "./migrations/0031-folder-totals";
import type { Database } from "./schema";

export type Db = Kysely<Database>;
export type Dialect = DatabaseConfig["dialect"];

const migrations: Record<string, Migration> = {
  "0001-initial": initial,
  "0002-task-attempts": taskAttempts,
  "0003-upload-session-parts": uploadSessionParts,
  "0004-share-access-log": shareAccessLog,
  "0005-e2e-encryption": e2eEncryption,
  "0006-access-log-partial-indexes": accessLogPartialIndexes,
  "0007-mount-roots": mountRoots,
  "0008-upload-session-kinds": uploadSessionKinds,
  "0009-mount-index": mountIndex,
  "0011-folder-settings": folderSettings,
  "0012-sftp-host-key": sftpHostKey,
  // 0010 was left unused: the branches that wrote 0011-0013 landed in this order.
  "0013-file-requests": fileRequests,
  "0014-accounts": accounts,
  "0015-user-quotas": userQuotas,
  "0016-second-factors": secondFactors,
  "0017-passkeys": passkeys,
  "0018-single-sign-on": singleSignOn,
  "0019-app-passwords": appPasswords,
  "0020-collections": collections,
  "0021-notifications": notifications,
  "0022-user-notification-defaults": userNotificationDefaults,
  "0025-public-browsing": publicBrowsing,
  "0030-index-folder-parents": indexFolderParents,
  "0031-folder-totals": folderTotals,
};

/** The known migrations, or those of them named in `only`. */
class InlineMigrations implements MigrationProvider {
  constructor(private readonly only: ReadonlySet<string> | null = null) {}
  async getMigrations() {
    if (!this.only) return migrations;
    return Object.fromEntries(Object.entries(migrations).filter(([name]) => this.only!.has(name)));
  }
}

/** The PostgreSQL client library, loaded only when a PostgreSQL database is configured. */
export const loadPg = lazyRequire<typeof Pg>("pg", (pg) => {
  // PostgreSQL returns int8 as strings; our sizes fit in 2^53, so read them as numbers.
  pg.types.setTypeParser(20, (value) => Number(value));
});

/**
 * better-sqlite3's compiled addon, named directly. The server bundle carries the package's
 * JavaScript (no CommonJS loading at start); left to itself, the package would find its addon
 * through `bindings`, which probes a dozen paths derived from its caller's stack trace.
 */
const sqliteAddonPath = () =>
  createRequire(import.meta.url).resolve("better-sqlite3/build/Release/better_sqlite3.node");

export function openDatabase(config: DatabaseConfig): Db {
  if (config.dialect === "sqlite") {
    // Created owner-only before SQLite opens it; SQLite gives the WAL and shared-memory files the same mode.
    if (config.file !== ":memory:") closeSync(openSync(config.file, "a", 0o600));
    const sqlite = new SqliteDatabase(config.file, { nativeBinding: sqliteAddonPath() });
    sqlite.pragma("journal_mode = WAL");
    sqlite.pragma("synchronous = NORMAL");
    sqlite.pragma("busy_timeout = 5000");
    sqlite.pragma("foreign_keys = ON");
    // Statement journals in memory, in 1 KiB pieces. Every write with RETURNING inside a
    // group-committed transaction keeps one; on disk SQLite buffers it in a 64 KiB block per
    // statement, which glibc (with MALLOC_MMAP_THRESHOLD_ set) gave back to the system and
    // faulted in again on every view. Temporary tables and sorts stay in memory too; ours are small.
    sqlite.pragma("temp_store = MEMORY");
    const statements = withStatementCache(sqlite);
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: statements }) });
    sqliteHandles.set(db, { prepare: statements.prepare, transaction: (fn) => sqlite.transaction(fn) });
    return db;
  }
  const pool = new (loadPg().Pool)({ connectionString: config.url, max: 10 });
  // An idle client can be cut off (server restart, failover); without a listener
  // that error would crash the process. The pool replaces the client on next use.
  pool.on("error", (err) => {
    process.emitWarning(`PostgreSQL idle client error: ${err.message}`);
  });
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

/** The SQLite connection behind a database opened here, for writes that run synchronously. */
export interface SqliteHandle {
  /** A prepared statement, from the same cache Kysely's queries use. */
  prepare(sql: string): SqliteDatabase.Statement;
  transaction<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R;
}

const sqliteHandles = new WeakMap<Db, SqliteHandle>();

/**
 * The SQLite connection of `db` (undefined for PostgreSQL or a transaction).
 * Use it only inside `db.connection().execute()`: that holds the lock Kysely's
 * SQLite driver keeps on its one connection, so no transaction of another
 * caller is open on it meanwhile.
 */
export const sqliteHandle = (db: Db): SqliteHandle | undefined => sqliteHandles.get(db);

/**
 * Kysely prepares every query anew; on hot paths (a paste view is one UPDATE)
 * preparing costs as much as running. Statements are reusable, so keep the
 * most recent ones by SQL text.
 */
function withStatementCache(sqlite: SqliteDatabase.Database, capacity = 256) {
  const cache = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = cache.get(sql);
      if (statement) {
        // Refresh its place in the LRU order.
        cache.delete(sql);
      } else {
        statement = sqlite.prepare(sql);
        if (cache.size >= capacity) cache.delete(cache.keys().next().value as string);
      }
      cache.set(sql, statement);
      return statement;
    },
  };
}

export async function migrateToLatest(db: Db): Promise<string[]> {
  if (await isUpToDate(db)) return [];
  return migrateTo(db, null);
}

/**
 * True when exactly the migrations this build knows are applied: the usual start, which then
 * needs neither the migrator's lock nor its reading of the whole schema. Anything else (a new
 * database, pending migrations, one this build does not know) goes through the migrator, which
 * applies or refuses as before.
 */
async function isUpToDate(db: Db): Promise<boolean> {
  const applied = await sql<{ name: string }>`select name from kysely_migration`.execute(db).then(
    (result) => result.rows.map((row) => row.name),
    () => null, // no migration table yet: a new database
  );
  if (!applied) return false;
  const known = new Set(Object.keys(migrations));
  return applied.length === known.size && applied.every((name) => known.has(name));
}

/**
 * Orders applied migration names. Kysely's default, `localeCompare`, loads ICU's collation
 * data on every start of a server with a schema (about 3 MB resident for the life of the
 * process); the names are ASCII, and Kysely orders the known ones by code unit as well.
 */
const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Applies the pending migrations among `only` (null: every known one), in name order; returns the
 * names applied. Branches take numbers from ranges of their own, so a migration may land after one
 * with a higher number has run: it then runs after it (unordered migrations are allowed), and no
 * migration may rely on running before another range's.
 */
export async function migrateOnly(db: Db, only: readonly string[] | null): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: new InlineMigrations(only ? new Set(only) : null),
    nameComparator: byCodeUnit,
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

/** Applies pending migrations up to and including `target` (null: all of them). */
export function migrateTo(db: Db, target: string | null): Promise<string[]> {
  return migrateOnly(db, target === null ? null : knownMigrations().filter((name) => name <= target));
}

/** The schema versions this build knows, oldest first. */
export const knownMigrations = (): string[] => Object.keys(migrations).sort();

/** Migrations applied to the database, oldest first; empty when it has no schema yet. */
export async function appliedMigrations(db: Db): Promise<string[]> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  if (!tables.some((t) => t.name === "kysely_migration")) return [];
  const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
  return rows.map((r) => r.name);
}

/** `date` (default: now) as stored in timestamp columns. */
export const nowIso = (date?: Date): string => (date ? date.toISOString() : isoAt(Date.now()));

let lastMs = Number.NaN;
let lastIso = "";

/**
 * A time in milliseconds as nowIso writes it. A view stamps the time twice (its
 * count and its access-log entry) and the requests of one event-loop turn mostly
 * share a millisecond: the last conversion is reused.
 */
export function isoAt(ms: number): string {
  if (ms !== lastMs) {
    lastIso = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastIso;
}
