/**
 * `clipshare upload`: one request for files up to two parts' worth
 * (PUT /api/upload-direct), the multipart routes above that, split exactly as
 * the web app splits them. Multipart progress is saved in the cache directory
 * under the server, file path, size and mtime; running the same upload again
 * asks the server which parts it holds and sends only the others.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, open, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import {
  MULTIPART_CONCURRENCY,
  MULTIPART_RETRIES,
  type PartPlan,
  partSizeFor,
  plannedParts,
  planParts,
  type ShareMultipartStarted,
} from "@clipshare/shared";
import { CliError, type Client, cacheDir, EXIT, failOnError } from "./client";
import type { Progress } from "./progress";

/** Share options as the upload routes name them. */
export interface ShareOptions {
  password?: string | undefined;
  expires_in?: number | undefined;
  max_views?: number | undefined;
  slug?: string | undefined;
  remark?: string | undefined;
  s3_config_id?: string | undefined;
}

export interface UploadOutcome {
  slug: string;
  filename: string;
  size: number;
  url: string;
  method: "direct" | "multipart";
  /** Multipart: parts the server already held from an earlier run, and parts sent now. */
  resumed_parts?: number;
  sent_parts?: number;
}

interface SavedUpload {
  file_id: string;
  upload_id: string;
  partSize: number;
  partCount: number;
  totalSize: number;
  /** Parts known to have arrived (the server's list is what counts on resume). */
  parts: Array<{ partNumber: number; etag: string }>;
}

interface PartUrl {
  partNumber: number;
  url: string;
}

export async function uploadFile(
  client: Client,
  file: string,
  options: ShareOptions & { concurrency?: number },
  progress: Progress,
): Promise<UploadOutcome> {
  const absolute = path.resolve(file);
  const info = await stat(absolute).catch(() => null);
  if (!info?.isFile()) throw new CliError(`Not a file: ${file}`, EXIT.usage);
  const name = path.basename(absolute);
  const plan = planParts(info.size, partSizeFor(info.size));
  progress.start(name, info.size);
  const outcome =
    plan.partCount > 2
      ? await multipart(client, absolute, name, plan, info.mtimeMs, options, progress)
      : await direct(client, absolute, name, info.size, options, progress);
  progress.done();
  return outcome;
}

async function direct(
  client: Client,
  file: string,
  name: string,
  size: number,
  options: ShareOptions,
  progress: Progress,
): Promise<UploadOutcome> {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(options)) {
    if (value !== undefined && key !== "concurrency") query.set(key, String(value));
  }
  async function* counted() {
    for await (const chunk of createReadStream(file)) {
      progress.add((chunk as Buffer).length);
      yield chunk as Buffer;
    }
  }
  const data = await client.call<{ slug: string; filename: string; size: number }>(
    `/upload-direct/${encodeURIComponent(name)}?${query}`,
    {
      method: "PUT",
      body: counted(),
      headers: { "Content-Length": String(size) },
    },
  );
  return { ...published(client, data), method: "direct" };
}

function published(client: Client, data: { slug: string; filename: string; size: number }) {
  return {
    slug: data.slug,
    filename: data.filename,
    size: data.size,
    url: client.resolve(`/file/${encodeURIComponent(data.slug)}`),
  };
}

function stateFile(client: Client, file: string, size: number, mtimeMs: number): string {
  const key = createHash("sha256")
    .update(`${client.config.url}\n${file}\n${size}\n${Math.trunc(mtimeMs)}`)
    .digest("hex")
    .slice(0, 32);
  return path.join(cacheDir(), "uploads", `${key}.json`);
}

async function loadState(file: string): Promise<SavedUpload | null> {
  try {
    return JSON.parse(await readFile(file, "utf8")) as SavedUpload;
  } catch {
    return null;
  }
}

async function saveState(file: string, state: SavedUpload): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  // Written whole then renamed, so a kill mid-write leaves the previous state.
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, JSON.stringify(state), { mode: 0o600 });
  await rename(temp, file);
}

