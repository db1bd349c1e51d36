/**
 * Streams one stored object as an HTTP response: Range (206/416), ETag and
 * Last-Modified validators (304), HEAD, Content-Disposition, and the headers
 * that keep user content from running as a page on our origin. Shared by file
 * shares, the explorer download, the signed proxy and WebDAV GET.
 */
import type { Context } from "hono";
import { contentDisposition, type Disposition } from "../storage/content-disposition";
import { storageNotFound } from "../storage/errors";
import type { ReadRange, StorageDriver, StorageEntry } from "../storage/types";
import { nodeBody } from "./node-body";
import { offloadHeader } from "./offload";
import { pdfSecurityPolicy } from "./security-headers";
import type { AppEnv } from "./types";

/** Types a browser may render inline without being able to run script as our origin. */
const INLINE_SAFE = [
  /^image\/(png|jpe?g|gif|webp|avif|bmp|x-icon|vnd\.microsoft\.icon)$/,
  /^video\//,
  /^audio\//,
  /^application\/pdf$/,
  /^text\/plain$/,
];

/** Text types are shown as plain text when inline (Markdown, CSV, code): never as HTML. */
const TEXT_AS_PLAIN =
  /^(text\/(markdown|csv|x-[\w.+-]+|css|javascript)|application\/(json|x-yaml|yaml|toml|x-sh|javascript))$/;

export function isInlineSafe(contentType: string): boolean {
  const base = contentType.split(";")[0]!.trim().toLowerCase();
  return INLINE_SAFE.some((re) => re.test(base)) || TEXT_AS_PLAIN.test(base);
}

/** The Content-Type we actually send for a stored type, and whether it may be inline. */
export function responseType(
  contentType: string,
  wanted: Disposition,
): { type: string; disposition: Disposition } {
  const base = contentType.split(";")[0]!.trim().toLowerCase() || "application/octet-stream";
  if (wanted === "attachment")
    return { type: base.startsWith("text/") ? `${base}; charset=utf-8` : base, disposition: "attachment" };
  if (!isInlineSafe(base)) return { type: base, disposition: "attachment" };
  if (base === "text/plain" || TEXT_AS_PLAIN.test(base))
    return { type: "text/plain; charset=utf-8", disposition: "inline" };
  return { type: base, disposition: "inline" };
}

/** Parses a single-range header; multi-range and malformed headers serve the whole object (RFC 9110 allows it). */
export function parseRange(header: string | undefined): ReadRange | undefined {
  if (!header) return undefined;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === "" && m[2] === "")) return undefined;
  if (m[1] === "") return { suffix: Number(m[2]) };
  return { start: Number(m[1]), ...(m[2] !== "" ? { end: Number(m[2]) } : {}) };
}

const quoteEtag = (etag: string) => `"${etag}"`;

