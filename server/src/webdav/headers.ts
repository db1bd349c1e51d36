/**
 * URLs and request headers of the WebDAV protocol: mapping /dav URLs to
 * virtual paths and back, Depth, Overwrite, Destination, Timeout, Lock-Token.
 * Every malformed value is a DavError 400 here, before any work happens.
 */
import { normalizeVirtualPath } from "../domain/fs/vpath";
import { isAppError } from "../errors";
import { LOCK_TIMEOUT_DEFAULT, LOCK_TIMEOUT_MAX } from "./lock-store";
import { DavError } from "./status";

export const DAV_PREFIX = "/dav";

/** A /dav request's target: the normalized virtual path and whether the URL ended with "/". */
export interface DavTarget {
  path: string;
  trailingSlash: boolean;
}

/**
 * `/dav/a%20b/c/` → { path: "/a b/c", trailingSlash: true }. Each segment is
 * percent-decoded once; an encoded "/" inside a segment is refused rather than
 * turned into a separator. The virtual-path rules (no `..`, controls, length)
 * come from the file-system layer.
 */
export function targetOfPathname(pathname: string): DavTarget | null {
  if (pathname !== DAV_PREFIX && !pathname.startsWith(`${DAV_PREFIX}/`)) return null;
  const rest = pathname.slice(DAV_PREFIX.length);
  const segments: string[] = [];
  for (const raw of rest.split("/")) {
    if (raw === "") continue;
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      throw new DavError(400, "Malformed percent-encoding in the URL");
    }
    if (segment.includes("/") || segment.includes("\\")) {
      throw new DavError(400, "A path segment must not contain an encoded separator");
    }
    segments.push(segment);
  }
  let path: string;
  try {
    path = normalizeVirtualPath(`/${segments.join("/")}`);
  } catch (e) {
    if (isAppError(e)) throw new DavError(400, e.message);
    throw e;
  }
  return { path, trailingSlash: rest.endsWith("/") && segments.length > 0 };
}

/** Percent-encodes one path segment for an href (RFC 3986 pchar, kept readable). */
function encodeSegment(segment: string): string {
  return encodeURIComponent(segment).replace(/%(?:40|3A|24|2C|3B|3D|2B|26)/g, (m) => decodeURIComponent(m));
}

/** The href of a virtual path; collections end with "/". */
export function hrefOf(path: string, isCollection: boolean): string {
  if (path === "/") return `${DAV_PREFIX}/`;
  const encoded = path.split("/").map(encodeSegment).join("/");
  return `${DAV_PREFIX}${encoded}${isCollection ? "/" : ""}`;
}

/**
 * A URL from a header (Destination, If resource tags): an absolute URI on
 * this server, or an absolute path. Null when it names another host or lies
 * outside /dav. The path is taken as sent: a URL parser would resolve
 * "%2e%2e" segments before the path rules could refuse them.
 */
export function targetOfUrl(value: string, requestUrl: string, publicOrigin: string): DavTarget | null {
  const m = /^([a-z][a-z0-9+.-]*:)\/\/([^/?#]*)(.*)$/i.exec(value);
  let rest: string;
  if (m) {
    let origin: string;
    try {
      origin = new URL(`${m[1]}//${m[2]}`).origin;
    } catch {
      throw new DavError(400, "Malformed URL");
    }
    if (origin !== new URL(requestUrl).origin && origin !== publicOrigin) return null;
    rest = m[3]!;
  } else if (value.startsWith("/")) {
    rest = value;
  } else {
    throw new DavError(400, "A URL must be absolute or an absolute path");
  }
  return targetOfPathname(pathOfTarget(rest));
}

/** The path part of an origin-form target or URL remainder ("" → "/"). */
export function pathOfTarget(rest: string): string {
  const end = rest.search(/[?#]/);
  const path = end === -1 ? rest : rest.slice(0, end);
  return path === "" ? "/" : path;
}

export type Depth = "0" | "1" | "infinity";

export function parseDepth(header: string | undefined, fallback: Depth, allowed: readonly Depth[]): Depth {
  if (header === undefined || header.trim() === "") return fallback;
  const value = header.trim().toLowerCase();
  if ((value === "0" || value === "1" || value === "infinity") && allowed.includes(value)) return value;
  throw new DavError(400, `Depth must be ${allowed.join(" or ")}`);
}

/** Overwrite: T (the default) or F. */
export function parseOverwrite(header: string | undefined): boolean {
  if (header === undefined) return true;
  const value = header.trim().toUpperCase();
  if (value === "T") return true;
  if (value === "F") return false;
  throw new DavError(400, "Overwrite must be T or F");
}

/** Timeout: the first acceptable of "Second-N" / "Infinite", capped; the default when absent or unusable. */
export function parseTimeout(header: string | undefined): number {
  if (!header) return LOCK_TIMEOUT_DEFAULT;
  for (const part of header.split(",")) {
    const value = part.trim();
    if (/^infinite$/i.test(value)) return LOCK_TIMEOUT_MAX;
    const m = /^second-(\d{1,12})$/i.exec(value);
    if (m) return Math.min(Math.max(Number(m[1]), 1), LOCK_TIMEOUT_MAX);
  }
  return LOCK_TIMEOUT_DEFAULT;
}

/** Lock-Token: <coded-url>. */
export function parseLockToken(header: string | undefined): string {
  const m = header ? /^\s*<([^<>\s]+)>\s*$/.exec(header) : null;
  if (!m) throw new DavError(400, "Lock-Token header must be a Coded-URL: <token>");
  return m[1]!;
}
