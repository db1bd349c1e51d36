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

/**
 * Who WebAuthn credentials are made for and checked against: the public origin (as above) and
 * its host name as the RP ID. A host that is an IP address cannot carry passkeys (browsers refuse it).
 */
export function relyingParty(c: Context, trustProxy: boolean): { origin: string; rpId: string } {
  const origin = publicOrigin(c, trustProxy);
  return { origin, rpId: new URL(origin).hostname };
}
