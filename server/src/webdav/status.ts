/**
 * The one place where errors become WebDAV responses. Domain and storage code
 * throw AppError with a stable id; the table below says which DAV status each
 * id means (RFC 4918 §9 lists the statuses per method). Protocol-level
 * refusals throw DavError, which may carry a precondition element for the
 * RFC's `<D:error>` body (e.g. lock-token-submitted, propfind-finite-depth).
 */

import { type AppError, isAppError } from "../errors";
import type { Logger } from "../logger";
import { escapeText } from "./xml";

export class DavError extends Error {
  override readonly name = "DavError";
  constructor(
    readonly status: number,
    message: string,
    /** Inner XML of a `<D:error>` body, e.g. `<D:propfind-finite-depth/>`. */
    readonly condition?: string,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

/** AppError id → DAV status, where it differs from the AppError's own status. */
const BY_ERROR_ID: Record<string, number> = {
  // Missing things.
  not_found: 404,
  mount_not_found: 404,
  file_not_found: 404,
  // A namespace conflict: intermediate collection missing, a file in the way, not empty.
  parent_missing: 409,
  not_a_directory: 409,
  is_a_directory: 409,
  directory_not_empty: 409,
  // COPY/MOVE onto an existing target without permission to overwrite it (RFC 4918 §9.8.5, §9.9.4).
  target_exists: 412,
  // MKCOL on an existing resource (RFC 4918 §9.3.1).
  dir_exists: 405,
  // Places that are not storage: the tree's root, the virtual part, mount points themselves.
  root_forbidden: 403,
  virtual_directory: 403,
  mount_root: 403,
  path_forbidden: 403,
  permission_denied: 403,
  path_outside_root: 403,
  storage_access_denied: 403,
  // Between two storages a MOVE is a copy; a backend that cannot be reached is a bad gateway.
  cross_storage: 502,
  storage_error: 502,
  insufficient_storage: 507,
  content_too_large: 413,
  range_not_satisfiable: 416,
  rate_limited: 429,
  not_supported: 501,
  invalid_path: 400,
};

export function davStatusOf(e: AppError): number {
  return BY_ERROR_ID[e.error] ?? e.status;
}

const REASONS: Record<number, string> = {
  200: "OK",
  201: "Created",
  204: "No Content",
  207: "Multi-Status",
  302: "Found",
  304: "Not Modified",
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  412: "Precondition Failed",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  416: "Range Not Satisfiable",
  423: "Locked",
  424: "Failed Dependency",
  429: "Too Many Requests",
  500: "Internal Server Error",
  501: "Not Implemented",
  502: "Bad Gateway",
  507: "Insufficient Storage",
};

export function statusLine(status: number): string {
  return `HTTP/1.1 ${status} ${REASONS[status] ?? "Unknown"}`;
}

export const XML_TYPE = "application/xml; charset=utf-8";

export function xmlDocument(body: string): string {
  return `<?xml version="1.0" encoding="utf-8"?>\n${body}`;
}

/** The `<D:error>` body of a failed precondition or postcondition (RFC 4918 §16). */
export function errorBody(condition: string): string {
  return xmlDocument(`<D:error xmlns:D="DAV:">${condition}</D:error>`);
}

/** Turns anything thrown while handling a DAV request into its response. */
export function davErrorResponse(e: unknown, log?: Logger): Response {
  if (e instanceof DavError) {
    const headers = new Headers(e.headers);
    if (e.condition) {
      headers.set("Content-Type", XML_TYPE);
      return new Response(errorBody(e.condition), { status: e.status, headers });
    }
    headers.set("Content-Type", "text/plain; charset=utf-8");
    return new Response(`${e.message}\n`, { status: e.status, headers });
  }
  if (isAppError(e)) {
    const status = davStatusOf(e);
    const headers = new Headers(e.headers);
    headers.set("Content-Type", "text/plain; charset=utf-8");
    if (status === 401) headers.set("WWW-Authenticate", 'Basic realm="ClipShare"');
    if (status >= 500) log?.warn({ err: e }, "WebDAV request failed");
    return new Response(`${e.message}\n`, { status, headers });
  }
  log?.error({ err: e }, "Unhandled WebDAV error");
  return new Response("Internal server error\n", {
    status: 500,
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
}

/** `<D:href>` of a lock root inside a lock-token-submitted condition. */
export function lockTokenSubmitted(hrefs: string[]): DavError {
  const inner = hrefs.map((h) => `<D:href>${escapeText(h)}</D:href>`).join("");
  return new DavError(
    423,
    "The resource is locked",
    `<D:lock-token-submitted>${inner}</D:lock-token-submitted>`,
  );
}
