import { AppError, conflict, forbidden, notFound } from "../errors";

/**
 * The storage layer's error vocabulary. Drivers translate backend failures
 * (errno codes, S3 error names) into these so callers never need to know which
 * backend answered.
 */
export const invalidPath = (message: string, details?: unknown) =>
  new AppError(400, "invalid_path", message, details);
export const pathOutsideRoot = (path: string) =>
  forbidden(`Path leaves the storage root: ${path}`, "path_outside_root");
export const storageNotFound = (path: string) => notFound(`Not found: ${path}`, "not_found");
export const targetExists = (path: string) => conflict(`Target already exists: ${path}`, "target_exists");
export const notADirectory = (path: string) => conflict(`Not a directory: ${path}`, "not_a_directory");
export const isADirectory = (path: string) => conflict(`Is a directory: ${path}`, "is_a_directory");
export const directoryNotEmpty = (path: string) =>
  conflict(`Directory is not empty: ${path}`, "directory_not_empty");
export const sizeMismatch = (expected: number, actual: number) =>
  new AppError(400, "size_mismatch", `Expected ${expected} bytes but received ${actual}`, {
    expected,
    actual,
  });
export const rangeNotSatisfiable = (size: number) =>
  new AppError(
    416,
    "range_not_satisfiable",
    "Requested range is not satisfiable",
    { size },
    {
      "Content-Range": `bytes */${size}`,
    },
  );
export const uploadNotFound = (uploadId: string) =>
  notFound(`Multipart upload not found: ${uploadId}`, "upload_not_found");
export const invalidPart = (message: string) => new AppError(400, "invalid_part", message);
export const notSupported = (operation: string) =>
  new AppError(501, "not_supported", `This storage does not support ${operation}`);
/**
 * What a storage backend said, kept for the log and the storage test (both admin-only); clients
 * get ClipShare's own sentence, never the backend's or its SDK's text.
 */
export interface BackendFailure {
  backend: string;
  status?: number | undefined;
  code?: string | undefined;
}

/** The backend's text of a storage error, if it carries one (see BackendFailure). */
export function backendText(e: unknown): string | null {
  const details = (e as { details?: Partial<BackendFailure> } | null)?.details;
  return typeof details?.backend === "string" ? details.backend : null;
}

/** A backend answered, but with a failure we cannot classify (502: the fault is upstream). */
export const storageFailure = (message: string, details?: BackendFailure) =>
  new AppError(502, "storage_error", message, details);
/** The backend could not be reached at all (refused, reset, timed out, no such host). */
export const storageUnreachable = (details: BackendFailure) =>
  new AppError(503, "storage_unreachable", "The storage could not be reached; try again later", details, {
    "Retry-After": "5",
  });
export const storageAccessDenied = (message: string) => new AppError(403, "storage_access_denied", message);
export const uploadAborted = () => new AppError(400, "upload_aborted", "Upload was aborted");
export const invalidRange = () => new AppError(400, "invalid_range", "Invalid byte range");
