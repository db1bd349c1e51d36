/**
 * ClipShare's Node server: serves an app's `fetch` on node:http with the light
 * request (request.ts) and the light global Response (response.ts), so an
 * answer to a plain request creates no Fetch object and a server that only
 * answered such requests never loads Node's Fetch implementation. The app gets
 * Node's request and response as its env (`incoming`, `outgoing`).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { BadRequestTarget, NodeRequest } from "./request";
import { installLightResponse } from "./response";
import { writeAnswer } from "./write";

export interface NodeBindings {
  incoming: IncomingMessage;
  outgoing: ServerResponse;
}

export type NodeFetch = (req: Request, env: NodeBindings) => Response | Promise<Response>;

/**
 * How long, and how much, of a request body nobody read is still received
 * after the answer, so the client (still sending) gets to read the answer
 * instead of a reset connection. Beyond either the connection is closed.
 */
const DRAIN_MS = 500;
const DRAIN_MAX_BYTES = 64 * 1024 * 1024;

function drainRequestBody(incoming: IncomingMessage): void {
  let bytes = 0;
  const stop = () => {
    clearTimeout(timer);
    incoming.off("data", onData);
  };
  const giveUp = () => {
    stop();
    incoming.socket?.destroySoon();
  };
  const onData = (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes > DRAIN_MAX_BYTES) giveUp();
  };
  const timer = setTimeout(giveUp, DRAIN_MS);
  timer.unref();
  incoming.on("data", onData);
  incoming.once("end", stop);
  incoming.once("error", stop);
  incoming.resume();
}

/** An answer that could not be made: 500 (504 for a timeout) if nothing was sent yet, else a cut connection. */
function fail(outgoing: ServerResponse, e: unknown): void {
  console.error(e);
  if (outgoing.headersSent) {
    outgoing.destroy();
    return;
  }
  const timeout = e instanceof Error && e.name === "TimeoutError";
  outgoing.writeHead(timeout ? 504 : 500, { "Content-Length": 0 });
  outgoing.end();
}

function send(res: Response, outgoing: ServerResponse): void {
  try {
    writeAnswer(res, outgoing)?.catch((e) => fail(outgoing, e));
  } catch (e) {
    fail(outgoing, e);
  }
}

function handle(fetch: NodeFetch, incoming: IncomingMessage, outgoing: ServerResponse): void {
  let req: NodeRequest;
  try {
    req = new NodeRequest(incoming);
  } catch (e) {
    if (!(e instanceof BadRequestTarget)) throw e;
    outgoing.writeHead(400, { "Content-Type": "text/plain; charset=UTF-8", Connection: "close" });
    outgoing.end(`${e.message}\n`);
    return;
  }
  let settled = false;
  const onDone = () => {
    if (settled) return;
    settled = true;
    if (!outgoing.writableFinished) req.abort("Client connection prematurely closed.");
    if (!incoming.complete && !incoming.destroyed) drainRequestBody(incoming);
  };
  outgoing.once("finish", onDone);
  outgoing.once("close", onDone);
  let res: Response | Promise<Response>;
  try {
    res = fetch(req as unknown as Request, { incoming, outgoing });
  } catch (e) {
    fail(outgoing, e);
    return;
  }
  if (res instanceof Promise) {
    res.then(
      (r) => send(r, outgoing),
      (e) => fail(outgoing, e),
    );
  } else send(res, outgoing);
}

/** Starts serving `fetch` on `options.port`; `onListening` hears the bound address. */
export function serve(
  fetch: NodeFetch,
  options: { port: number; hostname: string },
  onListening?: (info: AddressInfo) => void,
): Server {
  installLightResponse();
  const server = createServer((incoming, outgoing) => handle(fetch, incoming, outgoing));
  server.listen(options.port, options.hostname, () => onListening?.(server.address() as AddressInfo));
  return server;
}
