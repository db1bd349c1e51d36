import type { Context } from "hono";

/** The origin clients reach us on, for absolute URLs (behind a trusted proxy: its forwarded host and scheme). */
export function publicOrigin(c: Context, trustProxy: boolean): string {
  const url = new URL(c.req.url);
  if (trustProxy) {
    const host = c.req.header("x-forwarded-host")?.split(",")[0]?.trim();
    const proto = c.req.header("x-forwarded-proto")?.split(",")[0]?.trim();
    if (host)
      return `${proto === "https" ? "https" : proto === "http" ? "http" : url.protocol.replace(":", "")}://${host}`;
  }
  return url.origin;
}
