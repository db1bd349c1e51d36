/**
 * What the two sides of a file request share: its errors, its creator, and
 * its wire shape (the creator's view of a request and of what it received).
 */
import type { FileRequest, FileRequestUpload } from "@clipshare/shared";
import { fileRequestPagePath } from "@clipshare/shared";
import type { Principal } from "../../auth/principal";
import type { Db } from "../../db/database";
import type { FileRequestRow, FileRequestUploadRow } from "../../db/schema";
import { AppError, conflict, gone, notFound } from "../../errors";
import { resolveCreator } from "../tasks/creator";
import { requestState } from "./request-slots";

export const requestGone = () => notFound("File request does not exist", "request_not_found");
export const uploadGone = () =>
  notFound("Upload does not exist or has expired; start the upload again", "upload_not_found");

/** The error a request that takes no upload answers with. */
export function refusal(row: FileRequestRow, size = 0): AppError {
  const state = requestState(row);
  if (state === "closed") return gone("This file request is closed", "request_closed");
  if (state === "expired") return gone("This file request has expired", "request_expired");
  if (row.max_total_bytes !== null && row.reserved_bytes + size > row.max_total_bytes && state === "open")
    return new AppError(409, "request_full", "The file is larger than what this request still takes");
  return conflict("This file request has received all the files it takes", "request_full");
}

/** The principal a request acts as; a request lives on its creator's rights, so a deleted or expired key closes it. */
export async function requestCreator(db: Db, row: FileRequestRow): Promise<Principal> {
  const creator = await resolveCreator(db, row.created_by);
  if (!creator) throw gone("This file request is closed", "request_closed");
  return creator;
}

/** One upload of the request, if it is in `status`. */
export function findUpload(db: Db, requestId: string, uploadId: string, status: "pending" | "received") {
  return db
    .selectFrom("file_request_uploads")
    .selectAll()
    .where("id", "=", uploadId)
    .where("request_id", "=", requestId)
    .where("status", "=", status)
    .executeTakeFirst();
}

export function allowedTypes(row: FileRequestRow): string[] | null {
  return row.allowed_types ? (JSON.parse(row.allowed_types) as string[]) : null;
}

export function presentRequest(row: FileRequestRow & { owner_name?: string | null }): FileRequest {
  return {
    id: row.id,
    slug: row.slug,
    url: fileRequestPagePath(row.slug),
    title: row.title,
    message: row.message,
    target_kind: row.target_kind === "folder" ? "folder" : "share",
    storage_config_id: row.storage_config_id,
    folder_path: row.folder_path,
    max_files: row.max_files,
    max_file_bytes: row.max_file_bytes,
    max_total_bytes: row.max_total_bytes,
    allowed_types: allowedTypes(row),
    expires_at: row.expires_at,
    has_password: row.password_hash !== null,
    show_received: row.show_received === 1,
    status: row.status === "closed" ? "closed" : "open",
    state: requestState(row),
    reserved_files: row.reserved_files,
    reserved_bytes: row.reserved_bytes,
    created_by: row.created_by,
    owner_id: row.owner_id,
    owner_name: row.owner_name ?? null,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function presentUpload(row: FileRequestUploadRow & { file_slug: string | null }): FileRequestUpload {
  return {
    id: row.id,
    status: row.status === "received" ? "received" : "pending",
    filename: row.filename,
    size: row.size,
    file_id: row.file_id,
    file_slug: row.file_slug,
    path: row.path,
    uploader_name: row.uploader_name,
    note: row.note,
    created_at: row.created_at,
  };
}
