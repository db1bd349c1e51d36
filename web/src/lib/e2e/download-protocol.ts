/** What the file page and the service worker agree on for streamed decrypting downloads. */

/** The page opens this path plus a download id; the service worker answers with the decrypted file. */
export const E2E_DOWNLOAD_PATH = "/e2e-download/";
/** Page → worker: a download to serve once (its ciphertext URL and key never leave the browser). */
export const E2E_DOWNLOAD_MESSAGE = "clipshare:e2e-download";
/** Page → worker: `{ type, id }`, the page no longer shows that media (its key is dropped). */
export const E2E_FORGET_MESSAGE = "clipshare:e2e-forget";
/** Worker → page: `{ type, id, loaded, total, state }` while a download runs. */
export const E2E_PROGRESS_MESSAGE = "clipshare:e2e-progress";

export interface E2EDownloadJob {
  id: string;
  /** The ciphertext, as the share page got it (same origin or presigned storage URL). */
  url: string;
  /** The raw key, base64url. */
  key: string;
  name: string;
  type: string;
  /** Plaintext size, for Content-Length and progress. */
  size: number;
  /**
   * Media played in the page (video, audio): served inline, by byte range, as
   * often as the player asks, until the page forgets it or it sits unused.
   * Otherwise the job is one attachment download.
   */
  media?: boolean;
}

export interface E2EProgress {
  type: typeof E2E_PROGRESS_MESSAGE;
  id: string;
  loaded: number;
  total: number;
  state: "running" | "done" | "failed";
}

/** An attachment header for any file name: ASCII fallback plus the UTF-8 name (RFC 6266). */
export function attachmentHeader(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * The one byte range a `Range` header asks of a body of `size` bytes, as
 * [start, end). null: no header, or one to ignore (several ranges, malformed),
 * so the whole body is sent; "unsatisfiable": the range lies past the end.
 */
export function parseByteRange(
  header: string | null,
  size: number,
): { start: number; end: number } | "unsatisfiable" | null {
  const match = header?.trim().match(/^bytes=(\d*)-(\d*)$/);
  if (!match) return null;
  const [, first = "", last = ""] = match;
  if (first === "" && last === "") return null;
  if (first === "") {
    const suffix = Number(last);
    return suffix === 0 || size === 0 ? "unsatisfiable" : { start: Math.max(0, size - suffix), end: size };
  }
  const start = Number(first);
  if (last !== "" && Number(last) < start) return null;
  if (start >= size) return "unsatisfiable";
  return { start, end: last === "" ? size : Math.min(size, Number(last) + 1) };
}
