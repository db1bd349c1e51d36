/**
 * Moving bytes between two drivers through this process: one file streamed
 * from a read into a write (never buffered), with byte progress and abort.
 * Same-storage copies do not come here; the driver copies server-side.
 */
import { Transform, type TransformCallback } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ListPage, StorageDriver, WriteResult } from "../../storage/types";

export interface Endpoint {
  driver: StorageDriver;
  path: string;
}

export interface StreamCopyOptions {
  signal?: AbortSignal;
  /** Called with the bytes of each chunk as it passes. */
  onBytes?: (bytes: number) => void;
}

/** Pass-through that reports each chunk's size. */
export class ByteCounter extends Transform {
  constructor(private readonly onBytes?: (bytes: number) => void) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.onBytes?.(chunk.length);
    callback(null, chunk);
  }
}

/** Streams one file from `source` to `target`; the target appears only when complete (two-phase writes). */
export async function streamCopyFile(
  source: Endpoint,
  target: Endpoint,
  options: StreamCopyOptions = {},
): Promise<WriteResult> {
  options.signal?.throwIfAborted();
  const read = await source.driver.read(source.path);
  const counter = new ByteCounter(options.onBytes);
  const controller = new AbortController();
  const abort = () => controller.abort(options.signal?.reason);
  options.signal?.addEventListener("abort", abort, { once: true });
  try {
    const writing = target.driver.write(target.path, counter, {
      size: read.size,
      contentType: read.contentType,
      signal: controller.signal,
    });
    const feeding = pipeline(read.body, counter).catch((e) => {
      controller.abort(e);
      throw e;
    });
    const [written] = await Promise.all([writing, feeding]);
    return written;
  } finally {
    options.signal?.removeEventListener("abort", abort);
    read.body.destroy();
  }
}

/** Streams a directory tree between storages, file by file (drivers' mkdir is recursive and idempotent). */
export async function streamCopyTree(
  source: Endpoint,
  target: Endpoint,
  options: StreamCopyOptions = {},
): Promise<void> {
  await target.driver.mkdir(target.path);
  let cursor: string | null = null;
  do {
    const page: ListPage = await source.driver.list(source.path, { cursor });
    for (const entry of page.entries) {
      const from = { driver: source.driver, path: entry.path };
      const to = { driver: target.driver, path: `${target.path}/${entry.name}` };
      if (entry.isDirectory) await streamCopyTree(from, to, options);
      else await streamCopyFile(from, to, options);
    }
    cursor = page.nextCursor;
  } while (cursor);
}
