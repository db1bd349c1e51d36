/**
 * What a route description's builder gets as `w` (route-doc.ts): the shared wire
 * schemas, and the few shapes the API repeats. Loaded with the OpenAPI document only.
 */
import type { ErrorCode } from "@clipshare/shared";
import { z } from "zod";

export * from "@clipshare/shared";
export { z };

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
