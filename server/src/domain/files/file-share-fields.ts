/**
 * What a file share starts with and how it is shown: the visitor settings of a
 * new share (uploaded or shared from the explorer), the explorer's default
 * remark (which visitors never see), the state of an unfinished upload, and
 * the management row.
 */
import {
  explorerShareRemark,
  type FileShare,
  OFFICE_MIME_TYPES,
  type StorageType,
  type UploadOptions,
} from "@clipshare/shared";
import { ownership } from "../../auth/creator";
import { hashPassword } from "../../auth/passwords";
import type { Principal } from "../../auth/principal";
import { nowIso } from "../../db/database";
import type { FileRow } from "../../db/schema";
import { newSlug, remainingViews, shareState } from "../shares/share-access";

/** The visitor settings a new share starts with, whether uploaded or shared from the explorer. */
export async function newShareFields(
  principal: Principal,
  options: Pick<UploadOptions, "slug" | "password" | "expires_in" | "max_views" | "use_proxy" | "no_log">,
  now = new Date(),
) {
  return {
    slug: options.slug ?? newSlug(),
    password_hash: options.password ? await hashPassword(options.password) : null,
    expires_at: options.expires_in
      ? new Date(now.getTime() + options.expires_in * 3600_000).toISOString()
      : null,
    max_views: options.max_views ?? null,
    views: 0,
    use_proxy: options.use_proxy === false ? 0 : 1,
    no_log: options.no_log ? 1 : 0,
    /** Set for end-to-end encrypted uploads only. */
    encrypted_meta: null as string | null,
    ...ownership(principal),
    created_at: nowIso(now),
    updated_at: nowIso(now),
  } satisfies Partial<FileRow>;
}

/**
 * The remark visitors see: the explorer's default remark names the server
 * path, which is for the owner only, so visitors get none instead.
 */
export function visitorRemark(row: Pick<FileRow, "remark" | "file_path">): string | null {
  if (row.file_path !== null && row.remark === explorerShareRemark(row.file_path)) return null;
  return row.remark;
}

export function isOfficeType(mimetype: string): boolean {
  return OFFICE_MIME_TYPES.includes(mimetype.split(";")[0]!.trim().toLowerCase());
}

/**
 * Where an unfinished upload stands: "uploading" while its upload session is
 * live (the client may still finish it), "incomplete" once the session has
 * lapsed (the next housekeeping pass releases its link suffix). Null for a
 * published share.
 */
export type UploadState = "uploading" | "incomplete" | null;

export function uploadState(
  row: Pick<FileRow, "status">,
  sessionExpiresAt: string | null | undefined,
  now = nowIso(),
): UploadState {
  if (row.status !== "pending") return null;
  return sessionExpiresAt && sessionExpiresAt > now ? "uploading" : "incomplete";
}

/** What names a shared file, for its owner and its visitors alike. */
export function sharedFile(row: FileRow) {
  return {
    id: row.id,
    slug: row.slug,
    filename: row.filename,
    mimetype: row.mimetype,
    size: row.size,
    encrypted_meta: row.encrypted_meta,
  };
}

/** Management row: everything but the password hash. */
export function presentFile(
  row: FileRow & {
    storage_config_name?: string | null;
    storage_provider_type?: string | null;
    key_name?: string | null;
    owner_name?: string | null;
    upload_expires_at?: string | null;
  },
): FileShare {
  const state = shareState(row);
  return {
    ...sharedFile(row),
    etag: row.etag,
    remark: row.remark,
    storage_config_id: row.storage_config_id,
    storage_type: row.storage_type as StorageType,
    storage_path: row.storage_path,
    file_path: row.file_path,
    mount_id: row.mount_id,
    storage_config_name: row.storage_config_name ?? null,
    storage_provider_type: row.storage_provider_type ?? null,
    has_password: row.password_hash !== null,
    expires_at: row.expires_at,
    max_views: row.max_views,
    views: row.views,
    remaining_views: remainingViews(row),
    is_expired: state !== "ok",
    state,
    use_proxy: row.use_proxy === 1,
    status: row.status,
    upload_state: uploadState(row, row.upload_expires_at),
    upload_expires_at: row.status === "pending" ? (row.upload_expires_at ?? null) : null,
    created_by: row.created_by,
    key_name: row.key_name ?? null,
    owner_id: row.owner_id,
    owner_name: row.owner_name ?? null,
    created_at: row.created_at,
    updated_at: row.updated_at,
    url: `/file/${row.slug}`,
  };
}
