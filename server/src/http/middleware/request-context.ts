/**
 * First middleware: request id (echoed as X-Request-Id), client IP, the
 * headers every response carries, and one access-log line per request. Other
 * log lines of a request name its id as `reqId` where they are written (no
 * child logger per request: most requests log nothing else).
 */
import { randomUUID } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import type { AppContext } from "../../context";
import { metrics } from "../../lib/metrics";
import { accessLogWriter } from "../../logger";
import { nodeRequest, requestHeader } from "../node-exchange";
import { tagRequest } from "../node-server";
import { type FixedHeaders, withResponseHeaders } from "../response-headers";
import { pdfSecurityPolicy } from "../security-headers";
import type { AppEnv } from "../types";

const INCOMING_ID = /^[A-Za-z0-9._-]{1,128}$/;

export function clientIpOf(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = requestHeader(c, "x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded) return forwarded;
    const real = requestHeader(c, "x-real-ip")?.trim();
    if (real) return real;
  }
  const incoming = nodeRequest(c);
  // In-process requests (tests) have no socket.
  if (!incoming) return "local";
  return incoming.socket.remoteAddress ?? "unknown";
}

/** The request as a debug line shows it (the logger censors credentials in it). */
function requestDetails(c: Context) {
  const headers = nodeRequest(c)?.headers ?? Object.fromEntries(c.req.raw.headers);
  return { method: c.req.method, url: nodeRequest(c)?.url ?? c.req.url, headers };
}

/**
 * Forwarded headers while TRUST_PROXY is off usually mean a reverse proxy: then every
 * visitor has the proxy's address, and rate limits keyed on it lock out everyone at once.
 */
const FORWARDED_HEADERS = ["x-forwarded-for", "x-real-ip", "forwarded"] as const;

/** `fixedHeaders`: set on every response besides X-Request-Id (security headers, instance name). */
export function requestContext(ctx: AppContext, fixedHeaders: FixedHeaders = []): MiddlewareHandler<AppEnv> {
  let warnedUntrustedProxy = ctx.config.trustProxy;
  const accessLog = accessLogWriter(ctx.log);
  // Prometheus counters are only worth their cost when something scrapes them.
  const recordMetrics = Boolean(ctx.config.metrics.token || ctx.config.metrics.allow);
  const pdfPolicy = pdfSecurityPolicy(ctx.config);
  const debug = ctx.log.isLevelEnabled("debug");
  return async (c, next) => {
    const forwarded = warnedUntrustedProxy ? undefined : FORWARDED_HEADERS.find((h) => requestHeader(c, h));
    if (forwarded) {
      warnedUntrustedProxy = true;
      ctx.log.warn(
        { header: forwarded },
        "Requests carry forwarded-for headers but TRUST_PROXY is off: all clients behind the proxy share one address for rate limits (one visitor's wrong passwords can lock out others). Set TRUST_PROXY=true if a reverse proxy you control sets these headers.",
      );
    }
    const incoming = requestHeader(c, "x-request-id");
    const requestId = incoming && INCOMING_ID.test(incoming) ? incoming : randomUUID();
    c.set("requestId", requestId);
    const node = nodeRequest(c);
    if (node) tagRequest(node, requestId);
    if (debug) ctx.log.debug({ reqId: requestId, req: requestDetails(c) }, "request received");
    c.set("clientIp", clientIpOf(c, ctx.config.trustProxy));
    c.set("pdfPolicy", pdfPolicy);
    const started = performance.now();
    await withResponseHeaders(c, requestId, fixedHeaders, next);
    const seconds = (performance.now() - started) / 1000;
    if (recordMetrics)
      metrics.request(
        c.req.path,
        c.res.status,
        seconds,
        Number(requestHeader(c, "content-length") ?? 0) || 0,
        Number(c.res.headers.get("content-length") ?? 0) || 0,
      );
    if (debug)
      ctx.log.debug(
        { reqId: requestId, res: { headers: Object.fromEntries(c.res.headers) } },
        "response headers",
      );
    accessLog?.({
      reqId: requestId,
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: Math.round(seconds * 10_000) / 10,
    });
  };
}
