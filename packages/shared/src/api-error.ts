/**
 * The error model of ClipShare's API client (packages/shared/src/api-client.ts):
 * what kind of failure a request met, the server's error id and message, and
 * what a 401 meant for the credential that was sent. Pure: the web app turns an
 * ApiError into text (web/src/lib/api-error.ts), the CLI into an exit code.
 */
import type { ErrorCode } from "./errors";

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
  /** Client-side reason for kind "invalid_response" (the web app: a key of its errors catalogue). */
  reason?: string;
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
  readonly reason: string | null;

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
