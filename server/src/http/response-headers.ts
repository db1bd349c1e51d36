import type { Context, Next } from "hono";
import { nodeResponse } from "./node-exchange";

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

export type FixedHeaders = ReadonlyArray<readonly [name: string, value: string]>;

/**
 * Runs `next` so that its response carries X-Request-Id and `fixed` (security
 * headers, the instance name) unless the handler set them itself. Through the
 * Node server they go on Node's response before the handler runs, and its
 * writeHead merges them under the Response's own headers: no Fetch Headers
 * object is built or edited per response, which cost more than
 * `GET /api/health` itself. In-process requests have no Node response: they
 * get them on the finished Response instead.
 */
export async function withResponseHeaders(
  c: Context,
  requestId: string,
  fixed: FixedHeaders,
  next: Next,
): Promise<void> {
  const outgoing = nodeResponse(c);
  if (outgoing) {
    outgoing.setHeader("X-Request-Id", requestId);
    for (const [name, value] of fixed) outgoing.setHeader(name, value);
    await next();
    return;
  }
  await next();
  const keepOwn = (name: string, value: string) => {
    if (!c.res.headers.has(name)) setResponseHeader(c, name, value);
  };
  keepOwn("X-Request-Id", requestId);
  for (const [name, value] of fixed) keepOwn(name, value);
}