/** Whether an If-None-Match / If-Range list names `etag` (weak or strong, or `*`). */
export function etagMatches(header: string, etag: string | null): boolean {
  if (!etag) return false;
  return header
    .split(",")
    .map((t) =>
      t
        .trim()
        .replace(/^W\//, "")
        .replace(/^"(.*)"$/, "$1"),
    )
    .some((t) => t === "*" || t === etag);
}

/** Whether the request carries a validator (If-None-Match, If-Modified-Since): a revalidation. */
export function isRevalidation(c: Context): boolean {
  return Boolean(c.req.header("if-none-match") || c.req.header("if-modified-since"));
}

/** Whether the client's copy is still `meta`'s version, so the answer is 304 with no body. */
export function notModifiedFor(c: Context, meta: Pick<StorageEntry, "etag" | "modified">): boolean {
  const ifNoneMatch = c.req.header("if-none-match");
  if (ifNoneMatch) return etagMatches(ifNoneMatch, meta.etag);
  const ifModifiedSince = c.req.header("if-modified-since");
  return Boolean(
    ifModifiedSince &&
      meta.modified &&
      Math.floor(meta.modified.getTime() / 1000) <= Date.parse(ifModifiedSince) / 1000,
  );
}

export interface ServeOptions {
  filename: string;
  /** Stored or known type; falls back to what storage reports. */
  contentType?: string | null;
  disposition: Disposition;
  cacheControl?: string;
  /** Known metadata saves a storage round trip for conditional and HEAD requests. */
  entry?: StorageEntry | null;
  /**
   * Told once, for a GET, how many body bytes went out: when the body ends or
   * the client goes away (0 for a 304; null when a proxy sends the file).
   */
  onSent?: (bytes: number | null) => void;
}

export async function serveObject(
  c: Context,
  driver: StorageDriver,
  path: string,
  options: ServeOptions,
): Promise<Response> {
  const method = c.req.method;
  const offload = method === "GET" ? await offloadHeader(c, driver, path) : null;
  const needsStat = method === "HEAD" || Boolean(offload || isRevalidation(c) || c.req.header("if-range"));
  const meta = options.entry ?? (needsStat ? await driver.stat(path) : null);
  if (needsStat && (!meta || meta.isDirectory)) throw storageNotFound(path);

  const headers = new Headers();
  const setCommon = (etag: string | null, modified: Date | null, type: string) => {
    setUserContentHeaders(c, headers, options.contentType || type, options.disposition, options.filename);
    headers.set("Accept-Ranges", "bytes");
    headers.set("Cache-Control", options.cacheControl ?? "private, no-cache");
    if (etag) headers.set("ETag", quoteEtag(etag));
    if (modified) headers.set("Last-Modified", modified.toUTCString());
  };

  if (meta) {
    if (notModifiedFor(c, meta)) {
      setCommon(meta.etag, meta.modified, meta.contentType ?? "application/octet-stream");
      headers.delete("Content-Type");
      if (method === "GET") options.onSent?.(0);
      return new Response(null, { status: 304, headers });
    }
    if (method === "HEAD") {
      setCommon(meta.etag, meta.modified, meta.contentType ?? "application/octet-stream");
      headers.set("Content-Length", String(meta.size));
      return new Response(null, { status: 200, headers });
    }
  }

  let range = parseRange(c.req.header("range"));
  const ifRange = c.req.header("if-range");
  if (range && ifRange && meta) {
    const stillSame =
      ifRange.startsWith('"') || ifRange.startsWith("W/")
        ? etagMatches(ifRange, meta.etag)
        : meta.modified !== null && Math.floor(meta.modified.getTime() / 1000) <= Date.parse(ifRange) / 1000;
    if (!stillSame) range = undefined;
  }
  // The proxy reads the Range header itself; a range this If-Range voided is served here in full.
  if (offload && meta && !(c.req.header("range") && !range)) {
    setCommon(meta.etag, meta.modified, meta.contentType ?? "application/octet-stream");
    headers.set(offload[0], offload[1]);
    options.onSent?.(null);
    return new Response(null, { status: 200, headers });
  }
  const result = await driver.read(path, range);
  setCommon(result.etag, result.modified, result.contentType);
  headers.set("Content-Length", String(result.contentLength));
  let status = 200;
  if (result.range) {
    status = 206;
    headers.set("Content-Range", `bytes ${result.range.start}-${result.range.end}/${result.size}`);
  }
  return new Response(nodeBody(c, result.body, options.onSent), { status, headers });
}

/**
 * The headers that let user content be shown without running as a page on our origin:
 * the type actually sent (HTML and the like only as attachments), nosniff, and a policy
 * under which nothing runs. Every response carrying user bytes sets them here.
 */
export function setUserContentHeaders(
  c: Context,
  headers: Headers,
  contentType: string,
  wanted: Disposition,
  filename: string,
): void {
  const { type, disposition } = responseType(contentType, wanted);
  headers.set("Content-Type", type);
  headers.set("Content-Disposition", contentDisposition(disposition, filename));
  headers.set("X-Content-Type-Options", "nosniff");
  // A sandbox stops the browser's PDF viewer; PDFs get their own policy (http/security-headers.ts).
  headers.set(
    "Content-Security-Policy",
    type.startsWith("application/pdf") ? pdfPolicyOf(c) : sandboxPolicy(type),
  );
}

/** Set by request-context; a bare app (storage contract tests) gets the strictest frame rule. */
const pdfPolicyOf = (c: Context) =>
  (c as Context<AppEnv>).get("pdfPolicy") ?? pdfSecurityPolicy({ corsOrigins: [] });

/**
 * The policy of a served object: nothing may run or load. A browser opening
 * audio or video directly builds a player that fetches the same URL again, so
 * media may load from here and the sandbox keeps the document's origin (an
 * opaque origin would make that fetch cross-origin); scripts stay off.
 */
function sandboxPolicy(type: string): string {
  if (/^(audio|video)\//i.test(type))
    return "default-src 'none'; style-src 'unsafe-inline'; media-src 'self'; sandbox allow-same-origin";
  return "default-src 'none'; style-src 'unsafe-inline'; sandbox";
}
