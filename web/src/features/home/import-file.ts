import { MARKDOWN_EXTENSIONS } from "@clipshare/shared";
import type { TextFormat } from "../../lib/markdown/detect";

/** What the file picker offers: text and Markdown files. */
export const IMPORT_ACCEPT = [
  "text/plain",
  "text/markdown",
  ".txt",
  ".text",
  ".log",
  ...MARKDOWN_EXTENSIONS.map((ext) => `.${ext}`),
].join(",");

export function fileExtension(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
}

/** The Markdown extensions make an imported file Markdown; anything else is plain text. */
export function formatForFileName(name: string): TextFormat {
  return MARKDOWN_EXTENSIONS.includes(fileExtension(name)) ? "markdown" : "plain";
}

/** NUL characters or many undecodable bytes: an image or archive, not text. */
export function looksBinary(text: string): boolean {
  const sample = text.slice(0, 8192);
  if (sample.includes("\u0000")) return true;
  let replaced = 0;
  for (const ch of sample) if (ch === "\uFFFD") replaced++;
  return sample.length > 0 && replaced / sample.length > 0.02;
}