async function multipart(
  client: Client,
  file: string,
  name: string,
  plan: PartPlan,
  mtimeMs: number,
  options: ShareOptions & { concurrency?: number },
  progress: Progress,
): Promise<UploadOutcome> {
  client.requireKey();
  const statePath = stateFile(client, file, plan.totalSize, mtimeMs);
  let state = await loadState(statePath);
  let urls: PartUrl[] = [];
  const held = new Map<number, string>();
  if (state && state.totalSize === plan.totalSize) {
    try {
      const resumed = await client.call<{
        parts: Array<{ partNumber: number; etag: string; size?: number }>;
        presigned_urls: PartUrl[];
      }>("/files/multipart/resume", { json: { file_id: state.file_id, upload_id: state.upload_id } });
      urls = resumed.presigned_urls;
      for (const part of plannedParts({ ...plan, partSize: state.partSize, partCount: state.partCount })) {
        const found = resumed.parts.find((p) => p.partNumber === part.partNumber);
        if (found?.etag && (found.size === undefined || found.size === part.size))
          held.set(part.partNumber, found.etag.replace(/"/g, ""));
      }
    } catch (e) {
      // The server dropped it (expired, aborted): start over.
      if (!(e instanceof CliError && e.exitCode === EXIT.notFound)) throw e;
      state = null;
    }
  } else state = null;
  if (!state) {
    const started = await client.call<ShareMultipartStarted>("/files/multipart/init", {
      json: {
        filename: name,
        total_size: plan.totalSize,
        part_size: plan.partSize,
        part_count: plan.partCount,
        ...options,
        concurrency: undefined,
      },
    });
    state = {
      file_id: started.file_id,
      upload_id: started.upload_id,
      partSize: started.part_size,
      partCount: started.part_count,
      totalSize: plan.totalSize,
      parts: [],
    };
    urls = started.presigned_urls;
    await saveState(statePath, state);
  }
  const session = state;
  const parts = plannedParts({
    totalSize: plan.totalSize,
    partSize: session.partSize,
    partCount: session.partCount,
  });
  const urlOf = new Map(urls.map((u) => [u.partNumber, u.url]));
  for (const part of parts) if (held.has(part.partNumber)) progress.add(part.size);
  session.parts = [...held].map(([partNumber, etag]) => ({ partNumber, etag }));
  const pending = parts.filter((p) => !held.has(p.partNumber));
  const handle = await open(file, "r");
  let sent = 0;
  let saving = Promise.resolve();
  /** One URL refresh shared by the parts that hit an expired URL together. */
  let refreshing: Promise<void> | null = null;
  try {
    const worker = async () => {
      for (let part = pending.shift(); part; part = pending.shift()) {
        const urlFor = (n: number) => {
          const url = urlOf.get(n);
          if (!url) throw new CliError(`The server sent no URL for part ${n}`, EXIT.server);
          return url;
        };
        // One part in memory per worker: bounded by part size × concurrency.
        const bytes = Buffer.alloc(part.size);
        await handle.read(bytes, 0, part.size, part.start);
        let etag: string;
        try {
          etag = await sendPart(client, urlFor(part.partNumber), bytes);
        } catch (e) {
          // Part URLs expire (S3 presigning); after a refused signature get fresh ones and try once more.
          if (!(e instanceof CliError && e.status === 403)) throw e;
          refreshing ??= client
            .call<{ presigned_urls: PartUrl[] }>("/files/multipart/resume", {
              json: { file_id: session.file_id, upload_id: session.upload_id },
            })
            .then((fresh) => {
              for (const u of fresh.presigned_urls) urlOf.set(u.partNumber, u.url);
            })
            .finally(() => {
              refreshing = null;
            });
          await refreshing;
          etag = await sendPart(client, urlFor(part.partNumber), bytes);
        }
        held.set(part.partNumber, etag);
        session.parts.push({ partNumber: part.partNumber, etag });
        sent++;
        progress.add(part.size);
        saving = saving.then(() => saveState(statePath, session));
      }
    };
    const workers = Math.max(1, Math.min(options.concurrency ?? MULTIPART_CONCURRENCY, 8));
    await Promise.all(Array.from({ length: workers }, worker));
    await saving;
  } finally {
    await handle.close();
  }
  const data = await client.call<{ slug: string; filename: string; size: number }>(
    "/files/multipart/complete",
    {
      json: {
        file_id: session.file_id,
        upload_id: session.upload_id,
        parts: parts.map((p) => ({ partNumber: p.partNumber, etag: held.get(p.partNumber) })),
        ...options,
        concurrency: undefined,
      },
    },
  );
  await rm(statePath, { force: true });
  return {
    ...published(client, data),
    method: "multipart",
    resumed_parts: parts.length - sent,
    sent_parts: sent,
  };
}

/** One part PUT, retried a few times with a growing pause; answers the part's ETag. */
async function sendPart(client: Client, url: string, bytes: Buffer): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    try {
      // Part URLs are signed: they carry their own credential (S3 or ClipShare's LOCAL signature).
      const response = await client.fetch(url, { method: "PUT", body: bytes, auth: false });
      await failOnError(response);
      const etag = response.headers.get("etag")?.replace(/"/g, "");
      if (!etag) throw new CliError("The storage answered a part without an ETag", EXIT.server);
      return etag;
    } catch (e) {
      const retriable = e instanceof CliError && e.exitCode === EXIT.server;
      if (!retriable || attempt >= MULTIPART_RETRIES) throw e;
      await new Promise((r) => setTimeout(r, 1000 * (attempt + 1)));
    }
  }
}
