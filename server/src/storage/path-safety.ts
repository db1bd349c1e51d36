import { invalidPath } from "./errors";
import { checkPathText, checkSegmentLength } from "./path-rules";

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
 * segment (path-rules.ts, the limits the explorer applies too).
 *
 * This sees the string exactly as given. Percent-decoding (`%2e%2e`, `%2f`)
 * belongs to the caller, which must decode once and pass the result here;
 * decoding again after this check would reopen traversal. No Unicode
 * normalization is applied: `é` composed and decomposed are different names,
 * as they are on disk and in S3.
 */
export function normalizePath(input: string): string {
  checkPathText(input);
  if (input.startsWith("/")) throw invalidPath("Path must be relative", { path: input });
  const segments: string[] = [];
  for (const segment of input.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") throw invalidPath("Path must not contain '..'", { path: input });
    checkSegmentLength(segment);
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
