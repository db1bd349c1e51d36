/**
 * Streamed decrypting downloads of end-to-end encrypted file shares. The page
 * posts a job (ciphertext URL, key, name); opening E2E_DOWNLOAD_PATH + id then
 * gets a Response whose body is the ciphertext fetched and decrypted chunk by
 * chunk, so a file of any size goes to disk without sitting in memory. A job
 * serves one download and is forgotten; a tampered or cut-short file fails
 * the download instead of completing it.
 */
import { decryptStream, fromBase64Url, importKey } from "@clipshare/shared";
import {
  attachmentHeader,
  E2E_DOWNLOAD_MESSAGE,
  E2E_DOWNLOAD_PATH,
  E2E_PROGRESS_MESSAGE,
  type E2EDownloadJob,
  type E2EProgress,
} from "../lib/e2e/download-protocol";

declare const self: ServiceWorkerGlobalScope;

/** Progress is reported at most every this many bytes. */
const PROGRESS_STEP = 1024 * 1024;
/** Jobs nobody opened are dropped after this long (the key goes with them). */
const JOB_TTL_MS = 60_000;

const jobs = new Map<string, { job: E2EDownloadJob; clientId: string | null }>();

async function report(clientId: string | null, progress: Omit<E2EProgress, "type">) {
  if (!clientId) return;
  const client = await self.clients.get(clientId);
  client?.postMessage({ type: E2E_PROGRESS_MESSAGE, ...progress } satisfies E2EProgress);
}

async function serve(id: string): Promise<Response> {
  const entry = jobs.get(id);
  jobs.delete(id);
  if (!entry) {
    return new Response("This download has already started or expired; start it again from its page.\n", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  const { job, clientId } = entry;
  const raw = fromBase64Url(job.key);
  const upstream = await fetch(job.url, { credentials: "include" }).catch(() => null);
  if (!upstream?.ok || !upstream.body || !raw) {
    void report(clientId, { id, loaded: 0, total: job.size, state: "failed" });
    const status = upstream && !upstream.ok ? upstream.status : 502;
    return new Response(`The encrypted file could not be fetched (HTTP ${status}).\n`, {
      status,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  const key = await importKey(raw);
  const decrypted = upstream.body.pipeThrough(decryptStream(key)).getReader();
  let loaded = 0;
  let reported = 0;
  // A chunk that does not authenticate (changed or cut short) errors the stream: the browser
  // fails the download, and the page is told so it can say why.
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await decrypted.read();
        if (done) {
          void report(clientId, { id, loaded, total: job.size, state: "done" });
          controller.close();
          return;
        }
        loaded += value.length;
        if (loaded - reported >= PROGRESS_STEP) {
          reported = loaded;
          void report(clientId, { id, loaded, total: job.size, state: "running" });
        }
        controller.enqueue(value);
      } catch (error) {
        void report(clientId, { id, loaded, total: job.size, state: "failed" });
        controller.error(error);
      }
    },
    cancel(reason) {
      return decrypted.cancel(reason);
    },
  });
  return new Response(body, {
    headers: {
      "Content-Type": job.type || "application/octet-stream",
      "Content-Disposition": attachmentHeader(job.name),
      "Content-Length": String(job.size),
      "Cache-Control": "no-store",
    },
  });
}

/** Call before any other fetch listener: downloads are navigations the app shell must not answer. */
export function installEncryptedDownloads(): void {
  self.addEventListener("message", (event) => {
    const data = event.data as { type?: string; job?: E2EDownloadJob } | null;
    if (data?.type !== E2E_DOWNLOAD_MESSAGE || !data.job) return;
    const source = event.source as Client | null;
    const { job } = data;
    jobs.set(job.id, { job, clientId: source?.id ?? null });
    setTimeout(() => jobs.delete(job.id), JOB_TTL_MS);
    event.ports[0]?.postMessage({ ok: true });
  });
  self.addEventListener("fetch", (event) => {
    const url = new URL(event.request.url);
    if (url.origin !== self.location.origin || !url.pathname.startsWith(E2E_DOWNLOAD_PATH)) return;
    event.respondWith(serve(url.pathname.slice(E2E_DOWNLOAD_PATH.length)));
  });
}
