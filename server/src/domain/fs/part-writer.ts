/**
 * Writing one file of unknown or large size through the server as a
 * multipart upload (WebDAV PUT in `multipart` mode): the body is cut into
 * parts of a fixed size, each part is buffered and sent with its exact length
 * (a few parts upload at once, so memory stays at a few parts), then the
 * upload is completed. Any failure, including the client going away, aborts
 * the upload, so nothing partial ever becomes visible. Drivers without multipart get one streamed
 * write instead. Same checks as VirtualFileSystem.write.
 */
import { Readable } from "node:stream";
import type { FsEntry } from "@clipshare/shared";
import type { MultipartPart, StorageEntry } from "../../storage/types";
import type { FsActor } from "./access";
import { FS_ERRORS, fsError, presentEntry } from "./fs-entry";
import type { VirtualFileSystem } from "./vfs";
import { displayPath, normalizeVirtualPath, vbasename } from "./vpath";

export const MIN_PART_BYTES = 8 * 1024 * 1024;
const MAX_PARTS = 10_000;
/** Backends answer each part after a round trip (Swift: 8 MiB in about 0.3 s); four at once keep the link busy. */
const PARTS_IN_FLIGHT = 4;

export interface PartWriteOptions {
  /** Announced length, if known: picks a part size that keeps the part count under the limit. */
  size?: number;
  contentType?: string;
  signal?: AbortSignal;
  /** Part size override (tests); at least 1 byte. */
  partSize?: number;
}

/** Part size for a body of `size` bytes (unknown: the minimum, good for about 80 GB). */
export function partSizeFor(size: number | undefined): number {
  if (!size) return MIN_PART_BYTES;
  return Math.max(MIN_PART_BYTES, Math.ceil(size / (MAX_PARTS - 1)));
}

export async function writeInParts(
  vfs: VirtualFileSystem,
  actor: FsActor,
  input: string,
  body: Readable,
  options: PartWriteOptions = {},
): Promise<FsEntry> {
  const path = normalizeVirtualPath(input);
  await vfs.authorize(actor, "upload", path);
  const target = await vfs.requireMount(path, actor);
  if (target.subPath === "") throw FS_ERRORS.isDirectory(displayPath(path, true));
  const { driver } = target;
  if (
    !driver.capabilities.multipart ||
    !driver.initMultipart ||
    !driver.uploadPart ||
    !driver.completeMultipart
  ) {
    return vfs.write(actor, path, body, options);
  }
  const partSize = options.partSize ?? partSizeFor(options.size);
  const { signal } = options;
  let uploadId: string;
  try {
    uploadId = await driver.initMultipart(target.subPath, { contentType: options.contentType, partSize });
  } catch (e) {
    throw fsError(e, target);
  }
  const parts: MultipartPart[] = [];
  let total = 0;
  const inflight = new Set<Promise<void>>();
  let failure: unknown = null;
  try {
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let nextPart = 1;
    // Up to PARTS_IN_FLIGHT parts upload while the next one fills: memory stays at
    // (PARTS_IN_FLIGHT + 1) parts, and reading the body overlaps the uploads.
    const send = async (part: Buffer) => {
      while (inflight.size >= PARTS_IN_FLIGHT) await Promise.race(inflight);
      if (failure) throw failure;
      signal?.throwIfAborted();
      const partNumber = nextPart++;
      const upload = driver.uploadPart!(
        target.subPath,
        uploadId,
        partNumber,
        Readable.from([part]),
        part.length,
      )
        .then(
          ({ etag }) => {
            parts.push({ partNumber, etag });
          },
          (e) => {
            failure ??= e;
          },
        )
        .finally(() => inflight.delete(upload));
      inflight.add(upload);
    };
    for await (const chunk of body as AsyncIterable<Buffer>) {
      signal?.throwIfAborted();
      if (failure) throw failure;
      pending.push(chunk);
      pendingBytes += chunk.length;
      total += chunk.length;
      while (pendingBytes >= partSize) {
        const joined = Buffer.concat(pending, pendingBytes);
        await send(joined.subarray(0, partSize));
        const rest = joined.subarray(partSize);
        pending = rest.length > 0 ? [rest] : [];
        pendingBytes = rest.length;
      }
    }
    signal?.throwIfAborted();
    if (pendingBytes > 0 || nextPart === 1) await send(Buffer.concat(pending, pendingBytes));
    pending = [];
    await Promise.all(inflight);
    if (failure) throw failure;
    parts.sort((a, b) => a.partNumber - b.partNumber);
    const written = await driver.completeMultipart(target.subPath, uploadId, parts);
    total = written.size;
    await vfs.invalidate(target, false);
    const entry: StorageEntry = {
      path: target.subPath,
      name: vbasename(path),
      isDirectory: false,
      size: total,
      modified: new Date(),
      etag: written.etag,
      contentType: options.contentType ?? null,
    };
    return presentEntry(target, entry);
  } catch (e) {
    // Let parts still on their way finish (or fail) before the upload is aborted.
    await Promise.allSettled(inflight);
    await driver.abortMultipart?.(target.subPath, uploadId).catch(() => undefined);
    throw fsError(e, target);
  }
}
