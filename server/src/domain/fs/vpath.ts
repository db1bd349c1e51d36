/**
 * Virtual paths of the explorer tree: absolute, "/"-separated, "/" is the
 * root. Every path that enters the file-system layer is normalized here once;
 * everything below works on the normalized form only.
 */
import { invalidPath } from "../../storage/errors";
import { CONTROL_CHARS, checkPathText, checkSegmentLength } from "../../storage/path-rules";

/**
 * The forms a segment takes when something decodes it again (a proxy, a
 * client library, a storage backend): `%252e%252e` → `%2e%2e` → `..`.
 */
function decodedForms(segment: string): string[] {
  const forms = [segment];
  let current = segment;
  for (let i = 0; i < 3 && current.includes("%"); i++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      break; // "100%.txt" is a name, not an encoding
    }
    if (next === current) break;
    forms.push(next);
    current = next;
  }
  return forms;
}

/**
 * Normalizes a virtual path: leading "/", no empty segments, no trailing "/"
 * (except the root). Refuses with 400 `invalid_path`: `.` and `..` segments,
 * the same smuggled in percent-encoded (`%2e%2e`, `%2f`, `%5c`, `%00`),
 * backslashes, NUL and other control characters, and what is longer than the
 * limits every driver shares (path-rules.ts: MAX_PATH_BYTES in total).
 */
export function normalizeVirtualPath(input: unknown): string {
  checkPathText(input);
  const segments: string[] = [];
  for (const segment of input.split("/")) {
    if (segment === "") continue;
    for (const form of decodedForms(segment)) {
      if (form === "." || form === "..") throw invalidPath("Path must not contain . or .. segments");
      if (form.includes("/") || form.includes("\\") || CONTROL_CHARS.test(form)) {
        throw invalidPath("Path must not contain encoded separators or control characters");
      }
    }
    checkSegmentLength(segment);
    segments.push(segment);
  }
  return `/${segments.join("/")}`;
}

export function vjoin(dir: string, name: string): string {
  return dir === "/" ? `/${name}` : `${dir}/${name}`;
}

/** Parent of a normalized path; the root is its own parent. */
export function vparent(path: string): string {
  const i = path.lastIndexOf("/");
  return i <= 0 ? "/" : path.slice(0, i);
}

export function vbasename(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** `path` is `ancestor` or lies below it (both normalized). */
export function isWithin(path: string, ancestor: string): boolean {
  return ancestor === "/" || path === ancestor || path.startsWith(`${ancestor}/`);
}

/** Driver-relative path of `path` inside a mount at `mountPath` ("" for the mount root). */
export function subPathOf(path: string, mountPath: string): string {
  return path === mountPath ? "" : path.slice(mountPath.length + 1);
}

/** Virtual path of a driver-relative path inside a mount. */
export function fromSubPath(mountPath: string, subPath: string): string {
  return subPath === "" ? mountPath : `${mountPath}/${subPath}`;
}

/** How the API shows a path: directories end with "/" (the 0.7.3 convention). */
export function displayPath(path: string, isDirectory: boolean): string {
  return isDirectory && path !== "/" ? `${path}/` : path;
}

/** Driver-relative parent ("" for top-level entries). */
export function subParent(subPath: string): string {
  const i = subPath.lastIndexOf("/");
  return i < 0 ? "" : subPath.slice(0, i);
}
