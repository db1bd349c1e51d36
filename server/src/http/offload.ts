/**
 * Download offload (DOWNLOAD_OFFLOAD): behind nginx (X-Accel-Redirect) or
 * Apache/lighttpd (X-Sendfile), ClipShare still authorizes the request,
 * counts the view, answers HEAD and conditional requests and sets every
 * header, but leaves the body of a LOCAL file to the proxy, which sends it
 * with sendfile and handles Range itself.
 */
import path from "node:path";
import type { Context, MiddlewareHandler } from "hono";
import type { DownloadOffload } from "../config";
import type { StorageDriver } from "../storage/types";
import type { AppEnv } from "./types";

/** Makes the setting visible to serveObject; installed only when offload is on. */
export function downloadOffload(offload: DownloadOffload): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set("downloadOffload", offload);
    await next();
  };
}

// Header values travel as bytes: UTF-8 names are written as Latin-1 code units of their UTF-8 bytes.
const asHeaderBytes = (s: string) => Buffer.from(s, "utf8").toString("latin1");

/**
 * The header that hands `storagePath` to the front proxy, or null when
 * ClipShare must send the body itself (not LOCAL, offload off, the file
 * outside the offload root, or a name no header can carry).
 */
export async function offloadHeader(
  c: Context,
  driver: StorageDriver,
  storagePath: string,
): Promise<[name: string, value: string] | null> {
  const offload = (c as Context<AppEnv>).get("downloadOffload");
  if (!offload || !driver.localPath) return null;
  const abs = await driver.localPath(storagePath);
  const rel = path.relative(offload.root, abs);
  if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel)) return null;
  // Control characters cannot be in a header; the proxy would refuse dot segments.
  if ([...abs].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f)) return null;
  if (offload.mode === "x-sendfile") return ["X-Sendfile", asHeaderBytes(abs)];
  const uri = offload.prefix + rel.split(path.sep).map(encodeURIComponent).join("/");
  return ["X-Accel-Redirect", uri];
}
