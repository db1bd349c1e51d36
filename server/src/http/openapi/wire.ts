/**
 * What a route description's builder gets as `w` (route-doc.ts): the shared wire
 * schemas, and the few shapes the API repeats. Loaded with the OpenAPI document only.
 */

import type { ErrorCode } from "@clipshare/shared";
import * as shared from "@clipshare/shared";
import { z } from "zod";
import { RESPONSE_ALIASES, type ResponseAliasGroup, type WithAliases } from "../wire-aliases";

export * from "@clipshare/shared";
export { z };

/**
 * An answer's schema as it goes on the wire: the shared schema (one spelling)
 * with the camelCase copies `withAliases` adds at the edge, each of its field's type.
 */
export function aliased<S extends z.ZodObject, G extends ResponseAliasGroup>(schema: S, group: G) {
  const copies: Record<string, z.ZodType> = {};
  for (const [field, alias] of group.pairs) {
    const type = schema.shape[field];
    if (type) copies[alias] = type;
  }
  return schema.extend(copies) as unknown as z.ZodType<WithAliases<z.output<S>, G>>;
}

// The shared answers that carry 0.7.3's camelCase copies (these names shadow the plain ones above).
export const createdPaste = aliased(shared.createdPaste, RESPONSE_ALIASES.paste);
export const pasteView = aliased(shared.pasteView, RESPONSE_ALIASES.paste);
export const pasteVisit = aliased(shared.pasteVisit, RESPONSE_ALIASES.paste);
export const pasteDetail = aliased(shared.pasteDetail, RESPONSE_ALIASES.paste);
export const presignedUpload = aliased(shared.presignedUpload, RESPONSE_ALIASES.uploadShare);
export const urlPresignedUpload = aliased(shared.urlPresignedUpload, RESPONSE_ALIASES.uploadShare);
export const shareMultipartStarted = aliased(shared.shareMultipartStarted, RESPONSE_ALIASES.uploadShare);
export const urlMultipartStarted = aliased(shared.urlMultipartStarted, RESPONSE_ALIASES.uploadShare);
export const shareMultipartDone = aliased(shared.shareMultipartDone, RESPONSE_ALIASES.uploadShare);

export const list = <T extends z.ZodType>(schema: T) => z.array(schema);
export const counted = (field: string) => z.strictObject({ [field]: z.number() });
export const pageQuery = z.object({
  limit: z.number().optional(),
  offset: z.number().optional(),
  page: z.number().optional(),
  search: z.string().optional(),
});

/** Error ids several routes answer with, for the `errors` of their descriptions. */
const errorGroup = <T extends ErrorCode[]>(...ids: T) => ids;
/** A visitor opening a share: gone, used up, or behind a password (with the limiter on it). */
export const pasteVisitErrors = errorGroup(
  "paste_not_found",
  "paste_expired",
  "paste_view_limit",
  "password_required",
  "wrong_password",
  "rate_limited",
);
export const fileVisitErrors = errorGroup(
  "file_not_found",
  "file_expired",
  "file_view_limit",
  "password_required",
  "wrong_password",
  "rate_limited",
);
/**
 * A path of the explorer tree: its form, the key's base path, a folder's password, the mount,
 * the storage behind it.
 */
export const fsPathErrors = errorGroup(
  "invalid_path",
  "path_forbidden",
  "virtual_directory",
  "folder_locked",
  "not_found",
  "storage_error",
  "storage_unreachable",
);
/** Looking inside an archive (domain/archives): not one, unreadable, or a zip bomb. */
export const archiveErrors = errorGroup("not_an_archive", "archive_unreadable", "archive_refused");
/** One entry of an archive: refused (a name out of its folder, too large) or missing. */
export const archiveEntryErrors = errorGroup(
  "not_an_archive",
  "archive_unreadable",
  "archive_refused",
  "archive_entry_refused",
  "archive_entry_not_found",
);
/** A visitor's download from the public part: over the address's hourly limit. */
export const visitorDownloadErrors = errorGroup("rate_limited");
/** Bytes streamed in: cut off, not the declared size, or past the quota. */
export const uploadErrors = errorGroup("insufficient_storage", "request_aborted", "size_mismatch");
/** A multipart form carrying a file. */
export const formErrors = errorGroup(
  "invalid_content_type",
  "invalid_multipart",
  "missing_file",
  "field_after_file",
  "invalid_file_name",
);
/** An upload in parts after its start: gone, a bad part, or already completing or released. */
export const multipartErrors = errorGroup(
  "upload_not_found",
  "invalid_part",
  "too_many_parts",
  "invalid_parts",
  "upload_completing",
  "upload_released",
);
/** The storage config a new share goes to. */
export const shareStorageErrors = errorGroup(
  "storage_config_not_found",
  "storage_config_forbidden",
  "no_storage_config",
);
