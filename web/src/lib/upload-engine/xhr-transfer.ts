import { UPLOAD_TIMEOUT_MS } from "@clipshare/shared";
import { TransferError } from "./errors";
import type { PartTransport } from "./multipart-uploader";

/**
 * Sends one request body with upload progress. fetch() cannot report upload
 * progress, so this is the one place the app uses XMLHttpRequest.
 */

export interface TransferRequest {
  method: "PUT" | "POST";
  url: string;
  headers?: Record<string, string>;
  body: Blob | FormData;
  signal?: AbortSignal;
  onProgress?: (loaded: number, total: number) => void;
  /** Default 5 minutes of silence (no progress) before giving up. */
  idleTimeoutMs?: number;
}

export interface TransferResponse {
  status: number;
  /** Response header by (case-insensitive) name; null when absent or not exposed by CORS. */
  header: (name: string) => string | null;
  text: string;
}

/**
 * Resolves with any HTTP answer (check `status`); rejects with TransferError
 * when no answer came: "network" (offline, refused, blocked by CORS), "abort"
 * or "timeout".
 */
export function transfer(request: TransferRequest): Promise<TransferResponse> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const idleMs = request.idleTimeoutMs ?? UPLOAD_TIMEOUT_MS;
    let idleTimer: ReturnType<typeof setTimeout> | null = null;
    let settled = false;

    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      if (idleTimer) clearTimeout(idleTimer);
      request.signal?.removeEventListener("abort", onAbort);
      fn();
    };
    const armIdleTimer = () => {
      if (idleTimer) clearTimeout(idleTimer);
      if (idleMs > 0)
        idleTimer = setTimeout(() => {
          finish(() => reject(new TransferError("timeout")));
          xhr.abort();
        }, idleMs);
    };
    const onAbort = () => {
      finish(() => reject(new TransferError("abort")));
      xhr.abort();
    };

    if (request.signal?.aborted) {
      reject(new TransferError("abort"));
      return;
    }
    request.signal?.addEventListener("abort", onAbort, { once: true });

    xhr.open(request.method, request.url, true);
    for (const [name, value] of Object.entries(request.headers ?? {})) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      armIdleTimer();
      request.onProgress?.(event.loaded, event.lengthComputable ? event.total : 0);
    };
    xhr.onload = () =>
      finish(() =>
        resolve({
          status: xhr.status,
          header: (name) => {
            try {
              return xhr.getResponseHeader(name);
            } catch {
              return null;
            }
          },
          text: typeof xhr.responseText === "string" ? xhr.responseText : "",
        }),
      );
    xhr.onerror = () => finish(() => reject(new TransferError("network")));
    xhr.onabort = () => finish(() => reject(new TransferError("abort")));
    xhr.ontimeout = () => finish(() => reject(new TransferError("timeout")));
    armIdleTimer();
    xhr.send(request.body);
  });
}

/** Part PUTs through XMLHttpRequest; the engine applies its own part timeout. */
export const xhrPartTransport: PartTransport = {
  async put({ url, body, signal, onProgress }) {
    const response = await transfer({ method: "PUT", url, body, signal, onProgress, idleTimeoutMs: 0 });
    return { status: response.status, etag: response.header("ETag") ?? etagFromBody(response.text) };
  },
};

/** ClipShare's own signed upload URLs also answer the ETag in `data.etag`. */
export function etagFromBody(text: string): string | null {
  try {
    const body = JSON.parse(text) as { data?: { etag?: unknown } };
    return typeof body?.data?.etag === "string" ? body.data.etag : null;
  } catch {
    return null;
  }
}
