/**
 * The index of mount entries behind one interface for both databases
 * (docs/decisions/0035-mount-index.md): writes (crawl batches, the VFS's
 * changes, moves), folder sizes and counts (index-folder-totals.ts), and the
 * search, whose query is index-search-query.ts. Paths are mount-relative
 * (index-paths.ts).
 */
import { type Kysely, sql } from "kysely";
import type { Db, Dialect } from "../../db/database";
import type { Database, FsIndexRow } from "../../db/schema";
import { type FolderTotals, FolderTotalsStore, minus, NO_TOTALS, shareOf } from "./index-folder-totals";
import { below, codePoints, nameOf, parentOf, within } from "./index-paths";
import { type IndexSearch, IndexSearchQuery } from "./index-search-query";

export interface IndexEntry {
  path: string;
  size: number;
  mtime: string | null;
  type: "file" | "dir";
  isLink: boolean;
}

/** Rows per insert: well below both databases' bound-parameter limits. */
export const INDEX_BATCH = 500;

const rowOf = (mountId: string, gen: number, e: IndexEntry) => ({
  mount_id: mountId,
  path: e.path,
  parent: parentOf(e.path),
  name: nameOf(e.path),
  size: e.size,
  mtime: e.mtime,
  type: e.type,
  is_link: e.isLink ? 1 : 0,
  gen,
});

