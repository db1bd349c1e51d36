/**
 * Folder sizes and counts of the index of mount entries
 * (docs/decisions/0081-folder-totals-per-folder.md). Each folder's row holds what lies
 * directly in it (dir_size, dir_files, dir_folders); the mount root's figures are in
 * mount_index_state (root_*). A folder's totals are the sums over the folder rows of its subtree,
 * read through the index of folder rows alone, so no file below it is read: listing a folder of a
 * 1,000,000-entry mount with its subfolders' sizes reads a thousand rows, not a million.
 *
 * They are kept by every write: a crawl (or the re-read of a copied folder) sets a folder's
 * figures once it has read the folder whole; a single change adds what its entry now adds to its
 * folder, minus what it added before, to that folder's figures (one atomic increment).
 */
import { type Kysely, type RawBuilder, type SqlBool, sql } from "kysely";
import type { Dialect } from "../../db/database";
import type { Database } from "../../db/schema";
import { below, codePoints } from "./index-paths";

export interface FolderTotals {
  size: number;
  files: number;
  folders: number;
}

export const NO_TOTALS: FolderTotals = { size: 0, files: 0, folders: 0 };

/** What an entry adds to the figures of the folder it lies in. */
export function shareOf(entry: { type: "file" | "dir"; size: number } | undefined): FolderTotals {
  if (!entry) return NO_TOTALS;
  return entry.type === "dir"
    ? { size: 0, files: 0, folders: 1 }
    : { size: Number(entry.size), files: 1, folders: 0 };
}

export const minus = (a: FolderTotals, b: FolderTotals): FolderTotals => ({
  size: a.size - b.size,
  files: a.files - b.files,
  folders: a.folders - b.folders,
});

const isZero = (t: FolderTotals) => t.size === 0 && t.files === 0 && t.folders === 0;

/** Folder rows only, written out (not bound) so that SQLite uses the folders-only index. */
const FOLDER_ROWS = sql<SqlBool>`type = 'dir'`;

type Executor = Kysely<Database>;

export class FolderTotalsStore {
  constructor(
    private readonly db: Executor,
    private readonly dialect: Dialect,
  ) {}

  /** The figures of a folder read whole (by a crawl or a re-read). */
  async set(db: Executor, mountId: string, folder: string, totals: FolderTotals): Promise<void> {
    await this.write(db, mountId, folder, (_, n) => n, totals);
  }

  /** Adds `delta` (parts may be negative) to the figures of `folder`, in one statement. */
  async add(db: Executor, mountId: string, folder: string, delta: FolderTotals): Promise<void> {
    if (isZero(delta)) return;
    await this.write(db, mountId, folder, (column, n) => sql<number>`${sql.ref(column)} + ${n}`, delta);
  }

  /** The root's figures live in the mount's state row, every other folder's in its own row. */
  private async write(
    db: Executor,
    mountId: string,
    folder: string,
    value: (column: string, n: number) => number | RawBuilder<number>,
    t: FolderTotals,
  ): Promise<void> {
    if (folder === "") {
      await db
        .updateTable("mount_index_state")
        .set({
          root_size: value("root_size", t.size),
          root_files: value("root_files", t.files),
          root_folders: value("root_folders", t.folders),
        })
        .where("mount_id", "=", mountId)
        .execute();
      return;
    }
    await db
      .updateTable("fs_index")
      .set({
        dir_size: value("dir_size", t.size),
        dir_files: value("dir_files", t.files),
        dir_folders: value("dir_folders", t.folders),
      })
      .where("mount_id", "=", mountId)
      .where("path", "=", folder)
      .where(FOLDER_ROWS)
      .execute();
  }

  /** The mount's index was emptied: nothing lies in its root any more. */
  async clearRoot(db: Executor, mountId: string): Promise<void> {
    await this.set(db, mountId, "", NO_TOTALS);
  }

  /** Sizes and counts below each of `folders` (mount-relative) of one mount. */
  async below(mountId: string, folders: string[]): Promise<Map<string, FolderTotals>> {
    const totals = new Map<string, FolderTotals>();
    for (const folder of folders) {
      const own =
        folder === ""
          ? await this.db
              .selectFrom("mount_index_state")
              .select(["root_size as size", "root_files as files", "root_folders as folders"])
              .where("mount_id", "=", mountId)
              .executeTakeFirst()
          : await this.db
              .selectFrom("fs_index")
              .select(["dir_size as size", "dir_files as files", "dir_folders as folders"])
              .where("mount_id", "=", mountId)
              .where("path", "=", folder)
              .where(FOLDER_ROWS)
              .executeTakeFirst();
      const deeper = await this.db
        .selectFrom("fs_index")
        .select((eb) => [
          eb.fn.sum<number>("dir_size").as("size"),
          eb.fn.sum<number>("dir_files").as("files"),
          eb.fn.sum<number>("dir_folders").as("folders"),
        ])
        .where("mount_id", "=", mountId)
        .where(FOLDER_ROWS)
        .$if(folder !== "", (qb) => qb.where((eb) => below(eb, folder)))
        .executeTakeFirstOrThrow();
      totals.set(folder, {
        size: Number(own?.size ?? 0) + Number(deeper.size ?? 0),
        files: Number(own?.files ?? 0) + Number(deeper.files ?? 0),
        folders: Number(own?.folders ?? 0) + Number(deeper.folders ?? 0),
      });
    }
    return totals;
  }

  /** Totals below each direct subfolder of `dir`, from the folder rows below it. */
  async children(mountId: string, dir: string): Promise<Map<string, FolderTotals>> {
    const cut = dir === "" ? 0 : codePoints(dir) + 1;
    const rest = sql<string>`substr(path, ${sql.lit(cut + 1)})`;
    const slash =
      this.dialect === "postgres" ? sql<number>`strpos(${rest}, '/')` : sql<number>`instr(${rest}, '/')`;
    // A subfolder's own row, and the first segment of each folder deeper down.
    const child = sql<string>`case when ${slash} = 0 then ${rest} else substr(${rest}, 1, ${slash} - 1) end`;
    const rows = await this.db
      .selectFrom("fs_index")
      .select((eb) => [
        child.as("child"),
        eb.fn.sum<number>("dir_size").as("size"),
        eb.fn.sum<number>("dir_files").as("files"),
        eb.fn.sum<number>("dir_folders").as("folders"),
      ])
      .where("mount_id", "=", mountId)
      .where(FOLDER_ROWS)
      .$if(dir !== "", (qb) => qb.where((eb) => below(eb, dir)))
      .groupBy(child)
      .execute();
    return new Map(
      rows.map((r) => [
        r.child,
        { size: Number(r.size ?? 0), files: Number(r.files ?? 0), folders: Number(r.folders ?? 0) },
      ]),
    );
  }
}
