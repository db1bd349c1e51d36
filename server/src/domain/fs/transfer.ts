/**
 * Moving bytes between two drivers through this process: one file streamed
 * from a read into a write (never buffered), with byte progress and abort.
 * Same-storage copies do not come here; the driver copies server-side.
 */
import { Transform, type TransformCallback } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { StorageDriver, WriteResult } from "../../storage/types";

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
