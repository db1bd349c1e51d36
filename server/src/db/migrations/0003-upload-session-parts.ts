import type { Kysely } from "kysely";

/**
 * Multipart upload sessions remember how the client split the file, so a
 * resumed upload gets fresh part URLs for the same parts and a signed LOCAL
 * part URL refuses a body larger than its part.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("upload_sessions").addColumn("part_size", "bigint").execute();
  await db.schema.alterTable("upload_sessions").addColumn("part_count", "integer").execute();
}