export class IndexRepository {
  private readonly searchQuery: IndexSearchQuery;
  /** Folder sizes and counts; a crawl sets a folder's figures with `totals.set` once read whole. */
  readonly totals: FolderTotalsStore;

  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
  ) {
    this.searchQuery = new IndexSearchQuery(db, dialect);
    this.totals = new FolderTotalsStore(db, dialect);
  }

  /** One page of matches and how many match in all (index-search-query.ts). */
  search(query: IndexSearch): Promise<{ rows: FsIndexRow[]; total: number }> {
    return this.searchQuery.run(query);
  }

  /**
   * Adds or refreshes entries read by a crawl, marking them seen by generation `gen`. Their
   * folders' figures are set by the crawl once it has read each folder whole.
   */
  async upsert(mountId: string, gen: number, entries: IndexEntry[]): Promise<void> {
    for (let i = 0; i < entries.length; i += INDEX_BATCH) {
      await this.db
        .insertInto("fs_index")
        .values(entries.slice(i, i + INDEX_BATCH).map((e) => rowOf(mountId, gen, e)))
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

  /**
   * One entry as storage has it after a write, with its missing parent folders; the figures of
   * its folder change by what the entry adds now minus what it added before, in one transaction.
   * Two writes of one new path count it once: one insert wins, the other updates (on PostgreSQL
   * the row is locked while its old size is read).
   */
  async put(mountId: string, gen: number, entry: IndexEntry, parents: string[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await this.ensureFolders(trx, mountId, gen, parents);
      const inserted = await trx
        .insertInto("fs_index")
        .values(rowOf(mountId, gen, entry))
        .onConflict((oc) => oc.columns(["mount_id", "path"]).doNothing())
        .returning("id")
        .executeTakeFirst();
      let before = NO_TOTALS;
      if (!inserted) {
        const old = await trx
          .selectFrom("fs_index")
          .select(["type", "size"])
          .where("mount_id", "=", mountId)
          .where("path", "=", entry.path)
          .$if(this.dialect === "postgres", (qb) => qb.forUpdate())
          .executeTakeFirst();
        before = shareOf(old);
        await trx
          .updateTable("fs_index")
          .set({ size: entry.size, mtime: entry.mtime, type: entry.type, is_link: entry.isLink ? 1 : 0, gen })
          .where("mount_id", "=", mountId)
          .where("path", "=", entry.path)
          .execute();
      }
      await this.totals.add(trx, mountId, parentOf(entry.path), minus(shareOf(entry), before));
    });
  }

  /** Adds folders that are missing (the parents of a new entry); each new one counts in its parent. */
  private async ensureFolders(db: Kysely<Database>, mountId: string, gen: number, paths: string[]) {
    if (paths.length === 0) return;
    const added = await db
      .insertInto("fs_index")
      .values(
        paths.map((path) => rowOf(mountId, gen, { path, size: 0, mtime: null, type: "dir", isLink: false })),
      )
      .onConflict((oc) => oc.columns(["mount_id", "path"]).doNothing())
      .returning("path")
      .execute();
    for (const { path } of added)
      await this.totals.add(db, mountId, parentOf(path), shareOf({ type: "dir", size: 0 }));
  }

  /** Drops an entry and everything below it; its folder no longer counts it. */
  async removeTree(mountId: string, path: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => this.dropTree(trx, mountId, path));
  }

  private async dropTree(db: Kysely<Database>, mountId: string, path: string): Promise<void> {
    // Only the delete that removed the entry's own row takes it out of its folder's figures.
    const removed = await db
      .deleteFrom("fs_index")
      .where("mount_id", "=", mountId)
      .where("path", "=", path)
      .returning(["type", "size"])
      .executeTakeFirst();
    await db
      .deleteFrom("fs_index")
      .where("mount_id", "=", mountId)
      .where((eb) => below(eb, path))
      .execute();
    await this.totals.add(db, mountId, parentOf(path), minus(NO_TOTALS, shareOf(removed)));
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

  /**
   * A rename or move inside one mount: the entry and its subtree change paths in one transaction
   * (folder rows keep their figures); what was at `to` goes, and the entry counts in its new folder.
   */
  async move(mountId: string, from: string, to: string): Promise<void> {
    const cut = sql.lit(codePoints(from) + 1);
    await this.db.transaction().execute(async (trx) => {
      await this.dropTree(trx, mountId, to);
      const moved = await trx
        .updateTable("fs_index")
        .set({ path: to, parent: parentOf(to), name: nameOf(to) })
        .where("mount_id", "=", mountId)
        .where("path", "=", from)
        .returning(["type", "size"])
        .executeTakeFirst();
      await trx
        .updateTable("fs_index")
        .set({
          path: sql`${to} || substr(path, ${cut})`,
          parent: sql`${to} || substr(parent, ${cut})`,
        })
        .where("mount_id", "=", mountId)
        .where((eb) => below(eb, from))
        .execute();
      if (parentOf(from) !== parentOf(to)) {
        await this.totals.add(trx, mountId, parentOf(from), minus(NO_TOTALS, shareOf(moved)));
        await this.totals.add(trx, mountId, parentOf(to), shareOf(moved));
      }
    });
  }

  /** After a full crawl: drops what the crawl did not see. Returns the entries left. */
  async sweep(mountId: string, gen: number): Promise<number> {
    await this.db.deleteFrom("fs_index").where("mount_id", "=", mountId).where("gen", "<", gen).execute();
    if (this.dialect === "postgres") {
      // After a bulk load PostgreSQL's statistics are stale; without them it may read a whole
      // mount through the path index instead of starting from the trigram index.
      await sql`analyze fs_index`.execute(this.db);
      // GIN keeps new entries in a pending list (up to 4 MB) that every search reads whole until
      // it is merged: merged now, the searches after a crawl do not pay for it.
      await sql`select gin_clean_pending_list('fs_index_name_trgm')`.execute(this.db);
    }
    this.searchQuery.forgetSample();
    return this.count(mountId);
  }

  async clear(mountId: string): Promise<void> {
    await this.db.deleteFrom("fs_index").where("mount_id", "=", mountId).execute();
    await this.totals.clearRoot(this.db, mountId);
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
  folderTotals(mountId: string, folders: string[]): Promise<Map<string, FolderTotals>> {
    return this.totals.below(mountId, folders);
  }

  /** Totals below each direct subfolder of `dir`. */
  childTotals(mountId: string, dir: string): Promise<Map<string, FolderTotals>> {
    return this.totals.children(mountId, dir);
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
    return [...(await this.totals.children(mountId, ""))]
      .map(([path, t]) => ({ path, ...t }))
      .sort((a, b) => b.size - a.size || (a.path < b.path ? -1 : 1))
      .slice(0, limit);
  }
}
