import type { ErrorCode } from "@clipshare/shared";

/**
 * Transport-free application errors. Domain, storage and auth code throw these;
 * only http/error-handler.ts (JSON envelope) and webdav/ (DAV statuses) turn them
 * into responses. `error` is one of the shared ErrorCode ids (packages/shared
 * errors.ts, which also holds its status and Chinese text); `message` is a human
 * English sentence.
 */
export class AppError extends Error {
  override readonly name = "AppError";
  constructor(
    readonly status: number,
    readonly error: ErrorCode,
    message: string,
    readonly details?: unknown,
    /** Extra response headers, e.g. Retry-After on 429. */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, error: ErrorCode = "bad_request", details?: unknown) =>
  new AppError(400, error, message, details);
export const validationFailed = (message: string, details?: unknown) =>
  new AppError(400, "validation_failed", message, details);
export const unauthorized = (message = "Authentication required", error: ErrorCode = "unauthorized") =>
  new AppError(401, error, message);
export const forbidden = (message = "Forbidden", error: ErrorCode = "forbidden") =>
  new AppError(403, error, message);
export const notFound = (message = "Requested resource not found", error: ErrorCode = "not_found") =>
  new AppError(404, error, message);
export const conflict = (message: string, error: ErrorCode = "conflict") => new AppError(409, error, message);
export const gone = (message: string, error: ErrorCode = "gone") => new AppError(410, error, message);
export const payloadTooLarge = (message = "Content too large", error: ErrorCode = "content_too_large") =>
  new AppError(413, error, message);
export const tooManyRequests = (retryAfterSeconds: number, message = "Too many attempts, try again later") =>
  new AppError(
    429,
    "rate_limited",
    message,
    { retryAfter: retryAfterSeconds },
    {
      "Retry-After": String(retryAfterSeconds),
    },
  );
export const insufficientStorage = (message: string) => new AppError(507, "insufficient_storage", message);

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;
