/**
 * Encrypted file shares in the browser: the sealed name and type are opened
 * with the link's key, downloads are decrypted as a stream by the service
 * worker (or in memory where no worker controls the page), video and audio
 * are played from the worker by byte range, other previews are decrypted into
 * a Blob.
 */
import {
  decryptStream,
  E2EError,
  type E2EMetadata,
  type FragmentKey,
  importKey,
  openMetadata,
  toBase64Url,
  unwrapKey,
} from "@clipshare/shared";
import {
  E2E_DOWNLOAD_MESSAGE,
  E2E_DOWNLOAD_PATH,
  E2E_FORGET_MESSAGE,
  E2E_PROGRESS_MESSAGE,
  type E2EDownloadJob,
  type E2EProgress,
} from "./download-protocol";

export interface OpenedFile {
  raw: Uint8Array;
  meta: E2EMetadata;
}

/** The key (unwrapped with `password` where the link needs one) and the real name and type. */
export async function openFileShare(
  record: string,
  link: FragmentKey,
  password?: string,
): Promise<OpenedFile> {
  if (link.kind === "none") throw new E2EError("bad_key", "This link has no key");
  const raw = link.kind === "key" ? link.raw : await unwrapKey(link.blob, password ?? "");
  return { raw, meta: await openMetadata(await importKey(raw), record) };
}

/** The decrypted file as a Blob (for previews and where no service worker can stream). */
export async function decryptToBlob(
  url: string,
  raw: Uint8Array,
  type: string,
  onProgress?: (loaded: number) => void,
): Promise<Blob> {
  const res = await fetch(url, { credentials: "include" });
  if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}`);
  let loaded = 0;
  const counted = res.body.pipeThrough(decryptStream(await importKey(raw))).pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        loaded += chunk.length;
        onProgress?.(loaded);
        controller.enqueue(chunk);
      },
    }),
  );
  const blob = await new Response(counted).blob();
  return type ? new Blob([blob], { type }) : blob;
}

type JobRequest = Omit<E2EDownloadJob, "id" | "key"> & { raw: Uint8Array };

/** Hands a job to the service worker controlling the page; its id once the worker took it, else null. */
async function postJob(job: JobRequest): Promise<string | null> {
  const worker = navigator.serviceWorker?.controller;
  if (!worker) return null;
  const id = crypto.randomUUID();
  const channel = new MessageChannel();
  const accepted = new Promise<boolean>((resolve) => {
    channel.port1.onmessage = () => resolve(true);
    setTimeout(() => resolve(false), 3000);
  });
  const { raw, ...rest } = job;
  worker.postMessage({ type: E2E_DOWNLOAD_MESSAGE, job: { ...rest, id, key: toBase64Url(raw) } }, [
    channel.port2,
  ]);
  return (await accepted) ? id : null;
}

/**
 * A same-origin address a video or audio element can play the file from: the
 * service worker answers its byte ranges, so it seeks in a file of any size.
 * null where no worker controls the page. `release` drops the key from the worker.
 */
export async function mediaSource(
  job: Omit<JobRequest, "media">,
): Promise<{ href: string; release: () => void } | null> {
  const id = await postJob({ ...job, media: true });
  if (!id) return null;
  return {
    href: `${E2E_DOWNLOAD_PATH}${id}`,
    release: () => navigator.serviceWorker?.controller?.postMessage({ type: E2E_FORGET_MESSAGE, id }),
  };
}

/**
 * Saves the decrypted file. With a service worker controlling the page it
 * streams to disk ("stream"); otherwise it is decrypted into memory first ("memory").
 */
export async function downloadDecrypted(
  job: JobRequest,
  onProgress: (progress: Pick<E2EProgress, "loaded" | "state">) => void,
): Promise<"stream" | "memory"> {
  const id = await postJob(job);
  if (id) {
    const listen = (event: MessageEvent) => {
      const data = event.data as E2EProgress | null;
      if (data?.type !== E2E_PROGRESS_MESSAGE || data.id !== id) return;
      onProgress(data);
      if (data.state !== "running") navigator.serviceWorker.removeEventListener("message", listen);
    };
    navigator.serviceWorker.addEventListener("message", listen);
    const frame = document.createElement("iframe");
    frame.hidden = true;
    frame.src = `${E2E_DOWNLOAD_PATH}${id}`;
    document.body.append(frame);
    setTimeout(() => frame.remove(), 60_000);
    return "stream";
  }
  const blob = await decryptToBlob(job.url, job.raw, job.type, (loaded) =>
    onProgress({ loaded, state: "running" }),
  );
  const href = URL.createObjectURL(blob);
  const anchor = document.createElement("a");
  anchor.href = href;
  anchor.download = job.name;
  anchor.click();
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
  onProgress({ loaded: blob.size, state: "done" });
  return "memory";
}
