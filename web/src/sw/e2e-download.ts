/**
 * Streamed decrypting downloads of end-to-end encrypted file shares. The page
 * posts a job (ciphertext URL, key, name); opening E2E_DOWNLOAD_PATH + id then
 * gets a Response whose body is the ciphertext fetched and decrypted chunk by
 * chunk, so a file of any size goes to disk without sitting in memory. A
 * download job serves once and is forgotten; a media job (a video or audio the
 * page plays) answers byte ranges, decrypting only the chunks that hold each,
 * so the player seeks in a file of any size. A tampered or cut-short file fails
 * the response instead of completing it.
 */
import {
  decryptRange,
  decryptStream,
  E2E_HEADER_BYTES,
  type E2EHeader,
  fromBase64Url,
  importKey,
  parseHeader,
} from "@clipshare/shared";
import {
  attachmentHeader,
  E2E_DOWNLOAD_MESSAGE,
  E2E_DOWNLOAD_PATH,
  E2E_FORGET_MESSAGE,
  E2E_PROGRESS_MESSAGE,
  type E2EDownloadJob,
  type E2EProgress,
  parseByteRange,
} from "../lib/e2e/download-protocol";

declare const self: ServiceWorkerGlobalScope;

/** Progress is reported at most every this many bytes. */
const PROGRESS_STEP = 1024 * 1024;
/** Jobs nobody opened are dropped after this long (the key goes with them). */
const JOB_TTL_MS = 60_000;
/** A media job the player has not asked anything of for this long is dropped. */
const MEDIA_IDLE_MS = 10 * 60_000;

interface Entry {
  job: E2EDownloadJob;
  clientId: string | null;
  timer?: ReturnType<typeof setTimeout>;
  /** The stream's header, read once for all of a media job's ranges. */
  header?: Promise<E2EHeader>;
}

const jobs = new Map<string, Entry>();

/** Keeps a job until it lapses: a minute unopened, or a media job left idle. */
function keep(id: string, entry: Entry): void {
  clearTimeout(entry.timer);
  entry.timer = setTimeout(() => jobs.delete(id), entry.job.media ? MEDIA_IDLE_MS : JOB_TTL_MS);
  jobs.set(id, entry);
}

function forget(id: string): void {
  clearTimeout(jobs.get(id)?.timer);
  jobs.delete(id);
}

const plainText = (status: number, message: string) =>
  new Response(`${message}\n`, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });

/** The ciphertext, whole or the encrypted bytes [start, end); null when it cannot be fetched as asked. */
async function fetchCipher(url: string, range?: { start: number; end: number }) {
  const headers = range ? { Range: `bytes=${range.start}-${range.end - 1}` } : undefined;
  const res = await fetch(url, { credentials: "include", headers }).catch(() => null);
  const expected = range ? 206 : 200;
  if (res?.status === expected && res.body) return { body: res.body, status: res.status };
  // A 200 to a range request would be the whole file: never read it.
  void res?.body?.cancel();
  return { body: null, status: res ? res.status : 502 };
}

async function readHeader(url: string): Promise<E2EHeader> {
  const { body } = await fetchCipher(url, { start: 0, end: E2E_HEADER_BYTES });
  if (!body) throw new Error("The encrypted file's header could not be fetched");
  return parseHeader(new Uint8Array(await new Response(body).arrayBuffer()));
}

/** A media job's answer: the whole file, or the one byte range the player asked for. */
async function serveMedia(entry: Entry, rangeHeader: string | null): Promise<Response> {
  const { job } = entry;
  const headers: Record<string, string> = {
    "Content-Type": job.type || "application/octet-stream",
    "Accept-Ranges": "bytes",
    "Cache-Control": "no-store",
  };
  const range = parseByteRange(rangeHeader, job.size);
  if (range === "unsatisfiable") {
    return new Response(null, {
      status: 416,
      headers: { ...headers, "Content-Range": `bytes */${job.size}` },
    });
  }
  const raw = fromBase64Url(job.key);
  if (!raw) return plainText(400, "This media has no usable key.");
  const key = await importKey(raw);
  if (!range) {
    const { body, status } = await fetchCipher(job.url);
    if (!body)
      return plainText(
        status === 200 ? 502 : status,
        `The encrypted file could not be fetched (HTTP ${status}).`,
      );
    return new Response(body.pipeThrough(decryptStream(key)), {
      headers: { ...headers, "Content-Length": String(job.size) },
    });
  }
  entry.header ??= readHeader(job.url);
  const header = await entry.header.catch(() => {
    entry.header = undefined; // the next request tries again
    return null;
  });
  if (!header) return plainText(502, "The encrypted file could not be fetched.");
  const plan = decryptRange(key, header, job.size, range.start, range.end);
  const { body, status } = await fetchCipher(job.url, { start: plan.cipherStart, end: plan.cipherEnd });
  if (!body)
    return plainText(
      status === 206 ? 502 : status,
      `The encrypted range could not be fetched (HTTP ${status}).`,
    );
  return new Response(body.pipeThrough(plan.stream), {
    status: 206,
    headers: {
      ...headers,
      "Content-Range": `bytes ${range.start}-${range.end - 1}/${job.size}`,
      "Content-Length": String(range.end - range.start),
    },
  });
}

async function report(clientId: string | null, progress: Omit<E2EProgress, "type">) {
  if (!clientId) return;
  const client = await self.clients.get(clientId);
  client?.postMessage({ type: E2E_PROGRESS_MESSAGE, ...progress } satisfies E2EProgress);
}

async function serve(id: string, request: Request): Promise<Response> {
  const entry = jobs.get(id);
  if (!entry)
    return plainText(404, "This download has already started or expired; start it again from its page.");
  if (entry.job.media) {
    keep(id, entry);
    return serveMedia(entry, request.headers.get("Range"));
  }
  forget(id);
  const { job, clientId } = entry;
  const raw = fromBase64Url(job.key);
  const upstream = await fetchCipher(job.url);
  if (!upstream.body || !raw) {
    void report(clientId, { id, loaded: 0, total: job.size, state: "failed" });
    const status = upstream.status === 200 ? 502 : upstream.status;
    return plainText(status, `The encrypted file could not be fetched (HTTP ${status}).`);
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
    const data = event.data as { type?: string; job?: E2EDownloadJob; id?: string } | null;
    if (data?.type === E2E_FORGET_MESSAGE && data.id) return forget(data.id);
    if (data?.type !== E2E_DOWNLOAD_MESSAGE || !data.job) return;
    const source = event.source as Client | null;
    const { job } = data;
    keep(job.id, { job, clientId: source?.id ?? null });
    event.ports[0]?.postMessage({ ok: true });
  });
  self.addEventListener("fetch", (event) => {
    const url = new URL(event.request.url);
    if (url.origin !== self.location.origin || !url.pathname.startsWith(E2E_DOWNLOAD_PATH)) return;
    event.respondWith(serve(url.pathname.slice(E2E_DOWNLOAD_PATH.length), event.request));
  });
}
