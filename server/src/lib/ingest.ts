/**
 * The one way a stream of bytes from outside (a request body, a part, another
 * storage's read) enters a storage write. Every upload route, LOCAL signed part
 * URLs, WebDAV PUT and cross-storage copies go through `ingest`, so they share:
 * - the byte limit: a declared size over it is refused before reading, and the
 *   body fails with 413 the moment it passes it, before it fills the disk;
 * - byte counting (for progress and the result);
 * - abort on a cut connection or a failed write: the write is aborted, so a
 *   two-phase write leaves nothing visible;
 * - cleanup before the response: the call settles only after both the write
 *   and the feeding have settled, so a response never races the cleanup;
 * - the 413 text.
 * The source is piped, never pipelined: on failure it is unpiped and drained
 * rather than destroyed, so a client still sending gets our answer instead of
 * a connection reset.
 */
import type { Readable } from "node:stream";
import { Transform, type TransformCallback } from "node:stream";
import { type AppError, payloadTooLarge } from "../errors";
import { BufferChurn } from "./buffer-churn";
import { formatBytes } from "./byte-limit";

/** The 413 of the max-upload-size setting. */
export function uploadTooLarge(maxBytes: number, actual: number | null): AppError {
  return payloadTooLarge(
    `File size exceeds system limit, max ${formatBytes(maxBytes)}${actual !== null ? `, current ${formatBytes(actual)}` : ""}`,
  );
}

/** The 413 of a part sent to a signed part URL that is bigger than the part size the upload declared. */
export function partTooLarge(partSize: number): AppError {
  return payloadTooLarge(`Part is larger than the upload's part size (${formatBytes(partSize)})`);
}

export interface IngestOptions {
  /** Most bytes accepted; absent = no limit (copies between storages). */
  maxBytes?: number;
  /** Size the client announced (Content-Length, a form field): over the limit is refused unread. */
  declaredSize?: number | null;
  /** The error for going over `maxBytes` (default: the max-upload-size text). */
  tooLarge?: (maxBytes: number, actual: number | null) => AppError;
  /** Called with the running total after each chunk. */
  onBytes?: (total: number) => void;
  /** Aborting it aborts the write. */
  signal?: AbortSignal;
}

export interface Ingested<T> {
  result: T;
  bytes: number;
}

/** Counts bytes, reports them, and errors once they pass the limit (also SafeFetcher's body limit). */
export class Meter extends Transform {
  bytes = 0;
  private readonly churn = new BufferChurn();
  constructor(
    private readonly maxBytes: number,
    private readonly over: () => AppError,
    private readonly onBytes?: (total: number) => void,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) {
      callback(this.over());
      return;
    }
    this.onBytes?.(this.bytes);
    this.churn.passed(chunk.length);
    callback(null, chunk);
  }
}

/** Throws the 413 when a declared size is already over the limit. */
export function checkDeclaredSize(options: IngestOptions): void {
  const { maxBytes, declaredSize } = options;
  if (maxBytes === undefined || declaredSize == null || declaredSize <= maxBytes) return;
  throw (options.tooLarge ?? uploadTooLarge)(maxBytes, declaredSize);
}

/** Lets a source we stopped using run dry, so a client still sending gets the response. */
export function drain(source: Readable): void {
  if (!source.destroyed) source.resume();
}

/**
 * Feeds `source` into `write` (which must consume the stream it is given and
 * honour the signal). Resolves when both are done; on any failure the write is
 * aborted, its cleanup awaited, and the error thrown (413 when over the limit).
 */
export async function ingest<T>(
  source: Readable,
  write: (input: Readable, signal: AbortSignal) => Promise<T>,
  options: IngestOptions = {},
): Promise<Ingested<T>> {
  try {
    checkDeclaredSize(options);
  } catch (e) {
    drain(source);
    throw e;
  }
  const maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
  const over = () => (options.tooLarge ?? uploadTooLarge)(maxBytes, null);
  const meter = new Meter(maxBytes, over, options.onBytes);
  // Failures reach the caller through the promises below. The writer may not listen yet when the
  // body breaks off (it can still be preparing its target), and an 'error' event nobody hears
  // would end the process.
  meter.on("error", () => undefined);
  const controller = new AbortController();
  const outer = options.signal;
  const forward = () => controller.abort(outer?.reason);
  if (outer?.aborted) forward();
  else outer?.addEventListener("abort", forward, { once: true });
  try {
    // A write that fails stops reading: break the feeding off too, or it would wait forever.
    const writing = write(meter, controller.signal).catch((e) => {
      meter.destroy(e instanceof Error ? e : new Error(String(e)));
      throw e;
    });
    // A body that breaks off fails the write: its signal aborts, and the stream it reads errors.
    const feeding = feed(source, meter).catch((e) => {
      controller.abort(e);
      meter.destroy(e instanceof Error ? e : new Error(String(e)));
      throw e;
    });
    const [written, fed] = await Promise.allSettled([writing, feeding]);
    if (fed.status === "rejected") throw fed.reason;
    if (written.status === "rejected") throw written.reason;
    return { result: written.value, bytes: meter.bytes };
  } catch (e) {
    controller.abort(e);
    source.unpipe(meter);
    meter.destroy();
    drain(source);
    throw meter.bytes > maxBytes ? over() : e;
  } finally {
    outer?.removeEventListener("abort", forward);
  }
}

/** Pipes `source` into `into`; settles when the source has ended, or fails when it breaks off. */
function feed(source: Readable, into: Transform): Promise<void> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (e?: unknown) => {
      if (settled) return;
      settled = true;
      if (e) reject(e);
      else resolve();
    };
    // A source that already broke off (a remote body that failed before we got to it) emits nothing more.
    if (source.errored || (source.destroyed && !source.readableEnded)) {
      settle(source.errored ?? new Error("The body was closed before it was read"));
      return;
    }
    source.once("error", settle);
    into.once("error", settle);
    source.once("end", () => settle());
    // A request whose connection dropped closes without ending.
    source.once("close", () => settle(new Error("The client closed the connection before the body ended")));
    source.pipe(into);
  });
}
