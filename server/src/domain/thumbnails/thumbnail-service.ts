/**
 * Thumbnails of stored images and videos, made on first request and kept in
 * DATA_DIR/thumbnails. A thumbnail's name is a hash of the storage, the path,
 * the size and the file's version (size, ETag, modification time), so a
 * changed file simply gets a new one and the old one ages out of the size
 * bound. Generation is bounded: one at a time per process behind a short
 * queue, and requests for a thumbnail already being made wait for that one.
 */
import { createHash, randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, readdir, rename, rm, stat, utimes } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import type { ThumbnailSize } from "@clipshare/shared";
import { AppError, isAppError } from "../../errors";
import { metrics } from "../../lib/metrics";
import type { Logger } from "../../logger";
import type { StorageDriver, StorageEntry } from "../../storage/types";
import {
  imageTooLarge,
  MAX_IMAGE_BYTES,
  renderImage,
  renderVideo,
  thumbnailKind,
  unsupported,
} from "./render";

/** Requests waiting for a generation beyond this are told to come back (503) instead of piling up. */
const MAX_WAITING = 64;
/**
 * How much of a remote video is copied for its frame. Videos that keep their index at the end
 * (not "fast start") and are larger than this get no thumbnail from remote storage.
 */
const MAX_VIDEO_SPOOL_BYTES = 256 * 1024 * 1024;
/** A hit refreshes its file's time at most this often, so eviction removes the least recently used. */
const TOUCH_AFTER_MS = 86_400_000;

export interface ThumbnailSource {
  /** The storage config: one object reached through a mount and through a share has one thumbnail. */
  storageId: string;
  driver: StorageDriver;
  /** Driver-relative path. */
  path: string;
  entry: StorageEntry;
}

export interface Thumbnail {
  file: string;
  /** Unquoted; the same for the same file version and size. */
  etag: string;
  bytes: number;
}

export interface ThumbnailOptions {
  /** Upper bound of the cache; the least recently used thumbnails go when it is passed. */
  maxCacheBytes: number;
}

export class ThumbnailService {
  private readonly tmp: string;
  private ready: Promise<void> | null = null;
  private cachedBytes = 0;
  private readonly inFlight = new Map<string, Promise<Thumbnail>>();
  private queue: Promise<unknown> = Promise.resolve();
  private waiting = 0;

  constructor(
    private readonly dir: string,
    private readonly log: Logger,
    private readonly options: ThumbnailOptions,
  ) {
    this.tmp = path.join(dir, "tmp");
  }

  /** The validator of a thumbnail, known without making it (answers If-None-Match with no work). */
  etag(source: ThumbnailSource, size: ThumbnailSize): string {
    const { entry } = source;
    const version = [entry.size, entry.etag ?? "", entry.modified?.getTime() ?? ""].join(":");
    return createHash("sha256")
      .update(JSON.stringify([source.storageId, source.path, size, version]))
      .digest("base64url")
      .slice(0, 32);
  }

  async get(source: ThumbnailSource, size: ThumbnailSize): Promise<Thumbnail> {
    const kind = thumbnailKind(source.entry.contentType, source.entry.name);
    if (!kind) throw this.refused(unsupported());
    if (kind === "image" && source.entry.size > MAX_IMAGE_BYTES)
      throw this.refused(imageTooLarge(`larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB`));
    await this.prepare();
    const etag = this.etag(source, size);
    const file = path.join(this.dir, etag.slice(0, 2), `${etag}.webp`);
    const cached = await this.lookup(file, etag);
    if (cached) {
      metrics.thumbnail("hit");
      return cached;
    }
    let pending = this.inFlight.get(etag);
    if (!pending) {
      pending = this.enqueue(() => this.generate(source, kind, size, file, etag)).finally(() =>
        this.inFlight.delete(etag),
      );
      this.inFlight.set(etag, pending);
    }
    return pending;
  }

  private refused(e: AppError): AppError {
    metrics.thumbnail("refused");
    return e;
  }

  private async lookup(file: string, etag: string): Promise<Thumbnail | null> {
    const info = await stat(file).catch(() => null);
    if (!info) return null;
    if (Date.now() - info.mtimeMs > TOUCH_AFTER_MS) {
      const now = new Date();
      await utimes(file, now, now).catch(() => undefined);
    }
    return { file, etag, bytes: info.size };
  }

