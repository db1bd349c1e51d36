import { type Kysely, type SqlBool, sql } from "kysely";

/**
 * Folder sizes without reading what lies below (docs/decisions/0081-folder-totals-per-folder.md):
 * each folder row of the index keeps the bytes and counts of what lies directly in it, the mount
 * root's are in mount_index_state, and a folder's size is the sum over the folders below it, read
 * through an index of folder rows alone. Listing a folder of a 1,000,000-entry mount with its
 * subfolders' sizes read every entry below it (3.6 s); now it reads the folders below.
 * Existing indexes get their figures here, from one pass over their entries.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of ["dir_size", "dir_files", "dir_folders"]) {
    await db.schema
      .alterTable("fs_index")
      .addColumn(column, "bigint", (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable("mount_index_state")
      .addColumn(column.replace("dir_", "root_"), "bigint", (c) => c.notNull().defaultTo(0))
      .execute();
  }
  // The folders-only index of 0030 by parent served the top-level folders; this one serves them
  // and every folder's subtree.
  await db.schema.dropIndex("fs_index_mount_folders").execute();
  await db.schema
    .createIndex("fs_index_mount_folder_paths")
    .on("fs_index")
    .columns(["mount_id", "path"])
    .where(sql.raw<SqlBool>("type = 'dir'"))
    .execute();

  const direct = sql`(select mount_id, parent,
      sum(case when type = 'file' then size else 0 end) as size,
      sum(case when type = 'file' then 1 else 0 end) as files,
      sum(case when type = 'dir' then 1 else 0 end) as folders
    from fs_index group by mount_id, parent) as t`;
  await sql`update fs_index set dir_size = t.size, dir_files = t.files, dir_folders = t.folders
    from ${direct} where fs_index.mount_id = t.mount_id and fs_index.path = t.parent
    and fs_index.type = 'dir'`.execute(db);
  await sql`update mount_index_state set root_size = t.size, root_files = t.files, root_folders = t.folders
    from ${direct} where mount_index_state.mount_id = t.mount_id and t.parent = ''`.execute(db);
}
