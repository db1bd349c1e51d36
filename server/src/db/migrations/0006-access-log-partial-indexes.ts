import { type Kysely, sql } from "kysely";

/**
 * The access log's per-share indexes hold only the entries of their kind of
 * share: an entry belongs to a paste or to a file, and the other column's
 * index kept a NULL key for every entry, one more index write per access.
 * Lookups by share (`paste_id = ?`, the cascade when a share goes) imply the
 * column is not null, so SQLite and PostgreSQL use the partial index for them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of ["paste_id", "file_id"] as const) {
    const name = `share_access_log_${column === "paste_id" ? "paste" : "file"}`;
    await db.schema.dropIndex(name).execute();
    await db.schema
      .createIndex(name)
      .on("share_access_log")
      .columns([column, "at"])
      .where(sql.ref(column), "is not", sql.lit(null))
      .execute();
  }
}
