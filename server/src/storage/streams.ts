import { createHash, type Hash } from "node:crypto";
import { createReadStream } from "node:fs";
import { PassThrough, pipeline, Readable, Transform, type TransformCallback } from "node:stream";
import { sizeMismatch } from "./errors";

/** Read size for streaming stored files out: large reads keep the per-chunk cost small next to the copy. */
export const READ_CHUNK_BYTES = 1024 * 1024;

/**
 * Bytes a remote download reads ahead of its visitor. Without it the server's socket to the
 * storage pauses at every 16 KiB its visitor has not taken yet, and on a busy machine each side
 * then moves little per turn on the CPU.
 */
export const REMOTE_READ_AHEAD = 1024 * 1024;

/** `body` read up to REMOTE_READ_AHEAD ahead; destroying the result destroys `body`. */
export function readAhead(body: Readable): Readable {
  const out = new PassThrough({ highWaterMark: REMOTE_READ_AHEAD });
  pipeline(body, out, () => {});
  return out;
}

/**
 * Pass-through that counts bytes and, when asked, hashes them (MD5). With
 * `limit` it errors as soon as more bytes arrive, so a lying client cannot fill
 * the disk past the size it announced; with `exact` it also errors when the
 * source ends short, which matters for S3: a request sent with a Content-Length
 * the body never reaches would otherwise hang until a timeout.
 */
export class MeasuringStream extends Transform {
  bytes = 0;
  private readonly hash: Hash | null;

  constructor(private readonly options: { limit?: number; exact?: boolean; md5?: boolean } = {}) {
    super();
    this.hash = options.md5 ? createHash("md5") : null;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    const { limit } = this.options;
    if (limit !== undefined && this.bytes > limit) {
      callback(sizeMismatch(limit, this.bytes));
      return;
    }
    this.hash?.update(chunk);
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    const { limit, exact } = this.options;
    if (exact && limit !== undefined && this.bytes !== limit) callback(sizeMismatch(limit, this.bytes));
    else callback();
  }

  /** Hex MD5 of everything that passed; only valid after the stream finished. */
  md5(): string {
    if (!this.hash) throw new Error("MeasuringStream created without md5");
    return this.hash.digest("hex");
  }
}

/** The files' contents one after the other, opening each only when the previous one is done. */
export function concatFiles(paths: string[]): Readable {
  async function* chunks() {
    for (const path of paths) {
      for await (const chunk of createReadStream(path)) yield chunk as Buffer;
    }
  }
  return Readable.from(chunks(), { objectMode: false });
}

/** Unquoted ETag: S3 returns `"abc"`, clients send either form. */
export function unquoteEtag(etag: string | undefined | null): string | null {
  if (!etag) return null;
  return etag.replace(/^W\//, "").replace(/^"(.*)"$/, "$1");
}
