import { translate } from "../i18n";
import { describeApiError, isApiError } from "./api-error";
import { TransferError, UploadEngineError } from "./upload-engine/errors";
import type { UploadFailure } from "./upload-engine/upload-queue";

/**
 * The upload texts for any error an upload step threw. Pure; the
 * page translates the result. `step` says which call failed, because a
 * failing presign reads "failed to get presigned URL: …".
 */

/** The presign answer lacked what an upload needs. */
export class InvalidPresignError extends Error {
  override readonly name = "InvalidPresignError";
  constructor() {
    super("server returned no valid data");
  }
}

export type UploadStep = "presign" | "transfer" | "commit" | "server" | "multipartInit";

/** An upload step failed; `step` picks the text. */
export class UploadStepError extends Error {
  override readonly name = "UploadStepError";
  constructor(
    readonly step: UploadStep,
    override readonly cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

/** The text of whatever an upload ended with. */
export function describeUploadFailure(error: unknown): UploadFailure {
  return error instanceof UploadStepError
    ? describeUploadError(error.cause, error.step)
    : describeUploadError(error, "transfer");
}

const STORAGE_WORDS = /insufficient storage|exceed|capacity/i;

export function describeUploadError(error: unknown, step: UploadStep): UploadFailure {
  if (error instanceof TransferError) {
    if (error.kind === "abort") return { scope: "upload", key: "cancelled" };
    if (error.kind === "network") return { scope: "upload", key: "network" };
    if (error.kind === "timeout") return { scope: "errors", key: "timeout" };
    return { scope: "upload", key: "failedStatus", values: { status: error.status } };
  }
  if (error instanceof UploadEngineError)
    return { scope: "engine", key: error.code, values: { status: error.status } };
  if (error instanceof InvalidPresignError) return { scope: "upload", key: "noValidData" };
  if (error instanceof Error && error.name === "AbortError") return { scope: "upload", key: "cancelled" };
  if (!isApiError(error)) return { scope: "errors", key: "unknown" };

  if (error.kind === "abort") return { scope: "upload", key: "cancelled" };
  const message = error.serverMessage?.trim() ?? "";
  if (error.kind === "http" || error.kind === "envelope") {
    if (error.errorId === "slug_taken" || (error.status === 409 && !error.errorId))
      return { scope: "upload", key: "slugTaken" };
    if (error.status === 413 || error.errorId === "content_too_large")
      return message
        ? { scope: "upload", key: "tooLarge", values: { message } }
        : { scope: "errors", key: "contentTooLarge" };
    if (error.status === 507 || error.errorId === "insufficient_storage" || STORAGE_WORDS.test(message))
      return { scope: "upload", key: "insufficientStorage", values: { message } };
    if (error.errorId === "storage_config_forbidden") return { scope: "upload", key: "noConfigPermission" };
  }
  if (step === "presign" && (error.kind === "http" || error.kind === "envelope") && message) {
    return { scope: "upload", key: "presignFailed", values: { message } };
  }
  if (step === "multipartInit" && (error.kind === "http" || error.kind === "envelope") && message) {
    return { scope: "engine", key: "multipartInitFailed", values: { message } };
  }
  if (error.kind === "network") return { scope: "upload", key: "network" };
  const d = describeApiError(error);
  return "text" in d ? { scope: "text", text: d.text } : { scope: "errors", key: d.key, values: d.values };
}

/** A transfer that failed before any answer (CORS, unreachable storage): worth trying through the server. */
export function isNetworkTransferError(error: unknown): boolean {
  return error instanceof TransferError && error.kind === "network";
}

/** Files refused because they are already in the upload list (/upload, the explorer). */
export function describeDuplicates(names: string[]): string {
  return translate("upload.alreadyListed", { name: names.join(", "), count: names.length });
}
