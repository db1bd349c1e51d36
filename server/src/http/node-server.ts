/**
 * ClipShare's HTTP server: node:http with @hono/node-server's request listener, and the limits
 * a public server needs, set here in one place:
 * - headers must arrive within 60 s; a request as a whole has no time limit (uploads and
 *   downloads of any size over any link), but a connection on which no byte moves either way
 *   for `bodyIdleTimeoutMs` (mid-body included) is closed;
 * - keep-alive connections stay open 65 s between requests, longer than the 60 s reverse
 *   proxies usually keep theirs, so the proxy, not ClipShare, closes an idle upstream connection
 *   (the other order races: the proxy may send a request on a connection being closed);
 * - one client address may hold `maxConnectionsPerIp` connections; the next is closed at once;
 * - pipelined requests are answered one at a time: the next is handed to the app only when the
 *   previous answer has been handed to the socket, and reading stops while more than a few wait,
 *   so a client that sends and never reads holds a few requests in memory, not their answers;
 * - while the server is saturated, requests are handed to the app in turns of a few
 *   milliseconds each (see `inTurns`), so new connections are still accepted promptly.
 * A client that goes away or stalls is logged at `info` as what it is, never as a server error.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { getRequestListener } from "@hono/node-server";
import type { Logger } from "../logger";
import { type NodeFetch, withNodeBodies } from "./node-body";

export interface ServerLimits {
  headersTimeoutMs: number;
  bodyIdleTimeoutMs: number;
  keepAliveTimeoutMs: number;
  maxConnectionsPerIp: number;
}

export const DEFAULT_LIMITS: ServerLimits = {
  headersTimeoutMs: 60_000,
  bodyIdleTimeoutMs: 120_000,
  keepAliveTimeoutMs: 65_000,
  maxConnectionsPerIp: 256,
};

/** Requests of one connection that may wait for their turn before the server stops reading it. */
const MAX_WAITING_PER_CONNECTION = 4;

interface Connection {
  /** The request being answered (its answer not yet handed to the socket). */
  current: IncomingMessage | undefined;
  waiting: (() => void)[];
  /** Whether reading was stopped because too many requests wait. */
  paused: boolean;
  /** Why the server closed the connection, for the line that says so. */
  closedBecause: string | undefined;
}

const connections = new WeakMap<Socket, Connection>();
const requestIds = new WeakMap<IncomingMessage, string>();

/** Names the request's id for the server's own lines about it (set by the request-context middleware). */
export function tagRequest(incoming: IncomingMessage, requestId: string): void {
  requestIds.set(incoming, requestId);
}

function connectionOf(socket: Socket): Connection {
  let connection = connections.get(socket);
  if (!connection) {
    connection = { current: undefined, waiting: [], paused: false, closedBecause: undefined };
    connections.set(socket, connection);
  }
  return connection;
}

type Listener = (incoming: IncomingMessage, outgoing: ServerResponse) => unknown;

/**
 * How long one pass of the event loop may spend starting requests before the rest wait. The
 * work those requests cause later in the pass (their answers) comes on top, so this is short:
 * 500 connections opened at once onto a saturated server were all answered within 1.2 s at
 * 0.5 ms (a few seconds at 1 ms), with no loss of throughput; below it throughput drops.
 */
const TURN_MS = 0.5;

/**
 * Hands requests to `listener` while the current pass of the event loop is young; once it has
 * run for `TURN_MS`, further requests wait, in arrival order, for the next pass. libuv accepts
 * one new connection per pass, so a saturated server that answered every ready request in one
 * long pass would accept connections at the rate of its passes: 500 clients that connected at
 * once waited seconds for their first answer. Idle or lightly loaded, a request is handed on at
 * once. A pass begins after the previous one's check phase, which a chained setImmediate marks.
 */
