/**
 * The index of mount entries behind one interface for both databases
 * (docs/decisions/0035-mount-index.md). Paths are mount-relative. Name
 * matching is the only part that differs: FTS5 trigram on SQLite, pg_trgm
 * (ILIKE on a GIN index) on PostgreSQL. Who may see what is part of every
 * query: a search names, per mount, the subtree it may look into, the nested
 * mounts it must leave out and whether links are hidden, as SQL conditions.
 */
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from "kysely";
import type { Db, Dialect } from "../../db/database";
import type { Database, FsIndexRow } from "../../db/schema";
import { containsPattern } from "../../db/sql-helpers";

export interface IndexEntry {
  path: string;
  size: number;
  mtime: string | null;
  type: "file" | "dir";
  isLink: boolean;
}

/** The part of one mount a search may look into. */
export interface IndexScope {
  mountId: string;
  /** Mount-relative subtree ("" = the whole mount). */
  prefix: string;
  /** Mount-relative subtrees shadowed by nested mounts. */
  exclude: string[];
  /** A key confined inside the mount sees no links (its driver hides them too). */
  hideLinks: boolean;
}

export interface IndexSearch {
  q: string;
  scopes: IndexScope[];
  type?: "file" | "dir" | undefined;
  minSize?: number | undefined;
  maxSize?: number | undefined;
  modifiedAfter?: string | undefined;
  modifiedBefore?: string | undefined;
  limit: number;
  offset: number;
}

export interface FolderTotals {
  size: number;
  files: number;
  folders: number;
}

/** Rows per insert: well below both databases' bound-parameter limits. */
export const INDEX_BATCH = 500;

type Eb = ExpressionBuilder<Database, "fs_index">;

const codePoints = (s: string) => [...s].length;

export const parentOf = (path: string) => {
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
};
const nameOf = (path: string) => path.slice(path.lastIndexOf("/") + 1);

/**
 * `path` is `prefix` or lies below it: one range of the (mount_id, path) index. Paths compare
 * byte by byte (BINARY on SQLite, collation "C" on PostgreSQL) and "/" sorts just before "0",
 * so everything starting with "prefix/" lies in ["prefix/", "prefix0").
 */
function within(eb: Eb, prefix: string): Expression<SqlBool> {
  return eb.or([eb("path", "=", prefix), below(eb, prefix)]);
}

function below(eb: Eb, prefix: string): Expression<SqlBool> {
  return eb.and([eb("path", ">=", `${prefix}/`), eb("path", "<", `${prefix}0`)]);
}

