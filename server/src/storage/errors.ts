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
/** Backend failures we cannot classify; the message keeps the backend's words for the log and the admin. */
export const storageFailure = (message: string, details?: unknown) =>
  new AppError(500, "storage_error", message, details);
export const storageAccessDenied = (message: string) => new AppError(403, "storage_access_denied", message);
export const uploadAborted = () => new AppError(400, "upload_aborted", "Upload was aborted");
export const invalidRange = () => new AppError(400, "invalid_range", "Invalid byte range");
