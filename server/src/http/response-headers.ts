import type { Context } from "hono";

/**
 * Sets a header on the response a handler already produced, in place.
 * Hono's c.header() after next() rebuilds the Response from its body, which
 * turns every JSON answer into a stream-backed Response (more work than most
 * requests themselves); only immutable headers, as on a fetch() Response
 * passed through, need that rebuild.
 */
export function setResponseHeader(c: Context, name: string, value: string): void {
  try {
    c.res.headers.set(name, value);
  } catch {
    c.header(name, value);
  }
}
