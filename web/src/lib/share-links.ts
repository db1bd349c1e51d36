import { apiBase } from "./api";

/** Absolute link to a file share's page, as visitors open it. */
export function fileShareUrl(slug: string, origin = window.location.origin): string {
  return `${origin}/file/${encodeURIComponent(slug)}`;
}

/**
 * The server hands out preview/download URLs relative to itself ("/api/…");
 * they must point at the backend even when it is not this page's origin.
 */
export function backendUrl(path: string, base = apiBase.url): string {
  if (/^https?:\/\//i.test(path)) return path;
  return `${base.replace(/\/+$/, "")}${path.startsWith("/") ? path : `/${path}`}`;
}
/** The page link of a paste on this site (what people share), not the API's. */
export function pasteLink(slug: string, origin = window.location.origin): string {
  return `${origin}/paste/${encodeURIComponent(slug)}`;
}
