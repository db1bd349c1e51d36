import type { Kysely } from "kysely";

/**
 * The share access log: one row per delivery of a paste or file share to a
 * visitor. Each row belongs to exactly one share through a foreign key that
 * cascades, so every way a share goes (delete, clear expired, the sweep of
 * used-up and expired shares) takes its log with it. `no_log` on a share turns
 * its log off (its view count still moves).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("share_access_log")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("paste_id", "text", (c) => c.references("pastes.id").onDelete("cascade"))
    .addColumn("file_id", "text", (c) => c.references("files.id").onDelete("cascade"))
    .addColumn("at", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("bytes", "bigint")
    .addColumn("browser", "text", (c) => c.notNull())
    .addColumn("os", "text", (c) => c.notNull())
    .addColumn("ip", "text")
    .execute();
  await db.schema
    .createIndex("share_access_log_paste")
    .on("share_access_log")
    .columns(["paste_id", "at"])
    .execute();
  await db.schema
    .createIndex("share_access_log_file")
    .on("share_access_log")
    .columns(["file_id", "at"])
    .execute();
  await db.schema.createIndex("share_access_log_at").on("share_access_log").column("at").execute();
  await db.schema
    .alterTable("pastes")
    .addColumn("no_log", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable("files")
    .addColumn("no_log", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
}
