/**
 * The byte path for large bodies (stored objects, ZIPs, static assets). A
 * route hands its Node stream to `nodeBody`, which returns a Web stream for the
 * Response as usual, so every middleware still sees and edits that Response
 * (headers, cookies, status). When the request came through the Node server
 * (node-server.ts), the finished Response is then written by piping the Node
 * stream straight into the socket's ServerResponse: no Web-stream chunk
 * conversion and promise per chunk, Node's own back-pressure, and large reads.
 * A stored file's body (`FileBody`) writes itself into the socket from two
 * reused buffers. In-process requests (`app.request` in tests) read the Web
 * stream instead.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { pipeline, type Readable } from "node:stream";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import type { Context } from "hono";
import { FileBody } from "../storage/file-body";

/** What @hono/node-server hands the app as its env: Node's request and response. */
export interface NodeBindings {
  incoming: IncomingMessage;
  outgoing: ServerResponse;
}

export type NodeFetch = (req: Request, env: NodeBindings) => Response | Promise<Response>;

/** Node's form of Fetch headers: Set-Cookie as a list, one header line each. */
function headersRecord(headers: Headers): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of headers) if (name !== "set-cookie") out[name] = value;
  const cookies = headers.getSetCookie();
  if (cookies.length > 0) out["set-cookie"] = cookies;
  return out;
}

interface PendingBody {
  web: ReadableStream;
  node: Readable;
  /** Adds bytes handed to the client, when someone wants the total. */
  count?: (bytes: number) => void;
}

/** The Node body a route produced for a request, until the Response is written. */
const pending = new WeakMap<ServerResponse, PendingBody>();

function outgoingOf(c: Context): ServerResponse | undefined {
  const env = c.env as Partial<NodeBindings> | undefined;
  return env?.outgoing;
}

/**
 * A Web stream for `body` to put in a Response. It reads `body` only when
 * someone pulls it, so the Node server can send `body` directly instead.
 * `onSent` hears once, when `body` closes (ended, or destroyed because the
 * client went away), how many bytes were handed to the connection: for a cut
 * download at most a chunk or two more than the client received.
 */
export function nodeBody(
  c: Context,
  body: Readable,
  onSent?: (bytes: number) => void,
): ReadableStream<Uint8Array> {
  let sent = 0;
  const count = onSent
    ? (bytes: number) => {
        sent += bytes;
      }
    : undefined;
  if (onSent) body.once("close", () => onSent(sent));
  let chunks: AsyncIterator<Buffer> | undefined;
  const web = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        chunks ??= body[Symbol.asyncIterator]();
        const { done, value } = await chunks.next();
        if (done) controller.close();
        else {
          count?.(value.length);
          controller.enqueue(value);
        }
      },
      cancel(reason) {
        body.destroy(reason instanceof Error ? reason : undefined);
      },
      // No read-ahead: a Web stream otherwise pulls once on creation, taking bytes from `body`.
    },
    { highWaterMark: 0 },
  );
  const outgoing = outgoingOf(c);
  if (outgoing) pending.set(outgoing, { web, node: body, count });
  return web;
}

/** Writes `res` itself when its body is a registered Node body; else hands it back to the adapter. */
function sendDirect(res: Response, outgoing: ServerResponse): Response {
  const entry = pending.get(outgoing);
  if (!entry) return res;
  pending.delete(outgoing);
  if (res.body !== entry.web) {
    // A middleware wrapped the body (compression reads it through a transform, which locks it):
    // the adapter sends that. Only a body nobody reads (an error page replaced it) is closed here.
    if (!entry.web.locked) entry.node.destroy();
    return res;
  }
  outgoing.writeHead(res.status, headersRecord(res.headers));
  const { node, count } = entry;
  if (node instanceof FileBody && !node.readableDidRead) {
    node.writeTo(outgoing, count ?? (() => {}));
    return RESPONSE_ALREADY_SENT;
  }
  if (count) node.on("data", (chunk: Buffer) => count(chunk.length));
  // pipeline destroys the source when the client goes away, which closes the file.
  pipeline(node, outgoing, () => {});
  return RESPONSE_ALREADY_SENT;
}

/** Wraps an app's fetch so registered Node bodies are piped straight to the socket. */
export function withNodeBodies(fetch: NodeFetch): NodeFetch {
  return (req, env) => {
    const res = fetch(req, env);
    if (!(res instanceof Promise)) return sendDirect(res, env.outgoing);
    return res.then(
      (r) => sendDirect(r, env.outgoing),
      (e) => {
        // No Response will carry the body: close its file now rather than when it is collected.
        pending.get(env.outgoing)?.node.destroy();
        pending.delete(env.outgoing);
        throw e;
      },
    );
  };
}
