import { SHARE_CACHE, SHARE_PARAM, SHARE_TARGET_PATH } from "./sw-protocol";

/**
 * The Web Share Target: the service worker receives the share sheet's POST,
 * keeps what came in Cache Storage under a random id and redirects to the page
 * that takes it: text and links to the Home editor, files to /upload.
 */

interface ShareMeta {
  receivedAt: number;
  text: string;
  files: { name: string; type: string; lastModified: number }[];
}

/** A share waits at most this long for its page. */
const SHARE_MAX_AGE_MS = 60 * 60 * 1000;

const metaUrl = (id: string) => `${SHARE_TARGET_PATH}/${id}/meta`;
const fileUrl = (id: string, index: number) => `${SHARE_TARGET_PATH}/${id}/file/${index}`;

/** Title, text and link as one text, each once, in the share sheet's order. */
export function sharedText(title: string, text: string, url: string): string {
  const parts: string[] = [];
  for (const part of [title, text, url].map((p) => p.trim())) {
    if (part && !parts.some((p) => p.includes(part))) parts.push(part);
  }
  return parts.join("\n");
}

const field = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

/** Service worker: stores the shared form; returns the URL of the page that takes it. */
export async function receiveShare(form: FormData, now = Date.now()): Promise<string> {
  const files = form.getAll("files").filter((f): f is File => typeof f !== "string" && f.name !== "");
  const id = crypto.randomUUID();
  const cache = await caches.open(SHARE_CACHE);
  // Each file is a Response over the File's own blob: passed on, not read into memory.
  await Promise.all(
    files.map((file, i) =>
      cache.put(
        fileUrl(id, i),
        new Response(file, { headers: { "Content-Type": file.type || "application/octet-stream" } }),
      ),
    ),
  );
  const meta: ShareMeta = {
    receivedAt: now,
    text: sharedText(field(form, "title"), field(form, "text"), field(form, "url")),
    files: files.map((f) => ({ name: f.name, type: f.type, lastModified: f.lastModified })),
  };
  await cache.put(
    metaUrl(id),
    new Response(JSON.stringify(meta), { headers: { "Content-Type": "application/json" } }),
  );
  return `${files.length > 0 ? "/upload" : "/"}?${SHARE_PARAM}=${id}`;
}

export interface ReceivedShare {
  text: string;
  files: File[];
}

const taking = new Map<string, Promise<ReceivedShare | null>>();

/** Page: hands over a received share once and deletes it; null when it is gone or too old. */
export function takeShare(id: string, now = Date.now()): Promise<ReceivedShare | null> {
  let pending = taking.get(id);
  if (!pending) {
    pending = readShare(id, now);
    taking.set(id, pending);
  }
  return pending;
}

async function readShare(id: string, now: number): Promise<ReceivedShare | null> {
  if (typeof caches === "undefined" || !/^[0-9a-f-]{36}$/.test(id)) return null;
  const cache = await caches.open(SHARE_CACHE);
  const metaResponse = await cache.match(metaUrl(id));
  if (!metaResponse) return null;
  const meta = (await metaResponse.json()) as ShareMeta;
  const files: File[] = [];
  for (const [i, info] of meta.files.entries()) {
    const res = await cache.match(fileUrl(id, i));
    if (res)
      files.push(
        new File([await res.blob()], info.name, { type: info.type, lastModified: info.lastModified }),
      );
  }
  await sweepShares(cache, now, id);
  if (now - meta.receivedAt > SHARE_MAX_AGE_MS) return null;
  return { text: meta.text, files };
}

/** Deletes the taken share and any share nobody took within the hour. */
async function sweepShares(cache: Cache, now: number, taken: string): Promise<void> {
  for (const request of await cache.keys()) {
    const path = new URL(request.url).pathname;
    const id = path.split("/")[2] ?? "";
    if (id === taken) {
      await cache.delete(request);
      continue;
    }
    if (!path.endsWith("/meta")) continue;
    const meta = (await (await cache.match(request))?.json()) as ShareMeta | undefined;
    if (!meta || now - meta.receivedAt > SHARE_MAX_AGE_MS) {
      for (const other of await cache.keys()) {
        if (new URL(other.url).pathname.startsWith(`${SHARE_TARGET_PATH}/${id}/`)) await cache.delete(other);
      }
    }
  }
}
