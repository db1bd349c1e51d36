/**
 * One entry of an archive as an answer (the explorer's and file shares'):
 * typed by its own name and served as user content, so an HTML or SVG entry
 * never runs as a page on our origin.
 */
import type { Readable } from "node:stream";
import type { Context } from "hono";
import { mimeTypeFor } from "../storage/mime";
import { nodeBody } from "./node-body";
import { setUserContentHeaders } from "./serve-object";
import type { AppEnv } from "./types";

export function archiveEntryResponse(
  c: Context<AppEnv>,
  opened: { body: Readable; size: number },
  entry: string,
  download: boolean,
): Response {
  const name = entry.split("/").pop() || "entry";
  const headers = new Headers({
    "Content-Length": String(opened.size),
    "Cache-Control": "private, no-cache",
  });
  setUserContentHeaders(c, headers, mimeTypeFor(name), download ? "attachment" : "inline", name);
  return new Response(nodeBody(c, opened.body), { status: 200, headers });
}
