/**
 * WebDAV write locks (RFC 4918 §6, §7) in the webdav_locks table, so every
 * instance sharing the database sees the same locks. Paths are normalized
 * virtual paths; a depth-infinity lock on a collection covers everything
 * below it. Expired locks are ignored by every query and swept now and then.
 * Creating a lock checks for conflicts and inserts in one transaction (on
 * PostgreSQL under a transaction-scoped advisory lock, so two instances cannot
 * both grant conflicting locks).
 */
import { randomUUID } from "node:crypto";
import { type Expression, type SqlBool, sql } from "kysely";
import type { Dialect } from "../db/database";
import { type Db, nowIso } from "../db/database";
import type { WebdavLocksTable } from "../db/schema";

export type LockScope = "exclusive" | "shared";
export type LockDepth = "0" | "infinity";

/** A lock as asked for; the store adds its token and expiry. */
export interface NewLock {
  /** The lock root. */
  path: string;
  scope: LockScope;
  depth: LockDepth;
  /** The client's `<D:owner>` element, serialized, or null. */
  ownerXml: string | null;
  /** Who holds it: creatorIdOf(principal). */
  principal: string;
  timeoutSeconds: number;
}

export interface DavLock extends NewLock {
  token: string;
  expiresAt: Date;
}

/** Timeouts we grant: what the client asks for, within these bounds. */
export const LOCK_TIMEOUT_DEFAULT = 3600;
export const LOCK_TIMEOUT_MAX = 7 * 24 * 3600;

const ADVISORY_KEY = 0x5744_4c4b; // "WDLK"
const SWEEP_EVERY_MS = 60_000;

type Row = { [K in keyof WebdavLocksTable]: WebdavLocksTable[K] };

function toLock(row: Row): DavLock {
  return {
    token: row.token,
    path: row.path,
    scope: row.scope === "shared" ? "shared" : "exclusive",
    depth: row.depth === "infinity" ? "infinity" : "0",
    ownerXml: row.owner_xml,
    principal: row.principal,
    timeoutSeconds: row.timeout_seconds,
    expiresAt: new Date(row.expires_at),
  };
}

/** "/a/b/c" → ["/", "/a", "/a/b"]. */
export function ancestorsOf(path: string): string[] {
  if (path === "/") return [];
  const out = ["/"];
  const segments = path.split("/").filter(Boolean);
  for (let i = 1; i < segments.length; i++) out.push(`/${segments.slice(0, i).join("/")}`);
  return out;
}

/** SQL condition: the `path` column lies strictly below `root`. Plain string functions, so LIKE's wildcards and case rules never apply. */
export function belowPath(root: string): Expression<SqlBool> {
  if (root === "/") return sql<SqlBool>`path <> '/'`;
  const prefix = `${root}/`;
  // Both databases count characters (code points), not UTF-16 units.
  return sql<SqlBool>`substr(path, 1, cast(${[...prefix].length} as integer)) = cast(${prefix} as text)`;
}

export class LockConflictError extends Error {
  override readonly name = "LockConflictError";
  constructor(readonly lock: DavLock) {
    super("The resource is locked");
  }
}

