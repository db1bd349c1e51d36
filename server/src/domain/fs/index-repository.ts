/**
 * The index of mount entries behind one interface for both databases
 * (docs/decisions/0035-mount-index.md): writes (crawl batches, the VFS's
 * changes, moves), folder sizes and counts, and the search, whose query is
 * index-search-query.ts. Paths are mount-relative (index-paths.ts).
 */
import { type SqlBool, sql } from "kysely";
import type { Db, Dialect } from "../../db/database";
import type { FsIndexRow } from "../../db/schema";
import { below, codePoints, nameOf, parentOf, within } from "./index-paths";
import { type IndexSearch, IndexSearchQuery } from "./index-search-query";

export interface IndexEntry {
  path: string;
  size: number;
  mtime: string | null;
  type: "file" | "dir";
  isLink: boolean;
}

export interface FolderTotals {
  size: number;
  files: number;
  folders: number;
}

/** Rows per insert: well below both databases' bound-parameter limits. */
export const INDEX_BATCH = 500;

export class IndexRepository {
  private readonly searchQuery: IndexSearchQuery;

  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
  ) {
    this.searchQuery = new IndexSearchQuery(db, dialect);
  }

  /** One page of matches and how many match in all (index-search-query.ts). */
  search(query: IndexSearch): Promise<{ rows: FsIndexRow[]; total: number }> {
    return this.searchQuery.run(query);
  }

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
    this.searchQuery.forgetSample();
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
      // Written out, not bound: SQLite uses the folders-only index for this term alone.
      .where(sql<SqlBool>`type = 'dir'`)
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
}
