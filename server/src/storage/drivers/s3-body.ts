import type { Readable } from "node:stream";
import type { S3Client } from "@aws-sdk/client-s3";
import { invalidPart, invalidRange, uploadAborted } from "../errors";
import { normalizePath } from "../path-safety";
import { MeasuringStream, unquoteEtag } from "../streams";
import type { ReadRange, WriteResult } from "../types";
import { sdk } from "./s3-sdk";

/** Small pieces the S3 driver needs around request bodies, keys and ranges. */

const MiB = 1024 * 1024;

export interface UploadStreamInput {
  bucket: string;
  key: string;
  contentType: string;
  body: Readable;
  /** Known length: one PutObject. Unknown: a multipart upload fed part by part. */
  size?: number;
  partSize?: number;
  signal?: AbortSignal;
}

/**
 * Streams a body into one object. S3 shows an object only once its upload
 * completes, so this is two-phase by nature: a failed or aborted transfer
 * leaves no object, and lib-storage aborts its multipart upload on failure.
 * Memory stays at most `partSize` × 2 for unknown lengths (queue of two parts)
 * and a socket buffer for known ones. Errors are raw; the driver maps them.
 */
export async function uploadStream(client: S3Client, input: UploadStreamInput): Promise<WriteResult> {
  const feed = feedBody(input.body, input.size, input.signal);
  try {
    let etag: string | undefined;
    if (input.size !== undefined) {
      const out = await client.send(
        new sdk.PutObjectCommand({
          Bucket: input.bucket,
          Key: input.key,
          Body: feed.measure,
          ContentLength: input.size,
          ContentType: input.contentType,
        }),
        { abortSignal: feed.signal },
      );
      etag = out.ETag;
    } else {
      const upload = new sdk.Upload({
        client,
        params: { Bucket: input.bucket, Key: input.key, Body: feed.measure, ContentType: input.contentType },
        partSize: Math.max(input.partSize ?? 5 * MiB, 5 * MiB),
        queueSize: 2,
      });
      etag = (await upload.done()).ETag;
    }
    if (feed.error()) throw feed.error();
    return { size: input.size ?? feed.measure.bytes, etag: unquoteEtag(etag) };
  } catch (e) {
    feed.stop();
    throw feed.error() ?? e;
  } finally {
    feed.done();
  }
}

/**
 * Connects a caller's stream to an SDK request body through a byte counter.
 * The SDK pipes bodies with .pipe(), which does not forward errors: without
 * this, a source that fails (or a caller that aborts) would leave the request
 * waiting forever for bytes that never come. `error()` is the source's or the
 * caller's failure, which explains more than the SDK's resulting AbortError.
 */
export function feedBody(body: Readable, size: number | undefined, callerSignal?: AbortSignal) {
  const measure = new MeasuringStream({ limit: size, exact: size !== undefined });
  const abort = new AbortController();
  let sourceError: unknown = null;
  let finished = false;
  const fail = (err: unknown) => {
    if (finished) return;
    sourceError ??= err;
    abort.abort();
    measure.destroy(err as Error);
    body.destroy();
  };
  const onCallerAbort = () => fail(uploadAborted());
  const onSourceError = (err: unknown) => fail(err);
  body.on("error", onSourceError);
  measure.on("error", onSourceError);
  callerSignal?.addEventListener("abort", onCallerAbort, { once: true });
  if (callerSignal?.aborted) onCallerAbort();
  body.pipe(measure);
  return {
    measure,
    signal: abort.signal,
    error: () => sourceError,
    /** After a backend failure: stop reading the source too. */
    stop: () => {
      finished = true;
      measure.destroy();
      body.destroy();
    },
    done: () => {
      finished = true;
      callerSignal?.removeEventListener("abort", onCallerAbort);
    },
  };
}

/** A listed name we can hand out as a path segment, or null (the dir marker, `a//b` keys, control chars). */
export function addressableName(name: string | undefined): string | null {
  if (!name || name.includes("/")) return null;
  try {
    return normalizePath(name) === name ? name : null;
  } catch {
    return null;
  }
}

/** Per-segment URL encoding of a key, keeping the slashes. */
export function encodeKey(key: string): string {
  return key.split("/").map(encodeURIComponent).join("/");
}

export function checkPartNumber(n: number): void {
  if (!Number.isInteger(n) || n < 1 || n > 10_000)
    throw invalidPart("Part number must be between 1 and 10000");
}

export function rangeShapeCheck(range?: ReadRange): void {
  if (!range) return;
  const bad = (n: number | undefined) => n !== undefined && (!Number.isSafeInteger(n) || n < 0);
  if (bad(range.start) || bad(range.end) || bad(range.suffix)) throw invalidRange();
  if (range.start !== undefined && range.end !== undefined && range.end < range.start) throw invalidRange();
}

export function parseContentRange(
  value: string | undefined,
): { start: number; end: number; size: number } | null {
  const m = value ? /^bytes (\d+)-(\d+)\/(\d+)$/.exec(value) : null;
  return m ? { start: Number(m[1]), end: Number(m[2]), size: Number(m[3]) } : null;
}