  /** Runs `work` after every generation queued before it; refuses when too many already wait. */
  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    if (this.waiting >= MAX_WAITING)
      throw new AppError(503, "thumbnail_busy", "Thumbnails are being made; try again shortly", undefined, {
        "Retry-After": "2",
      });
    this.waiting++;
    const run = this.queue.then(work).finally(() => this.waiting--);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async generate(
    source: ThumbnailSource,
    kind: "image" | "video",
    size: ThumbnailSize,
    file: string,
    etag: string,
  ): Promise<Thumbnail> {
    const done = await this.lookup(file, etag);
    if (done) return done;
    const id = randomUUID();
    const out = path.join(this.tmp, `${id}.webp`);
    let spooled: string | null = null;
    try {
      const { driver } = source;
      let input: string;
      if (driver.localPath) input = await driver.localPath(source.path);
      else {
        // The decoders need random access and read no URLs: a remote object is copied to a
        // temporary file first. Of a large video only the beginning, where its first frames are.
        spooled = path.join(this.tmp, `${id}.src`);
        const videoHead = kind === "video" && source.entry.size > MAX_VIDEO_SPOOL_BYTES;
        const read = await driver.read(
          source.path,
          videoHead ? { start: 0, end: MAX_VIDEO_SPOOL_BYTES - 1 } : undefined,
        );
        if (kind === "image" && read.size > MAX_IMAGE_BYTES) {
          read.body.destroy();
          throw imageTooLarge(`larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB`);
        }
        await pipeline(read.body, createWriteStream(spooled, { mode: 0o600 }));
        input = spooled;
      }
      await (kind === "image" ? renderImage(input, size, out) : renderVideo(input, size, out));
      await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
      await rename(out, file);
      const bytes = (await stat(file)).size;
      metrics.thumbnail("generated");
      this.cachedBytes += bytes;
      if (this.cachedBytes > this.options.maxCacheBytes) await this.trim();
      return { file, etag, bytes };
    } catch (e) {
      if (isAppError(e)) throw this.refused(e);
      throw e;
    } finally {
      await rm(out, { force: true });
      if (spooled) await rm(spooled, { force: true });
    }
  }

  /** Once per process: the directories, no leftovers of an interrupted generation, the cache's size. */
  private prepare(): Promise<void> {
    this.ready ??= (async () => {
      await mkdir(this.tmp, { recursive: true, mode: 0o700 });
      for (const name of await readdir(this.tmp)) await rm(path.join(this.tmp, name), { force: true });
      this.cachedBytes = (await this.cachedFiles()).reduce((sum, f) => sum + f.bytes, 0);
      if (this.cachedBytes > this.options.maxCacheBytes) await this.trim();
    })().catch((e) => {
      this.ready = null;
      throw e;
    });
    return this.ready;
  }

  private async cachedFiles(): Promise<Array<{ file: string; bytes: number; used: number }>> {
    const files: Array<{ file: string; bytes: number; used: number }> = [];
    for (const shard of await readdir(this.dir)) {
      if (shard === "tmp") continue;
      const names = await readdir(path.join(this.dir, shard)).catch(() => [] as string[]);
      for (const name of names) {
        const file = path.join(this.dir, shard, name);
        const info = await stat(file).catch(() => null);
        if (info?.isFile()) files.push({ file, bytes: info.size, used: info.mtimeMs });
      }
    }
    return files;
  }

  /** Removes the least recently used thumbnails until the cache is a fifth below its bound. */
  async trim(): Promise<number> {
    const files = (await this.cachedFiles()).sort((a, b) => a.used - b.used);
    let total = files.reduce((sum, f) => sum + f.bytes, 0);
    const target = this.options.maxCacheBytes * 0.8;
    let removed = 0;
    for (const f of files) {
      if (total <= target) break;
      await rm(f.file, { force: true });
      total -= f.bytes;
      removed++;
    }
    this.cachedBytes = total;
    if (removed > 0) this.log.debug({ removed, bytes: total }, "Evicted old thumbnails");
    return removed;
  }
}
