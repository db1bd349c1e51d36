/**
 * What a remote URL holds, asked of the remote server without downloading it:
 * name, size, type, last modification, whether byte ranges work and whether a
 * browser may read it cross-origin (then the web app downloads it directly).
 */
import type { IncomingHttpHeaders } from "node:http";
import type { RemoteFileInfo } from "@clipshare/shared";
import { isAppError } from "../../errors";
import type { RemoteResponse, SafeFetcher } from "../../lib/net/safe-fetch";

const FALLBACK_NAME = "download";

/** The file name a Content-Disposition header gives (RFC 6266: `filename*` wins), or null. */
export function filenameFromDisposition(header: string | undefined): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*([\w!#$&+.^`|~-]+)'[^']*'([^;]+)/i.exec(header);
  if (extended) {
    try {
      const charset = extended[1]!.toLowerCase();
      const raw = extended[2]!.trim();
      // ISO-8859-1 percent-escapes are code points below 256, so each decodes to one character.
      const value =
        charset === "utf-8"
          ? decodeURIComponent(raw)
          : raw.replace(/%([0-9a-f]{2})/gi, (_, hex: string) =>
              String.fromCharCode(Number.parseInt(hex, 16)),
            );
      if (value.trim()) return value.trim();
    } catch {
      // malformed: fall through to the plain parameter
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(header);
  const value = plain ? (plain[1]?.replace(/\\(.)/g, "$1") ?? plain[2]?.trim()) : null;
  return value?.trim() || null;
}

/** The last path segment when it looks like a file name (has an extension), decoded. */
export function filenameFromPath(url: URL): string | null {
  const segment = url.pathname.split("/").filter(Boolean).pop();
  if (!segment) return null;
  let decoded = segment;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    // keep it encoded
  }
  return decoded.includes(".") ? decoded : null;
}

/** A name that is safe as one path segment: no separators or control characters, bounded length. */
export function cleanRemoteName(name: string | null): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
  const cleaned = (name ?? "").replace(/[\\/\u0000-\u001f\u007f]/g, "_").trim();
  if (!cleaned || cleaned === "." || cleaned === "..") return FALLBACK_NAME;
  return cleaned.length > 200 ? cleaned.slice(cleaned.length - 200) : cleaned;
}

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

export function describeResponse(res: RemoteResponse, method: "HEAD" | "GET"): RemoteFileInfo {
  const h = res.headers;
  const contentRange = /\/(\d+)$/.exec(headerValue(h, "content-range") ?? "");
  const size = res.status === 206 && contentRange ? Number(contentRange[1]) : res.contentLength;
  const modified = headerValue(h, "last-modified");
  const type = headerValue(h, "content-type")?.split(";")[0]?.trim().toLowerCase();
  return {
    url: res.url.toString(),
    // The server's own name wins; else the URL's last segment when it has an extension.
    filename: cleanRemoteName(
      filenameFromDisposition(headerValue(h, "content-disposition")) ?? filenameFromPath(res.url),
    ),
    contentType: type || "application/octet-stream",
    size: size ?? null,
    lastModified: modified && !Number.isNaN(Date.parse(modified)) ? new Date(modified).toISOString() : null,
    method,
    corsSupported: Boolean(headerValue(h, "access-control-allow-origin")),
    rangesSupported: res.status === 206 || /bytes/i.test(headerValue(h, "accept-ranges") ?? ""),
  };
}

/**
 * HEAD first; servers that refuse HEAD (405, 403 on signed URLs, errors) get a
 * GET for the first byte only, which also tells whether ranges work.
 */
export async function describeRemote(fetcher: SafeFetcher, url: string): Promise<RemoteFileInfo> {
  try {
    const head = await fetcher.open(url, { method: "HEAD" });
    head.body.destroy();
    if (head.status >= 200 && head.status <= 299) return describeResponse(head, "HEAD");
  } catch (e) {
    // Refusals are final; a HEAD that merely failed gets one GET.
    if (isAppError(e) && e.status === 400 && e.error !== "url_unreachable") throw e;
  }
  const get = await fetcher.openOk(url, { headers: { range: "bytes=0-0" } });
  get.body.destroy();
  return describeResponse(get, "GET");
}