export class IndexRepository {
  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
  ) {}

  /** Adds or refreshes entries, marking them seen by crawl generation `gen`. */
  async upsert(mountId: string, gen: number, entries: IndexEntry[]): Promise<void> {
    for (let i = 0; i < entries.length; i += INDEX_BATCH) {
      const rows = entries.slice(i, i + INDEX_BATCH).map((e) => ({
        mount_id: mountId,
        path: e.path,
        parent: parentOf(e.path),
        name: nameOf(e.path),
        size: e.size,
        mtime: e.mtime,
        type: e.type,
        is_link: e.isLink ? 1 : 0,
        gen,
      }));
      await this.db
        .insertInto("fs_index")
        .values(rows)
        .onConflict((oc) =>
          oc.columns(["mount_id", "path"]).doUpdateSet((eb) => ({
            size: eb.ref("excluded.size"),
            mtime: eb.ref("excluded.mtime"),
            type: eb.ref("excluded.type"),
            is_link: eb.ref("excluded.is_link"),
            gen: eb.ref("excluded.gen"),
          })),
        )
        .execute();
    }
  }

  /** Adds folders that are missing (the parents of a new entry), leaving existing ones alone. */
  async ensureFolders(mountId: string, gen: number, paths: string[]): Promise<void> {
    if (paths.length === 0) return;
    await this.db
      .insertInto("fs_index")
      .values(
        paths.map((path) => ({
          mount_id: mountId,
          path,
          parent: parentOf(path),
          name: nameOf(path),
          size: 0,
          mtime: null,
          type: "dir" as const,
          is_link: 0,
          gen,
        })),
      )
      .onConflict((oc) => oc.columns(["mount_id", "path"]).doNothing())
      .execute();
  }

  /** Drops an entry and everything below it. */
  async removeTree(mountId: string, path: string): Promise<void> {
    await this.db
      .deleteFrom("fs_index")
      .where("mount_id", "=", mountId)
      .where((eb) => within(eb, path))
      .execute();
  }

  /** Drops what lies below `path` but not seen by generation `gen` (a folder re-read after a change). */
  async sweepBelow(mountId: string, path: string, gen: number): Promise<void> {
    await this.db
      .deleteFrom("fs_index")
      .where("mount_id", "=", mountId)
      .where("gen", "<", gen)
      .where((eb) => (path === "" ? eb.lit(true) : within(eb, path)))
      .where("path", "!=", path)
      .execute();
  }

  /** A rename or move inside one mount: the entry and its subtree change paths in one transaction. */
  async move(mountId: string, from: string, to: string): Promise<void> {
    const cut = sql.lit(codePoints(from) + 1);
    await this.db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom("fs_index")
        .where("mount_id", "=", mountId)
        .where((eb) => within(eb, to))
        .execute();
      await trx
        .updateTable("fs_index")
        .set({ path: to, parent: parentOf(to), name: nameOf(to) })
        .where("mount_id", "=", mountId)
        .where("path", "=", from)
        .execute();
      await trx
        .updateTable("fs_index")
        .set({
          path: sql`${to} || substr(path, ${cut})`,
          parent: sql`${to} || substr(parent, ${cut})`,
        })
        .where("mount_id", "=", mountId)
        .where((eb) => below(eb, from))
        .execute();
    });
  }

  /** After a full crawl: drops what the crawl did not see. Returns the entries left. */
  async sweep(mountId: string, gen: number): Promise<number> {
    await this.db.deleteFrom("fs_index").where("mount_id", "=", mountId).where("gen", "<", gen).execute();
    // After a bulk load PostgreSQL's statistics are stale; without them it may read a whole
    // mount through the path index instead of starting from the trigram index.
    if (this.dialect === "postgres") await sql`analyze fs_index`.execute(this.db);
    return this.count(mountId);
  }

  async clear(mountId: string): Promise<void> {
    await this.db.deleteFrom("fs_index").where("mount_id", "=", mountId).execute();
  }

  async count(mountId: string): Promise<number> {
    const { n } = await this.db
      .selectFrom("fs_index")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("mount_id", "=", mountId)
      .executeTakeFirstOrThrow();
    return Number(n);
  }

  /** One page of matches, exact names first, then prefixes, then newest; and how many match in all. */
  async search(query: IndexSearch): Promise<{ rows: FsIndexRow[]; total: number }> {
    if (query.scopes.length === 0) return { rows: [], total: 0 };
    const needle = query.q.toLowerCase();
    const base = this.db
      .selectFrom("fs_index")
      .where((eb) => this.nameMatches(eb, query.q))
      .where((eb) => eb.or(query.scopes.map((scope) => this.inScope(eb, scope))))
      .$if(query.type !== undefined, (qb) => qb.where("type", "=", query.type!))
      .$if(query.minSize !== undefined, (qb) => qb.where("size", ">=", query.minSize!))
      .$if(query.maxSize !== undefined, (qb) => qb.where("size", "<=", query.maxSize!))
      .$if(query.modifiedAfter !== undefined, (qb) => qb.where("mtime", ">=", query.modifiedAfter!))
      .$if(query.modifiedBefore !== undefined, (qb) => qb.where("mtime", "<", query.modifiedBefore!));
    const rank = sql<number>`case when lower(name) = ${needle} then 0 when substr(lower(name), 1, ${sql.lit(
      codePoints(needle),
    )}) = ${needle} then 1 else 2 end`;
    const [rows, count] = await Promise.all([
      base
        .selectAll()
        .orderBy(rank)
        .orderBy(sql`mtime is null`)
        .orderBy("mtime", "desc")
        .orderBy("path")
        .limit(query.limit)
        .offset(query.offset)
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }

  /** Sizes and counts below each of `folders` (mount-relative) of one mount. */
  async folderTotals(mountId: string, folders: string[]): Promise<Map<string, FolderTotals>> {
    const totals = new Map<string, FolderTotals>();
    for (const folder of folders) {
      const row = await this.db
        .selectFrom("fs_index")
        .select((eb) => [
          eb.fn.sum<number>(sql`case when type = 'file' then size else 0 end`).as("size"),
          eb.fn.sum<number>(sql`case when type = 'file' then 1 else 0 end`).as("files"),
          eb.fn.sum<number>(sql`case when type = 'dir' then 1 else 0 end`).as("folders"),
        ])
        .where("mount_id", "=", mountId)
        .where((eb) => (folder === "" ? eb.lit(true) : within(eb, folder)))
        .where("path", "!=", folder)
        .executeTakeFirstOrThrow();
      totals.set(folder, {
        size: Number(row.size ?? 0),
        files: Number(row.files ?? 0),
        folders: Number(row.folders ?? 0),
      });
    }
    return totals;
  }

  /** Totals below each direct subfolder of `dir`, in one pass over the entries below it. */
  async childTotals(mountId: string, dir: string): Promise<Map<string, FolderTotals>> {
    const cut = dir === "" ? 0 : codePoints(dir) + 1;
    const rest = sql<string>`substr(path, ${sql.lit(cut + 1)})`;
    const slash =
      this.dialect === "postgres" ? sql<number>`strpos(${rest}, '/')` : sql<number>`instr(${rest}, '/')`;
    const child = sql<string>`substr(${rest}, 1, ${slash} - 1)`;
    const rows = await this.db
      .selectFrom("fs_index")
      .select((eb) => [
        child.as("child"),
        eb.fn.sum<number>(sql`case when type = 'file' then size else 0 end`).as("size"),
        eb.fn.sum<number>(sql`case when type = 'file' then 1 else 0 end`).as("files"),
        eb.fn.sum<number>(sql`case when type = 'dir' then 1 else 0 end`).as("folders"),
      ])
      .where("mount_id", "=", mountId)
      .where((eb) => (dir === "" ? eb.lit(true) : below(eb, dir)))
      .where(slash, ">", 0)
      .groupBy(child)
      .execute();
    return new Map(
      rows.map((r) => [
        r.child,
        { size: Number(r.size ?? 0), files: Number(r.files ?? 0), folders: Number(r.folders ?? 0) },
      ]),
    );
  }

  /** The largest files of a mount. */
  async largestFiles(mountId: string, limit: number): Promise<FsIndexRow[]> {
    return this.db
      .selectFrom("fs_index")
      .selectAll()
      .where("mount_id", "=", mountId)
      .where("type", "=", "file")
      .orderBy("size", "desc")
      .orderBy("path")
      .limit(limit)
      .execute();
  }

  /** Top-level folders of a mount by the bytes below them. */
  async largestFolders(mountId: string, limit: number): Promise<Array<{ path: string } & FolderTotals>> {
    const tops = await this.db
      .selectFrom("fs_index")
      .select("path")
      .where("mount_id", "=", mountId)
      .where("parent", "=", "")
      .where("type", "=", "dir")
      .execute();
    const totals = await this.folderTotals(
      mountId,
      tops.map((t) => t.path),
    );
    return [...totals]
      .map(([path, t]) => ({ path, ...t }))
      .sort((a, b) => b.size - a.size || (a.path < b.path ? -1 : 1))
      .slice(0, limit);
  }

  private nameMatches(eb: Eb, q: string): Expression<SqlBool> {
    if (this.dialect === "postgres") return eb("name", "ilike", containsPattern(q));
    // The trigram index answers needles of three characters or more; shorter ones scan the names.
    if (codePoints(q) < 3) return eb("name", "like", containsPattern(q));
    const phrase = `"${q.replace(/"/g, '""')}"`;
    return eb("id", "in", sql<number>`(select rowid from fs_index_fts where fs_index_fts match ${phrase})`);
  }

  private inScope(eb: Eb, scope: IndexScope): Expression<SqlBool> {
    // On SQLite the unary + keeps the planner from walking a whole mount through the
    // (mount_id, path) index instead of starting from the few rows the name match finds.
    const mount = this.dialect === "sqlite" ? sql<string>`+mount_id` : sql<string>`mount_id`;
    const conditions: Expression<SqlBool>[] = [eb(mount, "=", scope.mountId)];
    if (scope.prefix !== "") conditions.push(below(eb, scope.prefix));
    for (const nested of scope.exclude) conditions.push(eb.not(within(eb, nested)));
    if (scope.hideLinks) conditions.push(eb("is_link", "=", 0));
    return eb.and(conditions);
  }
}
