import { type Kysely, sql } from "kysely";

/**
 * Public browsing (docs/public-browsing.md):
 * - `mounts.public_browse`: visitors without credentials may read the whole
 *   mount (folder settings below it may say otherwise);
 * - visitors' downloads from mounts go into the access log beside share
 *   visits: `mount_id` (cascading, as the share columns do) and the file's
 *   virtual `path`, with a partial index like the per-share ones (0006).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("mounts")
    .addColumn("public_browse", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable("share_access_log")
    .addColumn("mount_id", "text", (c) => c.references("mounts.id").onDelete("cascade"))
    .execute();
  await db.schema.alterTable("share_access_log").addColumn("path", "text").execute();
  await db.schema
    .createIndex("share_access_log_mount")
    .on("share_access_log")
    .columns(["mount_id", "at"])
    .where(sql.ref("mount_id"), "is not", sql.lit(null))
    .execute();
}
