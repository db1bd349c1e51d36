/** What the file page and the service worker agree on for streamed decrypting downloads. */

/** The page opens this path plus a download id; the service worker answers with the decrypted file. */
export const E2E_DOWNLOAD_PATH = "/e2e-download/";
/** Page → worker: a download to serve once (its ciphertext URL and key never leave the browser). */
export const E2E_DOWNLOAD_MESSAGE = "clipshare:e2e-download";
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
