import { type Kysely, sql } from "kysely";

/**
 * One upload-session model for file shares and mount paths
 * (docs/decisions/0025-one-upload-domain.md): the per-target kinds become the
 * shared ones. The target stays where it was (file_id or mount_id), so
 * sessions in progress carry on: resume and complete find them, and resume
 * hands out part URLs of the new signed shape.
 */
const RENAMED: Array<[from: string, to: string]> = [
  ["share-multipart", "multipart"],
  ["fs-multipart", "multipart"],
  ["share-multipart-completing", "multipart-completing"],
  ["fs-presign", "presign"],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [from, to] of RENAMED) {
    await sql`UPDATE upload_sessions SET kind = ${to} WHERE kind = ${from}`.execute(db);
  }
}
