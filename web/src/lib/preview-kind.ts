import { MARKDOWN_EXTENSIONS } from "@clipshare/shared";
import { HEIC_NAME } from "./photo-types";

/**
 * Which viewer shows a shared file, chosen from its type and name. Pure, so it
 * is unit-tested. The server decides what it serves inline (images, media, PDF,
 * text as text/plain); the app never puts HTML or unknown types in the page.
 */

export type PreviewKind =
  | "image"
  | "video"
  | "audio"
  | "pdf"
  | "markdown"
  | "text"
  | "office"
  | "archive"
  | "epub"
  | "none";

/** Text previews fetch at most this much of a file (a Range request); the rest is a download away. */
export const TEXT_PREVIEW_MAX_BYTES = 1024 * 1024;
/** Syntax highlighting runs on texts up to this size; longer ones show plain. */
export const HIGHLIGHT_MAX_BYTES = 256 * 1024;

const IMAGE_TYPES =
  /^image\/(png|jpe?g|pjpeg|gif|webp|avif|heic|heif|bmp|svg\+xml|x-icon|vnd\.microsoft\.icon)$/;
const VIDEO_TYPES = /^video\/(mp4|webm|ogg|quicktime|x-m4v)$/;
const AUDIO_TYPES = /^audio\/(mpeg|mp3|mp4|wav|x-wav|wave|ogg|webm|aac|x-m4a|m4a|flac|x-flac|opus)$/;
const TEXT_APPLICATION_TYPES =
  /^application\/(json|ld\+json|javascript|x-javascript|ecmascript|typescript|xml|x-yaml|yaml|toml|x-toml|x-sh|x-shellscript|sql|graphql|x-httpd-php|x-python|x-ruby|x-perl|x-tex|x-latex|x-ndjson|csv|rtf-text)$/;
const OFFICE_EXTENSIONS = ["doc", "docx", "xls", "xlsx", "ppt", "pptx", "odt", "ods", "odp", "rtf"];
/** Raster images browsers show, by name, for files whose type says nothing (entries inside archives). */
const IMAGE_EXTENSIONS = new Set(["png", "jpg", "jpeg", "gif", "webp", "avif", "bmp"]);
/** Archives the server looks inside (ZIP, TAR, TAR.GZ; a .docx is a ZIP but previews as Office). */
const ARCHIVE_NAME = /\.(zip|jar|tar|tgz|tar\.gz)$/i;

/** Extension → highlight.js language (only the languages the viewer bundles). */
const LANGUAGE_BY_EXTENSION: Record<string, string> = {
  js: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  jsx: "javascript",
  ts: "typescript",
  mts: "typescript",
  cts: "typescript",
  tsx: "typescript",
  json: "json",
  jsonc: "json",
  py: "python",
  rb: "ruby",
  go: "go",
  rs: "rust",
  java: "java",
  kt: "kotlin",
  kts: "kotlin",
  swift: "swift",
  c: "c",
  h: "c",
  cc: "cpp",
  cpp: "cpp",
  cxx: "cpp",
  hpp: "cpp",
  cs: "csharp",
  php: "php",
  sh: "bash",
  bash: "bash",
  zsh: "bash",
  ps1: "powershell",
  sql: "sql",
  yml: "yaml",
  yaml: "yaml",
  toml: "ini",
  ini: "ini",
  conf: "ini",
  cfg: "ini",
  env: "ini",
  xml: "xml",
  html: "xml",
  htm: "xml",
  svg: "xml",
  vue: "xml",
  css: "css",
  scss: "scss",
  less: "less",
  diff: "diff",
  patch: "diff",
  dockerfile: "dockerfile",
  makefile: "makefile",
  mk: "makefile",
  lua: "lua",
  pl: "perl",
  r: "r",
  dart: "dart",
  scala: "scala",
  graphql: "graphql",
  gql: "graphql",
  proto: "protobuf",
};

const TEXT_EXTENSIONS = new Set([
  ...Object.keys(LANGUAGE_BY_EXTENSION),
  "txt",
  "text",
  "log",
  "csv",
  "tsv",
  "nfo",
  "properties",
  "gitignore",
  "editorconfig",
  "srt",
  "vtt",
]);

const LANGUAGE_BY_TYPE: Record<string, string> = {
  "application/json": "json",
  "application/ld+json": "json",
  "application/javascript": "javascript",
  "text/javascript": "javascript",
  "application/typescript": "typescript",
  "application/xml": "xml",
  "text/xml": "xml",
  "text/html": "xml",
  "text/css": "css",
  "application/x-yaml": "yaml",
  "application/yaml": "yaml",
  "text/yaml": "yaml",
  "application/x-sh": "bash",
  "text/x-python": "python",
  "application/sql": "sql",
};

/** Lower-case extension, or the whole name for extension-less files like "Dockerfile". */
export function extensionOf(filename: string): string {
  const name = filename.trim().toLowerCase().split("/").pop() ?? "";
  const dot = name.lastIndexOf(".");
  if (dot <= 0) return name;
  return name.slice(dot + 1);
}

function baseType(mimetype: string | null | undefined): string {
  return (mimetype ?? "").split(";")[0]!.trim().toLowerCase();
}

export function previewKind(
  mimetype: string | null | undefined,
  filename: string,
  isOffice = false,
): PreviewKind {
  const type = baseType(mimetype);
  const ext = extensionOf(filename);
  if (type === "text/markdown" || type === "text/x-markdown" || MARKDOWN_EXTENSIONS.includes(ext))
    return "markdown";
  if (IMAGE_TYPES.test(type) || HEIC_NAME.test(filename)) return "image";
  if (VIDEO_TYPES.test(type)) return "video";
  if (AUDIO_TYPES.test(type)) return "audio";
  if (type === "application/pdf") return "pdf";
  if (isOffice || OFFICE_EXTENSIONS.includes(ext)) return "office";
  if (type === "application/epub+zip" || ext === "epub") return "epub";
  if (ARCHIVE_NAME.test(filename)) return "archive";
  if (type.startsWith("text/") || TEXT_APPLICATION_TYPES.test(type)) return "text";
  // A generic type says nothing: trust a well-known text, code or image extension.
  const generic = type === "" || type === "application/octet-stream";
  if (generic && TEXT_EXTENSIONS.has(ext)) return "text";
  if (generic && IMAGE_EXTENSIONS.has(ext)) return "image";
  return "none";
}

/** The highlight.js language for a text file, or null to show it plain. */
export function codeLanguage(mimetype: string | null | undefined, filename: string): string | null {
  const ext = extensionOf(filename);
  return LANGUAGE_BY_EXTENSION[ext] ?? LANGUAGE_BY_TYPE[baseType(mimetype)] ?? null;
}

/** How much of a text file to fetch, and whether the preview shows only its beginning. */
export function textPreviewRange(size: number, cap = TEXT_PREVIEW_MAX_BYTES) {
  const truncated = size > cap;
  return { truncated, bytes: truncated ? cap : size, rangeHeader: truncated ? `bytes=0-${cap - 1}` : null };
}

/** Highlight only texts small enough to stay responsive. */
export function shouldHighlight(language: string | null, textBytes: number): boolean {
  return language !== null && textBytes <= HIGHLIGHT_MAX_BYTES;
}
