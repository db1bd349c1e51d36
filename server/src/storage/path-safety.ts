import { invalidPath } from "./errors";

/** Longest virtual path accepted, in UTF-8 bytes (S3 keys top out at 1024 bytes). */
export const MAX_PATH_BYTES = 1024;
/** Longest single segment, in UTF-8 bytes (the usual file-system name limit). */
export const MAX_SEGMENT_BYTES = 255;

// C0 controls, DEL and C1 controls: invisible in listings, unsafe in headers and logs.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Normalizes a driver-relative path and refuses anything that could name a
 * location outside the driver root.
 *
 * Accepted form: segments joined by "/", no leading "/", e.g. `a/b.txt`; the
 * root is `""`. A trailing "/" (how the API marks directories), repeated "/" and
 * "." segments are dropped, so `a//./b/` becomes `a/b`.
 *
 * Refused with 400 `invalid_path`: a leading "/" (absolute), any ".." segment,
 * backslashes (a Windows separator some clients send), NUL and other control
 * characters, more than MAX_PATH_BYTES in total or MAX_SEGMENT_BYTES in one
 * segment.
 *
 * This sees the string exactly as given. Percent-decoding (`%2e%2e`, `%2f`)
 * belongs to the caller, which must decode once and pass the result here;
 * decoding again after this check would reopen traversal. No Unicode
 * normalization is applied: `é` composed and decomposed are different names,
 * as they are on disk and in S3.
 */
export function normalizePath(input: string): string {
  if (typeof input !== "string") throw invalidPath("Path must be a string");
  if (input.startsWith("/")) throw invalidPath("Path must be relative", { path: input });
  if (input.includes("\\")) throw invalidPath("Path must not contain backslashes", { path: input });
  if (CONTROL_CHARS.test(input)) throw invalidPath("Path must not contain control characters");
  if (Buffer.byteLength(input, "utf8") > MAX_PATH_BYTES) {
    throw invalidPath(`Path is longer than ${MAX_PATH_BYTES} bytes`);
  }
  const segments: string[] = [];
  for (const segment of input.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") throw invalidPath("Path must not contain '..'", { path: input });
    if (Buffer.byteLength(segment, "utf8") > MAX_SEGMENT_BYTES) {
      throw invalidPath(`Path segment is longer than ${MAX_SEGMENT_BYTES} bytes`);
    }
    segments.push(segment);
  }
  return segments.join("/");
}

/** Joins already-normalized paths; `""` stands for the root. */
export function joinPath(...parts: string[]): string {
  return parts.filter((p) => p !== "").join("/");
}

/** Parent of a normalized path (`""` for top-level entries and for the root itself). */
export function parentPath(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
}

/** Last segment of a normalized path (`""` for the root). */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** True when `path` is `ancestor` itself or lies below it (both normalized). */
export function isSameOrInside(path: string, ancestor: string): boolean {
  return ancestor === "" || path === ancestor || path.startsWith(`${ancestor}/`);
}
