import { createHash } from "node:crypto";
import type { BigIntStats } from "node:fs";
import * as fs from "node:fs/promises";
import { Readable } from "node:stream";
import { AppError, insufficientStorage, isAppError } from "../../errors";
import {
  directoryNotEmpty,
  invalidPath,
  isADirectory,
  notADirectory,
  storageAccessDenied,
  storageNotFound,
  targetExists,
  uploadAborted,
} from "../errors";
import { mimeTypeFor } from "../mime";
import { baseName } from "../path-safety";
import type { StorageEntry } from "../types";

/** File-system helpers for the LOCAL driver: errno translation, ETags, entries, cursors. */

export type Errno = NodeJS.ErrnoException;
export const errnoOf = (e: unknown): string | undefined => (e as Errno | null)?.code;

/**
 * ETag from inode, size and nanosecond mtime, hashed so it reveals nothing
 * about the file system. Cheap (no content read) and changes whenever a write
 * replaces the file, since every write lands as a new inode. Two different
 * contents could only collide if written within the same mtime tick with the
 * same size and recycled inode, which callers may treat as a weak validator.
 */
export function etagOf(st: BigIntStats): string {
  return createHash("sha1").update(`${st.ino}:${st.size}:${st.mtimeNs}`).digest("hex").slice(0, 32);
}

export function entryOf(path: string, st: BigIntStats): StorageEntry {
  const isDirectory = st.isDirectory();
  return {
    path,
    name: baseName(path),
    isDirectory,
    size: isDirectory ? 0 : Number(st.size),
    modified: st.mtime,
    etag: isDirectory ? null : etagOf(st),
    contentType: isDirectory ? null : mimeTypeFor(path),
  };
}

export const compareNames = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));
export const encodeCursor = (name: string) => Buffer.from(name).toString("base64url");
export const decodeCursor = (cursor: string) => Buffer.from(cursor, "base64url").toString();

/** Translates errno failures into the storage vocabulary. */
export function mapFsError(e: unknown, path: string): unknown {
  if (isAppError(e)) return e;
  switch (errnoOf(e)) {
    case "ENOENT":
      return storageNotFound(path);
    case "ENOTDIR":
      return notADirectory(path);
    case "EISDIR":
      return isADirectory(path);
    case "EEXIST":
      return targetExists(path);
    case "ENOTEMPTY":
      return directoryNotEmpty(path);
    case "EACCES":
    case "EPERM":
      return storageAccessDenied(`Permission denied: ${path}`);
    case "ENOSPC":
    case "EDQUOT":
      return insufficientStorage("No space left on the storage device");
    case "ENAMETOOLONG":
      return invalidPath("Path is too long for the file system");
    case "ABORT_ERR":
      return uploadAborted();
    default:
      return e instanceof Error
        ? new AppError(500, "storage_error", "The storage device failed to complete the request", {
            backend: e.message,
            code: errnoOf(e),
          })
        : e;
  }
}

export async function syncDir(dir: string): Promise<void> {
  // Makes the rename itself durable; some file systems refuse fsync on directories, which is harmless.
  const handle = await fs.open(dir, "r").catch(() => null);
  if (!handle) return;
  await handle.sync().catch(() => {});
  await handle.close();
}

/** A zero-length fs range read is not expressible (end is inclusive), so empty files get this. */
export function emptyStream(): Readable {
  return Readable.from([]);
}
