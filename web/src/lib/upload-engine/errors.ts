/**
 * Errors of the upload engine. Each carries a stable `code`; the app turns
 * the code into a translated text (keys `uploadEngine.errors.<code>`), and
 * `message` holds the English wording for logs.
 */

/** A request body that ended without an HTTP answer we could use. */
export class TransferError extends Error {
  override readonly name = "TransferError";
  constructor(
    readonly kind: "network" | "abort" | "timeout" | "status",
    readonly status = 0,
  ) {
    super(kind === "status" ? `upload failed: ${status}` : `upload ${kind}`);
  }
}

export type UploadEngineErrorCode =
  | "timeout"
  | "network"
  | "http"
  | "partFailed"
  | "infoIncomplete"
  | "notPaused"
  | "uploadGone";

const MESSAGES: Record<UploadEngineErrorCode, string> = {
  timeout: "upload timeout",
  network: "network error",
  http: "HTTP {status}",
  partFailed: "part upload failed",
  infoIncomplete: "upload info incomplete",
  notPaused: "can only resume a paused upload",
  uploadGone: "the upload no longer exists on the server",
};

export class UploadEngineError extends Error {
  override readonly name = "UploadEngineError";
  constructor(
    readonly code: UploadEngineErrorCode,
    readonly status = 0,
  ) {
    super(MESSAGES[code].replace("{status}", String(status)));
  }
}

/** The error a failed part PUT reports (after its retries). */
export function partError(error: unknown): UploadEngineError {
  if (error instanceof UploadEngineError) return error;
  if (error instanceof TransferError) {
    if (error.kind === "timeout") return new UploadEngineError("timeout");
    if (error.kind === "network") return new UploadEngineError("network");
    if (error.kind === "status") return new UploadEngineError("http", error.status);
  }
  return new UploadEngineError("partFailed");
}

/** Strips the quotes (and weak marker) storage puts around an ETag. */
export function cleanEtag(value: string | null | undefined): string | null {
  if (!value) return null;
  const trimmed = value
    .trim()
    .replace(/^W\//, "")
    .replace(/^"+|"+$/g, "");
  return trimmed || null;
}

/** The server's answer for an upload it no longer has (lapsed, aborted): the engine then starts over. */
export function goneWhenNotFound(error: unknown): unknown {
  const e = error as { status?: unknown; errorId?: unknown } | null;
  if (e && e.status === 404 && (e.errorId === "upload_not_found" || e.errorId === "upload_session_not_found"))
    return new UploadEngineError("uploadGone");
  return error;
}
