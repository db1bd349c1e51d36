/**
 * Virtual paths of the explorer: "/" is the root, directories may
 * end with "/" on the wire, the URL is /mount-explorer/<segments>. Pure.
 */
import { HEIC_NAME } from "../../../lib/photo-types";
import type { PreviewKind } from "../../../lib/preview-kind";

/** "/a/b/" → "/a/b"; "" → "/"; repeated slashes collapse. */
export function normalizePath(path: string): string {
  const parts = path.split("/").filter((p) => p.length > 0);
  return parts.length === 0 ? "/" : `/${parts.join("/")}`;
}

export function pathSegments(path: string): string[] {
  return normalizePath(path)
    .split("/")
    .filter((p) => p.length > 0);
}

export function joinPath(dir: string, name: string): string {
  const base = normalizePath(dir);
  return normalizePath(`${base}/${name}`);
}

export function parentPath(path: string): string {
  const segments = pathSegments(path);
  return segments.length <= 1 ? "/" : `/${segments.slice(0, -1).join("/")}`;
}

export function baseName(path: string): string {
  const segments = pathSegments(path);
  return segments[segments.length - 1] ?? "";
}

export interface Crumb {
  name: string;
  path: string;
}

/** Root first; each crumb links to its directory. */
export function breadcrumbs(path: string): Crumb[] {
  const crumbs: Crumb[] = [{ name: "", path: "/" }];
  let current = "";
  for (const segment of pathSegments(path)) {
    current += `/${segment}`;
    crumbs.push({ name: segment, path: current });
  }
  return crumbs;
}

/** The explorer URL of a path (each segment percent-encoded). */
export function explorerHref(path: string): string {
  const segments = pathSegments(path);
  return segments.length === 0
    ? "/mount-explorer"
    : `/mount-explorer/${segments.map((s) => encodeURIComponent(s)).join("/")}`;
}

/** Whether `path` is `base` or below it. */
export function isWithin(base: string, path: string): boolean {
  const b = normalizePath(base);
  const p = normalizePath(path);
  return b === "/" || p === b || p.startsWith(`${b}/`);
}

/** A new name is one path segment: not empty, no "/", not "." or "..", no NUL. */
export function validName(name: string): boolean {
  const n = name.trim();
  return n.length > 0 && n.length <= 255 && !n.includes("/") && !n.includes("\0") && n !== "." && n !== "..";
}

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
}

/** The explorer's preview kinds: the share pages' (lib/preview-kind.ts), with "other" for no preview. */
export type FileKind = Exclude<PreviewKind, "none"> | "other";

/** Archives the server can look inside (GET /fs/archive): ZIP, TAR and TAR.GZ. */
const ARCHIVE = /\.(zip|jar|tar|tgz|tar\.gz)$/i;

const IMAGE = new Set(["png", "jpg", "jpeg", "gif", "webp", "svg", "bmp", "ico", "avif", "heic", "heif"]);

/** Photos browsers cannot show: the server's thumbnail stands in for the original (HEIC from phones). */
export const showsAsThumbnail = (name: string) => HEIC_NAME.test(name);
const VIDEO = new Set(["mp4", "webm", "ogv", "mov", "m4v"]);
const AUDIO = new Set(["mp3", "wav", "ogg", "oga", "m4a", "flac", "aac", "opus"]);
const MARKDOWN = new Set(["md", "markdown", "mdown", "mkd"]);
const TEXT = new Set([
  "txt",
  "log",
  "csv",
  "tsv",
  "json",
  "jsonc",
  "xml",
  "yaml",
  "yml",
  "toml",
  "ini",
  "conf",
  "cfg",
  "env",
  "js",
  "mjs",
  "cjs",
  "ts",
  "tsx",
  "jsx",
  "css",
  "scss",
  "less",
  "html",
  "htm",
  "vue",
  "svelte",
  "py",
  "rb",
  "go",
  "rs",
  "java",
  "kt",
  "c",
  "h",
  "cpp",
  "hpp",
  "cs",
  "php",
  "sh",
  "bash",
  "zsh",
  "sql",
  "swift",
  "lua",
  "pl",
  "r",
  "dart",
  "scala",
  "gradle",
  "properties",
  "dockerfile",
  "gitignore",
]);
const OFFICE = new Set(["doc", "docx", "xls", "xlsx", "ppt", "pptx", "odt", "ods", "odp", "rtf"]);

/** How a file can be previewed, by its name first and its MIME type second. */
export function fileKind(name: string, mimetype?: string | null): FileKind {
  const ext = extensionOf(name);
  if (IMAGE.has(ext)) return "image";
  if (VIDEO.has(ext)) return "video";
  if (AUDIO.has(ext)) return "audio";
  if (ext === "pdf") return "pdf";
  if (MARKDOWN.has(ext)) return "markdown";
  if (TEXT.has(ext)) return "text";
  if (OFFICE.has(ext)) return "office";
  if (ARCHIVE.test(name)) return "archive";
  if (ext === "epub") return "epub";
  const mime = (mimetype ?? "").toLowerCase();
  if (mime.startsWith("image/")) return "image";
  if (mime.startsWith("video/")) return "video";
  if (mime.startsWith("audio/")) return "audio";
  if (mime === "application/pdf") return "pdf";
  if (mime === "text/markdown") return "markdown";
  if (mime.startsWith("text/") || mime === "application/json") return "text";
  return "other";
}

/** Text files the editor opens (fs/update takes up to 10 MB). */
export const EDIT_MAX_BYTES = 10 * 1024 * 1024;

export function isEditable(name: string, size: number, mimetype?: string | null): boolean {
  const kind = fileKind(name, mimetype);
  return (kind === "text" || kind === "markdown") && size <= EDIT_MAX_BYTES;
}
