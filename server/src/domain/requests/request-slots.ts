/**
 * The slots of a file request: every upload holds one from its start until it
 * is received (then for good) or released (refused, aborted or abandoned).
 * Taking a slot is one guarded UPDATE of the request's counters whose WHERE
 * clause checks that the request is open, not expired, and has a file and the
 * bytes left, so however many uploads race for the last slot, exactly one
 * gets it (a row lock on PostgreSQL, the single writer on SQLite). Releasing
 * deletes the upload row first and gives the counters back only when that
 * delete took the row, so a slot is never given back twice. A received file's
 * slot comes back when its creator deletes the file.
 */
import { type SqlBool, sql } from "kysely";
import type { Db } from "../../db/database";
import { nowIso } from "../../db/database";
import type { FileRequestRow, FileRequestUploadRow } from "../../db/schema";

export type RequestState = "open" | "closed" | "expired" | "full";

/** Whether a request takes uploads now, and if not, why. */
export function requestState(row: FileRequestRow, now = nowIso()): RequestState {
  if (row.status === "closed") return "closed";
  if (row.expires_at !== null && row.expires_at <= now) return "expired";
  if (row.max_files !== null && row.reserved_files >= row.max_files) return "full";
  if (row.max_total_bytes !== null && row.reserved_bytes >= row.max_total_bytes) return "full";
  return "open";
}

/** Takes one slot of `size` bytes; false when the request is closed, expired or has no room. */
export async function takeSlot(db: Db, requestId: string, size: number): Promise<boolean> {
  const now = nowIso();
  const taken = await db
    .updateTable("file_requests")
    .set({
      reserved_files: sql`reserved_files + 1`,
      reserved_bytes: sql`reserved_bytes + ${size}`,
    })
    .where("id", "=", requestId)
    .where("status", "=", "open")
    .where(sql<SqlBool>`(expires_at is null or expires_at > ${now})`)
    .where(sql<SqlBool>`(max_files is null or reserved_files < max_files)`)
    .where(sql<SqlBool>`(max_total_bytes is null or reserved_bytes + ${size} <= max_total_bytes)`)
    .executeTakeFirst();
  return Number(taken.numUpdatedRows) === 1;
}

/**
 * Gives an upload's slot back and forgets the upload: a pending one (refused, aborted,
 * abandoned), or with `status: "received"` one whose file its creator deleted. A no-op when the
 * row is no longer in that state (released already), so a slot is never given back twice.
 */
export async function releaseSlot(
  db: Db,
  upload: Pick<FileRequestUploadRow, "id" | "request_id" | "size">,
  status: "pending" | "received" = "pending",
): Promise<boolean> {
  const removed = await db
    .deleteFrom("file_request_uploads")
    .where("id", "=", upload.id)
    .where("status", "=", status)
    .executeTakeFirst();
  if (Number(removed.numDeletedRows) !== 1) return false;
  await db
    .updateTable("file_requests")
    .set({
      reserved_files: sql`reserved_files - 1`,
      reserved_bytes: sql`reserved_bytes - ${upload.size}`,
    })
    .where("id", "=", upload.request_id)
    .execute();
  return true;
}
