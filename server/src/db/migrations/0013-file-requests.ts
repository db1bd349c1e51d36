import { type Kysely, sql } from "kysely";

/**
 * File requests (docs/file-requests.md): a link at /r/<slug> through which
 * visitors without an account upload to the request's creator.
 * - `file_requests` holds the request and its two slot counters:
 *   `reserved_files` and `reserved_bytes` count every upload that holds a slot
 *   (in flight or received). A slot is taken by one guarded UPDATE that checks
 *   the limits in its WHERE clause, so concurrent uploads never exceed them.
 * - `file_request_uploads` holds one row per upload: `pending` while its bytes
 *   arrive (the row is the slot; releasing it deletes the row and gives the
 *   counters back), `received` once stored. A received file is a file share
 *   of the creator (`file_id`) or a file in the target folder (`path`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("file_requests")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("message", "text")
    .addColumn("created_by", "text", (c) => c.notNull())
    .addColumn("target_kind", "text", (c) => c.notNull())
    .addColumn("storage_config_id", "text")
    .addColumn("folder_path", "text")
    .addColumn("max_files", "integer")
    .addColumn("max_file_bytes", "bigint")
    .addColumn("max_total_bytes", "bigint")
    .addColumn("allowed_types", "text")
    .addColumn("expires_at", "text")
    .addColumn("password_hash", "text")
    .addColumn("show_received", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("reserved_files", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("reserved_bytes", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("file_requests_created")
    .on("file_requests")
    .columns(["created_by", "created_at"])
    .execute();
  await db.schema
    .createTable("file_request_uploads")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("request_id", "text", (c) => c.notNull().references("file_requests.id").onDelete("cascade"))
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("filename", "text", (c) => c.notNull())
    .addColumn("size", "bigint", (c) => c.notNull())
    .addColumn("file_id", "text", (c) => c.references("files.id").onDelete("set null"))
    .addColumn("path", "text")
    .addColumn("upload_id", "text")
    .addColumn("uploader_name", "text")
    .addColumn("note", "text")
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("file_request_uploads_request")
    .on("file_request_uploads")
    .columns(["request_id", "created_at"])
    .execute();
  // A folder upload's name is claimed by its pending row: two uploads never write one path.
  await db.schema
    .createIndex("file_request_uploads_pending_path")
    .on("file_request_uploads")
    .column("path")
    .unique()
    .where(sql.ref("status"), "=", "pending")
    .execute();
  await db.schema
    .createIndex("file_request_uploads_expires")
    .on("file_request_uploads")
    .column("expires_at")
    .execute();
}
