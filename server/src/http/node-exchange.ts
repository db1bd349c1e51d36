/**
 * Node's own request and response objects behind a Hono context, for the few
 * things every request does that are cheaper there than through the Fetch
 * objects: reading a request header and setting a fixed response header.
 * In-process requests (`app.request` in tests) have neither; each helper then
 * goes through Hono as usual.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Context } from "hono";

interface NodeBindings {
  incoming?: IncomingMessage;
  outgoing?: ServerResponse;
}

const bindings = (c: Context) => c.env as NodeBindings | undefined;

/** Node's request when the request came through the Node server. */
export const nodeRequest = (c: Context): IncomingMessage | undefined => bindings(c)?.incoming;

/** Node's response when the request came through the Node server. */
export const nodeResponse = (c: Context): ServerResponse | undefined => bindings(c)?.outgoing;

/**
 * A request header (lower-case name). Hono's `c.req.header()` first builds a
 * Fetch Headers object from every raw header, which cost more than a small
 * request's own work; Node has already parsed them into a plain object. Node
 * keeps the first of a repeated Authorization, Content-Length or User-Agent and
 * joins the others with ", ", as Headers does.
 */
export function requestHeader(c: Context, name: Lowercase<string>): string | undefined {
  const incoming = bindings(c)?.incoming;
  if (!incoming) return c.req.header(name);
  const value = incoming.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

/**
 * Sets a response header before the handler's answer exists. Hono's
 * `c.header()` at that point creates a Fetch Headers object that the adapter
 * converts back into a plain record for Node; through the Node server the
 * header goes on Node's response instead, and writeHead merges it under the
 * answer's own headers (error answers included, as Hono's prepared headers
 * are). A header the answer sets itself wins.
 */
export function setHeader(c: Context, name: string, value: string): void {
  const outgoing = nodeResponse(c);
  if (outgoing) outgoing.setHeader(name, value);
  else c.header(name, value);
}

/**
 * Whether the client went away (closed the connection, or the server cut it after the idle
 * timeout) before its answer: an error the request then meets (its body stream failing) is the
 * client's doing, which the server logs at `info` (node-server.ts), not a server fault.
 */
export function clientGone(c: Context): boolean {
  const incoming = bindings(c)?.incoming;
  if (!incoming) return false;
  return Boolean(bindings(c)?.outgoing?.destroyed || (!incoming.complete && incoming.destroyed));
}