function inTurns(listener: Listener): Listener {
  const queue: [IncomingMessage, ServerResponse][] = [];
  let passStarted = 0;
  let ticking = false;
  let arrived = 0;
  const young = () => performance.now() - passStarted < TURN_MS;
  const tick = () => {
    passStarted = performance.now();
    while (queue.length > 0 && young()) {
      const [incoming, outgoing] = queue.shift()!;
      // A client that left while its request waited gets nothing done for it (no view counted).
      if (!outgoing.destroyed) listener(incoming, outgoing);
    }
    passStarted = performance.now();
    // Mark passes while requests come; an idle server must not spin.
    ticking = queue.length > 0 || arrived > 0;
    arrived = 0;
    if (ticking) setImmediate(tick);
  };
  return (incoming, outgoing) => {
    arrived++;
    if (!ticking) {
      ticking = true;
      passStarted = performance.now();
      setImmediate(tick);
    }
    if (queue.length === 0 && young()) return listener(incoming, outgoing);
    queue.push([incoming, outgoing]);
  };
}

/** Hands a connection's requests to `listener` one at a time (see the module comment). */
function oneAtATime(listener: Listener, log: Logger): Listener {
  const admit = inTurns(listener);
  return (incoming, outgoing) => {
    const socket = incoming.socket;
    const connection = connectionOf(socket);
    const start = () => {
      connection.current = incoming;
      outgoing.once("close", () => {
        // Cut by the client or by the idle timeout; an answer the server itself broke off (a body
        // that failed part-way) carries its error and is reported where it failed.
        if (!outgoing.writableFinished && !outgoing.errored) {
          log.info(
            {
              reqId: requestIds.get(incoming),
              method: incoming.method,
              path: incoming.url?.split("?")[0],
              bodyComplete: incoming.complete,
            },
            connection.closedBecause ?? "client aborted",
          );
        }
        connection.current = undefined;
        // Requests still waiting on a connection that is gone have nobody to answer.
        if (socket.destroyed) connection.waiting.length = 0;
        const next = connection.waiting.shift();
        if (connection.paused && connection.waiting.length < MAX_WAITING_PER_CONNECTION) {
          connection.paused = false;
          if (!socket.destroyed) socket.resume();
        }
        next?.();
      });
      admit(incoming, outgoing);
    };
    if (!connection.current) return start();
    connection.waiting.push(start);
    // Node's parser has already read these requests; stop it reading more until they are answered.
    if (connection.waiting.length >= MAX_WAITING_PER_CONNECTION) {
      connection.paused = true;
      socket.pause();
    }
  };
}

/** Closes a connection beyond `max` from one address at once. */
function capConnectionsPerAddress(server: Server, max: number, log: Logger): void {
  const open = new Map<string, number>();
  const refusing = new Set<string>();
  server.on("connection", (socket: Socket) => {
    const address = socket.remoteAddress ?? "unknown";
    const count = open.get(address) ?? 0;
    if (count >= max) {
      socket.destroy();
      if (!refusing.has(address)) {
        refusing.add(address);
        log.warn({ clientIp: address, limit: max }, "Too many connections from one address: refusing more");
      }
      return;
    }
    open.set(address, count + 1);
    socket.once("close", () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
      if (left < max) refusing.delete(address);
    });
  });
}

/** A connection on which nothing moved for the idle timeout: closed, and said why. */
function cutIdleConnections(server: Server): void {
  server.on("timeout", (socket: Socket) => {
    const connection = connections.get(socket);
    const current = connection?.current;
    // The answer's close handler logs the line; a connection between requests just closes.
    if (connection && current)
      connection.closedBecause = current.complete ? "response idle timeout" : "request body idle timeout";
    socket.destroy();
  });
}

/** Starts serving `app.fetch` (main.ts and the socket-level tests). */
export function serveApp(
  app: { fetch: NodeFetch },
  options: { port: number; hostname: string; log: Logger; limits?: Partial<ServerLimits> },
  onListening?: (info: AddressInfo) => void,
): Server {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const listener = getRequestListener(withNodeBodies(app.fetch) as never) as Listener;
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      // No whole-request limit: the idle timeout below cuts only connections where nothing moves.
      requestTimeout: 0,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
    },
    oneAtATime(listener, options.log),
  );
  server.timeout = limits.bodyIdleTimeoutMs;
  cutIdleConnections(server);
  capConnectionsPerAddress(server, limits.maxConnectionsPerIp, options.log);
  server.listen(options.port, options.hostname, () => onListening?.(server.address() as AddressInfo));
  return server;
}
