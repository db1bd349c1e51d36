/**
 * The one set of path rules of ClipShare: the explorer's virtual paths
 * (domain/fs/vpath.ts) and the drivers' relative paths (path-safety.ts) are
 * checked against the same limits, so a path the explorer accepts is one
 * every driver can store.
 */
import { invalidPath } from "./errors";

/** Longest path, in UTF-8 bytes: S3 keys top out at 1024 bytes, and virtual paths are never shorter than the driver path they name. */
export const MAX_PATH_BYTES = 1024;
/** Longest single segment, in UTF-8 bytes (the usual file-system name limit). */
export const MAX_SEGMENT_BYTES = 255;

// C0 controls, DEL and C1 controls: invisible in listings, unsafe in headers and logs.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
export const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/;

/** The checks on a whole path string: a string, within MAX_PATH_BYTES, no backslash or control character. */
export function checkPathText(input: unknown): asserts input is string {
  if (typeof input !== "string") throw invalidPath("Path must be a string");
  if (Buffer.byteLength(input, "utf8") > MAX_PATH_BYTES)
    throw invalidPath(`Path is longer than ${MAX_PATH_BYTES} bytes`);
  if (input.includes("\\")) throw invalidPath("Path must not contain backslashes");
  if (CONTROL_CHARS.test(input)) throw invalidPath("Path must not contain control characters");
}

/** A single segment within MAX_SEGMENT_BYTES. */
export function checkSegmentLength(segment: string): void {
  if (Buffer.byteLength(segment, "utf8") > MAX_SEGMENT_BYTES)
    throw invalidPath(`A path segment is longer than ${MAX_SEGMENT_BYTES} bytes`);
}
