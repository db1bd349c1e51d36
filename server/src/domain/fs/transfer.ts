/**
 * Copying between storages through this process without holding the bytes: a
 * read from one driver fed into a write on another by `ingest` (two-phase, so
 * an interrupted copy leaves nothing visible), with byte progress and abort.
 * Same-storage copies do not come here; the driver copies server-side.
 */
import { ingest } from "../../lib/ingest";
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

/** Streams one file from `source` to `target`; the target appears only when complete (two-phase writes). */
export async function streamCopyFile(
  source: Endpoint,
  target: Endpoint,
  options: StreamCopyOptions = {},
): Promise<WriteResult> {
  options.signal?.throwIfAborted();
  const read = await source.driver.read(source.path);
  try {
    let reported = 0;
    const { result } = await ingest(
      read.body,
      (input, signal) =>
        target.driver.write(target.path, input, { size: read.size, contentType: read.contentType, signal }),
      {
        signal: options.signal,
        onBytes: (total) => {
          options.onBytes?.(total - reported);
          reported = total;
        },
      },
    );
    return result;
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