export class LockStore {
  private lastSweep = 0;

  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
    private readonly now: () => number = Date.now,
  ) {}

  private nowIso(): string {
    return nowIso(new Date(this.now()));
  }

  /** Active locks on `path` itself or on an ancestor with depth infinity. */
  async covering(path: string, db: Db = this.db): Promise<DavLock[]> {
    const ancestors = ancestorsOf(path);
    const rows = await db
      .selectFrom("webdav_locks")
      .selectAll()
      .where("expires_at", ">", this.nowIso())
      .where((eb) =>
        ancestors.length === 0
          ? eb("path", "=", path)
          : eb.or([
              eb("path", "=", path),
              eb.and([eb("path", "in", ancestors), eb("depth", "=", "infinity")]),
            ]),
      )
      .execute();
    return rows.map(toLock);
  }

  /** Active locks rooted strictly below `path`. */
  async within(path: string, db: Db = this.db): Promise<DavLock[]> {
    const rows = await db
      .selectFrom("webdav_locks")
      .selectAll()
      .where("expires_at", ">", this.nowIso())
      .where(belowPath(path))
      .execute();
    return rows.map(toLock);
  }

  /**
   * Locks for the members of one directory listing: those covering `dir`
   * through depth infinity, plus those rooted at any of `paths`. One query per page.
   */
  async forChildren(dir: string, paths: string[]): Promise<Map<string, DavLock[]>> {
    const result = new Map<string, DavLock[]>();
    if (paths.length === 0) return result;
    const inherited = [...ancestorsOf(dir), dir];
    const rows = await this.db
      .selectFrom("webdav_locks")
      .selectAll()
      .where("expires_at", ">", this.nowIso())
      .where((eb) =>
        eb.or([eb("path", "in", paths), eb.and([eb("path", "in", inherited), eb("depth", "=", "infinity")])]),
      )
      .execute();
    const locks = rows.map(toLock);
    const inheritedSet = new Set(inherited);
    const deep = locks.filter((l) => inheritedSet.has(l.path));
    for (const path of paths) result.set(path, [...deep, ...locks.filter((l) => l.path === path)]);
    return result;
  }

  async get(token: string): Promise<DavLock | null> {
    const row = await this.db
      .selectFrom("webdav_locks")
      .selectAll()
      .where("token", "=", token)
      .where("expires_at", ">", this.nowIso())
      .executeTakeFirst();
    return row ? toLock(row) : null;
  }

  /**
   * Grants a lock unless it conflicts (RFC 4918 §6.2): an exclusive lock
   * conflicts with any lock covering the same resources, a shared lock with
   * an exclusive one. Throws LockConflictError naming the conflicting lock.
   */
  async create(input: NewLock): Promise<DavLock> {
    await this.sweep();
    const timeoutSeconds = Math.min(Math.max(Math.trunc(input.timeoutSeconds), 1), LOCK_TIMEOUT_MAX);
    const now = this.now();
    const lock: DavLock = {
      ...input,
      token: `urn:uuid:${randomUUID()}`,
      timeoutSeconds,
      expiresAt: new Date(now + timeoutSeconds * 1000),
    };
    await this.db.transaction().execute(async (trx) => {
      if (this.dialect === "postgres") await sql`select pg_advisory_xact_lock(${ADVISORY_KEY})`.execute(trx);
      const existing = [
        ...(await this.covering(input.path, trx)),
        ...(input.depth === "infinity" ? await this.within(input.path, trx) : []),
      ];
      const conflict = existing.find((l) => l.scope === "exclusive" || input.scope === "exclusive");
      if (conflict) throw new LockConflictError(conflict);
      await trx
        .insertInto("webdav_locks")
        .values({
          token: lock.token,
          path: lock.path,
          scope: lock.scope,
          depth: lock.depth,
          owner_xml: lock.ownerXml,
          principal: lock.principal,
          timeout_seconds: lock.timeoutSeconds,
          expires_at: nowIso(lock.expiresAt),
          created_at: nowIso(new Date(now)),
        })
        .execute();
    });
    return lock;
  }

  /** Restarts a lock's timeout; null if the lock is gone. */
  async refresh(token: string, timeoutSeconds: number): Promise<DavLock | null> {
    const seconds = Math.min(Math.max(Math.trunc(timeoutSeconds), 1), LOCK_TIMEOUT_MAX);
    const expiresAt = new Date(this.now() + seconds * 1000);
    const result = await this.db
      .updateTable("webdav_locks")
      .set({ timeout_seconds: seconds, expires_at: nowIso(expiresAt) })
      .where("token", "=", token)
      .where("expires_at", ">", this.nowIso())
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return null;
    return this.get(token);
  }

  async remove(token: string): Promise<boolean> {
    const result = await this.db.deleteFrom("webdav_locks").where("token", "=", token).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Drops the locks on `path` and everything below it (after DELETE, or the source of a MOVE). */
  async removeTree(path: string): Promise<void> {
    await this.db
      .deleteFrom("webdav_locks")
      .where((eb) => eb.or([eb("path", "=", path), belowPath(path)]))
      .execute();
  }

  private async sweep(): Promise<void> {
    const now = this.now();
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    await this.db.deleteFrom("webdav_locks").where("expires_at", "<=", this.nowIso()).execute();
  }
}
