/**
 * The web app's error catalogue: which text a failed request shows. The error
 * model itself (ApiError, the 401 rules) is the shared API client's, in
 * packages/shared. Pure (no DOM, no i18n instance) so it can be unit-tested;
 * components turn a descriptor into text with `t()` (see lib/use-error-text.ts).
 */

import type { ApiError } from "@clipshare/shared";
import { type ErrorCode, isApiError } from "@clipshare/shared";

export {
  ApiError,
  type ApiErrorInit,
  type ApiErrorKind,
  type AuthFailure,
  classifyUnauthorized,
  isApiError,
  isFileOrUploadPath,
  type RequestContext,
} from "@clipshare/shared";

/** Keys under `errors.` in the locale files. */
export type ClientErrorKey =
  | "unauthorized"
  | "adminSessionExpired"
  | "apiKeyInvalid"
  | "incorrectPassword"
  | "slugTaken"
  | "mountRootOverlap"
  | "httpStatus"
  | "requestFailed"
  | "cancelled"
  | "timeout"
  | "network"
  | "parse"
  | "invalidCredentials"
  | "rateLimited"
  | "rateLimitedSoon"
  | "contentTooLarge"
  | "insufficientStorage"
  | "forbidden"
  | "notFound"
  | "loginFailed"
  | "loginMissingToken"
  | "invalidServerResponse"
  | "adminTokenValidationFailed"
  | "apiKeyValidationFailed"
  | "permissionInfoUnavailable"
  | "insufficientPermissions"
  | "queuedOffline"
  | "unknown";

export type ErrorDescriptor =
  | { key: ClientErrorKey; values?: Record<string, string | number> }
  | { text: string };

/**
 * Server error ids whose meaning our own translated text carries completely, so
 * the translation is preferred over the (English) server sentence.
 */
const TRANSLATED_ERROR_IDS: Partial<Record<ErrorCode, ClientErrorKey>> = {
  invalid_credentials: "invalidCredentials",
  slug_taken: "slugTaken",
  content_too_large: "contentTooLarge",
  token_expired: "adminSessionExpired",
  api_key_invalid: "apiKeyInvalid",
  wrong_password: "incorrectPassword",
  mount_root_overlap: "mountRootOverlap",
};

function serverText(err: ApiError): string | null {
  const m = err.serverMessage?.trim();
  return m ? m : null;
}

/** Any error, mapped onto a translation key or the server's own message. */
export function describeApiError(error: unknown): ErrorDescriptor {
  if (!isApiError(error)) {
    if (error instanceof Error && error.name === "AbortError") return { key: "cancelled" };
    return { key: "unknown" };
  }
  const err = error;
  switch (err.kind) {
    case "network":
      return { key: "network" };
    case "timeout":
      return { key: "timeout" };
    case "abort":
      return { key: "cancelled" };
    case "parse":
      return { key: "parse" };
    case "invalid_response":
      return { key: (err.reason as ClientErrorKey | null) ?? "invalidServerResponse" };
    case "queued":
      return { key: "queuedOffline" };
    case "envelope":
      return serverText(err) ? { text: serverText(err)! } : { key: "requestFailed" };
    case "http":
      return describeHttpError(err);
  }
}

function describeHttpError(err: ApiError): ErrorDescriptor {
  const message = serverText(err);
  const translated = err.errorId ? TRANSLATED_ERROR_IDS[err.errorId] : undefined;
  if (err.status === 401) {
    // A known error id shows our own text in the chosen language, not the server's English one.
    if (err.context === "password") {
      if (translated) return { key: translated };
      return message ? { text: message } : { key: "incorrectPassword" };
    }
    if (err.context === "change-password") return message ? { text: message } : { key: "unauthorized" };
    if (err.authFailure === "admin-expired") return { key: "adminSessionExpired" };
    if (err.authFailure === "api-key-invalid") return { key: "apiKeyInvalid" };
    if (err.authFailure === "api-key-unauthorized")
      return message ? { text: message } : { key: "unauthorized" };
    if (translated) return { key: translated };
    return { key: "unauthorized" };
  }
  if (err.status === 429 || err.errorId === "rate_limited") {
    return err.retryAfter && err.retryAfter > 0
      ? { key: "rateLimited", values: { seconds: err.retryAfter } }
      : { key: "rateLimitedSoon" };
  }
  if (err.errorId === "insufficient_storage" || err.status === 507) {
    return { key: "insufficientStorage", values: { message: message ?? "" } };
  }
  if (translated) return { key: translated };
  if (err.status === 409) return message ? { text: message } : { key: "slugTaken" };
  if (message) return { text: message };
  if (err.status === 403) return { key: "forbidden" };
  if (err.status === 404) return { key: "notFound" };
  if (err.status === 413) return { key: "contentTooLarge" };
  return { key: "httpStatus", values: { status: err.status } };
}
