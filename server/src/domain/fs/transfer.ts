/**
 * Moving bytes through this process without holding them: a request body or a
 * read from one driver piped into a write (two-phase, so an interrupted write
 * leaves nothing visible), with byte progress and abort. Same-storage copies do
 * not come here; the driver copies server-side.
 */
import { type Readable, Transform, type TransformCallback } from "node:stream";
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

/**
 * Feeds `body` through `stages` into `write`, which consumes the last stage.
 * When feeding fails (the client went away, a limit was hit) or `outer`
 * aborts, the write is aborted too, so nothing half-written becomes visible.
 */
export async function feedInto<T>(
  body: Readable,
  stages: Transform[],
  write: (input: Readable, signal: AbortSignal) => Promise<T>,
  outer?: AbortSignal,
): Promise<T> {
  const controller = new AbortController();
  const forward = () => controller.abort(outer?.reason);
  outer?.addEventListener("abort", forward, { once: true });
  try {
    const writing = write(stages[stages.length - 1]!, controller.signal);
    const feeding = pipeline([body, ...stages]).catch((e) => {
      controller.abort(e);
      throw e;
    });
    const [result] = await Promise.all([writing, feeding]);
    return result;
  } finally {
    outer?.removeEventListener("abort", forward);
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
  try {
    return await feedInto(
      read.body,
      [new ByteCounter(options.onBytes)],
      (input, signal) =>
        target.driver.write(target.path, input, { size: read.size, contentType: read.contentType, signal }),
      options.signal,
    );
  } finally {
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
      if (entry.isDirectory && entry.isLink) await target.driver.mkdir(to.path);
      else if (entry.isDirectory) await streamCopyTree(from, to, options);
      else await streamCopyFile(from, to, options);
    }
    cursor = page.nextCursor;
  } while (cursor);
}
