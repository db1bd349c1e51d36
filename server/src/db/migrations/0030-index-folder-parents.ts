import { type Kysely, type SqlBool, sql } from "kysely";

/**
 * The index of mount entries keeps its (mount_id, parent) index for folders only
 * (docs/decisions/0080-rare-trigrams-first.md): its one reader asks for a mount's
 * top-level folders, and with files in it every file crawled, written or moved
 * with its folder paid for one more index entry (a renamed folder of 10,000 files:
 * a sixth of the work on PostgreSQL, a third on SQLite).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("fs_index_mount_parent").execute();
  await db.schema
    .createIndex("fs_index_mount_folders")
    .on("fs_index")
    .columns(["mount_id", "parent"])
    .where(sql.raw<SqlBool>("type = 'dir'"))
    .execute();
}
