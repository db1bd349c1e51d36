/**
 * The client's error model and the error catalogue: which text a
 * failed request shows. Pure (no DOM, no i18n instance) so it can be unit-tested;
 * components turn a descriptor into text with `t()` (see lib/use-error-text.ts).
 */
import type { ErrorCode } from "@clipshare/shared";

export type ApiErrorKind =
  /** Non-2xx HTTP status. */
  | "http"
  /** HTTP 2xx but the envelope's `code` is not 200/201/202. */
  | "envelope"
  /** fetch itself failed (offline, DNS, CORS, connection refused). */
  | "network"
  | "timeout"
  /** Cancelled through the caller's AbortSignal. */
  | "abort"
  /** The body claimed to be JSON but was not. */
  | "parse"
  /** The response was well-formed but not what the caller needs (e.g. login without a token). */
  | "invalid_response"
  /** No network: the write was kept in the offline queue and will be sent later. */
  | "queued";

/** How a request should treat a 401. */
export type RequestContext =
  | "default"
  /** Share-password verification: show the server message or "incorrect password". */
  | "password"
  /** Change of admin credentials: show the server message, never log out. */
  | "change-password"
  /** Sign-in and credential checks during sign-in: never log out automatically. */
  | "login";

/** What a 401 meant for the signed-in principal. */
export type AuthFailure =
  /** The admin token was refused: the client logs out. */
  | "admin-expired"
  /** The API key was refused: the client logs out. */
  | "api-key-invalid"
  /** An API key was refused on a file/upload path for lack of access: shown, no logout. */
  | "api-key-unauthorized";

export interface ApiErrorInit {
  kind: ApiErrorKind;
  status?: number;
  /** The server's `error` id (null when absent or unknown to this version). */
  errorId?: ErrorCode | null;
  serverMessage?: string | null;
  context?: RequestContext;
  authFailure?: AuthFailure | null;
  /** Seconds from a Retry-After header (429). */
  retryAfter?: number | null;
  details?: unknown;
  /** Client-side reason for kind "invalid_response" (a key of the errors catalogue). */
  reason?: ClientErrorKey;
  cause?: unknown;
}

export class ApiError extends Error {
  override readonly name = "ApiError";
  readonly kind: ApiErrorKind;
  readonly status: number;
  readonly errorId: ErrorCode | null;
  readonly serverMessage: string | null;
  readonly context: RequestContext;
  readonly authFailure: AuthFailure | null;
  readonly retryAfter: number | null;
  readonly details: unknown;
  readonly reason: ClientErrorKey | null;

  constructor(init: ApiErrorInit) {
    super(init.serverMessage || init.reason || `${init.kind}${init.status ? ` ${init.status}` : ""}`, {
      cause: init.cause,
    });
    this.kind = init.kind;
    this.status = init.status ?? 0;
    this.errorId = init.errorId ?? null;
    this.serverMessage = init.serverMessage ?? null;
    this.context = init.context ?? "default";
    this.authFailure = init.authFailure ?? null;
    this.retryAfter = init.retryAfter ?? null;
    this.details = init.details;
    this.reason = init.reason ?? null;
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

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
      return { key: err.reason ?? "invalidServerResponse" };
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

/**
 * Paths where an API key's 401 may mean "no access to this resource" rather
 * than "your key is invalid" (file and upload paths).
 */
export function isFileOrUploadPath(path: string): boolean {
  const p = path.split("?")[0] ?? "";
  return /\/(files|upload|upload-direct|s3|url)(\/|$)/.test(p) || /\/fs\/(upload|multipart|presign)/.test(p);
}

/** Error ids that always mean the presented credential itself is bad. */
const CREDENTIAL_REJECTED_IDS = new Set<ErrorCode>(["api_key_invalid", "token_expired"]);

/** Decide what a 401 means for the principal that sent the request. */
export function classifyUnauthorized(input: {
  path: string;
  authType: "admin" | "apikey" | null;
  context: RequestContext;
  errorId: ErrorCode | null;
}): AuthFailure | null {
  if (input.context !== "default") return null;
  if (input.authType === "admin") return "admin-expired";
  if (input.authType === "apikey") {
    if (isFileOrUploadPath(input.path) && !(input.errorId && CREDENTIAL_REJECTED_IDS.has(input.errorId))) {
      return "api-key-unauthorized";
    }
    return "api-key-invalid";
  }
  return null;
}
