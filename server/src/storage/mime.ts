/**
 * Extension → MIME type for names coming from users and storage listings.
 * Deliberately small and local: the storage layer needs a stable answer for
 * common files, not a registry. Anything unknown is application/octet-stream,
 * which the HTTP layer serves as an attachment.
 */
export const DEFAULT_MIME_TYPE = "application/octet-stream";

const MARKDOWN_EXTENSIONS = ["md", "markdown", "mdown", "mkd", "mdwn", "mdtxt", "mdtext", "rmd"];

const TYPES: Record<string, string> = {
  // text and code
  txt: "text/plain",
  text: "text/plain",
  log: "text/plain",
  conf: "text/plain",
  ini: "text/plain",
  csv: "text/csv",
  tsv: "text/tab-separated-values",
  html: "text/html",
  htm: "text/html",
  css: "text/css",
  js: "text/javascript",
  mjs: "text/javascript",
  ts: "text/plain",
  py: "text/x-python",
  sh: "application/x-sh",
  yaml: "application/yaml",
  yml: "application/yaml",
  toml: "application/toml",
  json: "application/json",
  xml: "application/xml",
  // images
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  bmp: "image/bmp",
  ico: "image/x-icon",
  svg: "image/svg+xml",
  tif: "image/tiff",
  tiff: "image/tiff",
  heic: "image/heic",
  // video
  mp4: "video/mp4",
  m4v: "video/mp4",
  webm: "video/webm",
  mkv: "video/x-matroska",
  mov: "video/quicktime",
  avi: "video/x-msvideo",
  ogv: "video/ogg",
  // audio
  mp3: "audio/mpeg",
  m4a: "audio/mp4",
  aac: "audio/aac",
  wav: "audio/wav",
  flac: "audio/flac",
  ogg: "audio/ogg",
  oga: "audio/ogg",
  opus: "audio/opus",
  // documents
  pdf: "application/pdf",
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xls: "application/vnd.ms-excel",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  ppt: "application/vnd.ms-powerpoint",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  odt: "application/vnd.oasis.opendocument.text",
  ods: "application/vnd.oasis.opendocument.spreadsheet",
  odp: "application/vnd.oasis.opendocument.presentation",
  rtf: "application/rtf",
  epub: "application/epub+zip",
  // archives
  zip: "application/zip",
  gz: "application/gzip",
  tgz: "application/gzip",
  tar: "application/x-tar",
  bz2: "application/x-bzip2",
  xz: "application/x-xz",
  "7z": "application/x-7z-compressed",
  rar: "application/vnd.rar",
  // misc
  wasm: "application/wasm",
  woff: "font/woff",
  woff2: "font/woff2",
  ttf: "font/ttf",
  otf: "font/otf",
};
for (const ext of MARKDOWN_EXTENSIONS) TYPES[ext] = "text/markdown";

/** Lower-cased extension without the dot, or "" (dotfiles like `.env` have none). */
export function extensionOf(name: string): string {
  const base = name.slice(name.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  return dot <= 0 ? "" : base.slice(dot + 1).toLowerCase();
}

/** MIME type guessed from a file name or path; never throws, never empty. */
export function mimeTypeFor(name: string): string {
  return TYPES[extensionOf(name)] ?? DEFAULT_MIME_TYPE;
}

/** True for the Markdown extensions the upload rules single out. */
export function isMarkdownName(name: string): boolean {
  return MARKDOWN_EXTENSIONS.includes(extensionOf(name));
}
