/** Rows written straight into the database, for tests that set up what the routes would not. */
import { randomUUID } from "node:crypto";
import type { Insertable } from "kysely";
import type { FileRow, PasteRow, TasksTable } from "../../src/db/schema";

/** Who made a share row and when (now), before any owner was resolved; its visits are logged. */
function madeBy(createdBy: string) {
  const now = new Date().toISOString();
  return { created_by: createdBy, owner_id: null, created_at: now, updated_at: now, no_log: 0 };
}

/** A plain paste (no password, limits or expiry) by `createdBy`, made now. */
export function pasteRow(slug: string, createdBy: string, extra: Partial<PasteRow> = {}): PasteRow {
  return {
    id: `id-${slug}`,
    slug,
    content: `content of ${slug}`,
    remark: null,
    password_hash: null,
    expires_at: null,
    max_views: null,
    views: 0,
    encrypted: 0,
    ...madeBy(createdBy),
    ...extra,
  };
}

/** A finished LOCAL file share by `createdBy`, made now; its object is not written. */
export function fileRow(slug: string, createdBy: string, extra: Partial<FileRow> = {}): FileRow {
  return {
    id: `id-${slug}`,
    slug,
    filename: `${slug}.txt`,
    storage_config_id: null,
    storage_type: "LOCAL",
    storage_path: `${slug}.txt`,
    file_path: null,
    mount_id: null,
    mimetype: "text/plain",
    size: 1,
    etag: null,
    remark: null,
    password_hash: null,
    expires_at: null,
    max_views: null,
    views: 0,
    use_proxy: 1,
    status: "active",
    delete_object_with_share: 0,
    encrypted_meta: null,
    ...madeBy(createdBy),
    ...extra,
  };
}

/** A task by `createdBy` that no runner has touched: pending, nothing done, made now. */
export function taskRow(
  type: string,
  createdBy: string,
  extra: Partial<Insertable<TasksTable>> = {},
): Insertable<TasksTable> & { id: string } {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    type,
    status: "pending",
    created_by: createdBy,
    owner_id: null,
    payload: "{}",
    result: null,
    total_items: 1,
    processed_items: 0,
    failed_items: 0,
    skipped_items: 0,
    total_bytes: 0,
    processed_bytes: 0,
    current_file: null,
    error: null,
    claimed_by: null,
    claimed_at: null,
    cancel_requested: 0,
    notice: null,
    created_at: now,
    updated_at: now,
    started_at: null,
    completed_at: null,
    ...extra,
  };
}
