/**
 * GET /metrics for Prometheus. Off (404) unless METRICS_TOKEN or METRICS_ALLOW
 * is set; then a scrape needs `Authorization: Bearer <METRICS_TOKEN>` or a
 * client address inside METRICS_ALLOW (either one suffices when both are set).
 * Counters come from lib/metrics.ts; caches, tasks and the process are read
 * at scrape time.
 */
import { isIPv4 } from "node:net";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { Hono } from "hono";
import type { AppContext } from "../../context";
import { AppError } from "../../errors";
import { constantTimeEqual } from "../../lib/crypto";
import { family, type MetricFamily, metrics, processFamilies } from "../../lib/metrics";
import type { AppEnv } from "../types";

function allowed(list: NonNullable<AppContext["config"]["metrics"]["allow"]>, ip: string): boolean {
  // "::ffff:10.0.0.1" is how a dual-stack socket reports an IPv4 client.
  const v4 = ip.startsWith("::ffff:") && isIPv4(ip.slice(7)) ? ip.slice(7) : ip;
  try {
    return list.check(v4, isIPv4(v4) ? "ipv4" : "ipv6");
  } catch {
    return false;
  }
}

export function metricsRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();
  const { token, allow } = ctx.config.metrics;
  if (!token && !allow) {
    // Off: the path answers like any unknown API path, never with the web app.
    app.get("/metrics", () => {
      throw new AppError(404, "not_found", "Requested resource not found");
    });
    return app;
  }
  const loopDelay = monitorEventLoopDelay({ resolution: 20 });
  loopDelay.enable();

  app.get("/metrics", async (c) => {
    const header = c.req.header("authorization") ?? "";
    const bearer = /^Bearer\s+(.+)$/i.exec(header)?.[1]?.trim();
    const byToken = !!token && !!bearer && constantTimeEqual(bearer, token);
    const byNetwork = !!allow && allowed(allow, c.get("clientIp"));
    if (!byToken && !byNetwork) {
      if (token && !bearer) c.header("WWW-Authenticate", 'Bearer realm="metrics"');
      throw token && !bearer
        ? new AppError(401, "unauthorized", "Metrics need Authorization: Bearer <METRICS_TOKEN>")
        : new AppError(403, "forbidden", "Metrics are not available to this client");
    }
    const text = metrics.render([
      ...(await scrapeTime(ctx)),
      ...processFamilies(metrics.startedAt, loopDelay.percentile(99) / 1e9),
    ]);
    loopDelay.reset();
    return c.body(text, 200, {
      "Content-Type": "text/plain; version=0.0.4; charset=utf-8",
      "Cache-Control": "no-store",
    });
  });
  return app;
}

async function scrapeTime(ctx: AppContext): Promise<MetricFamily[]> {
  const caches = ctx.fs.caches.stats() as Record<string, { hits: number; misses: number; cacheSize: number }>;
  const tasks = await ctx.db
    .selectFrom("tasks")
    .select(["status", (eb) => eb.fn.countAll<number>().as("n")])
    .groupBy("status")
    .execute();
  return [
    family("clipshare_cache_hits_total", "counter", "File-system cache hits", (add) => {
      for (const [name, s] of Object.entries(caches)) add({ cache: name }, s.hits);
    }),
    family("clipshare_cache_misses_total", "counter", "File-system cache misses", (add) => {
      for (const [name, s] of Object.entries(caches)) add({ cache: name }, s.misses);
    }),
    family("clipshare_cache_entries", "gauge", "Entries held per cache", (add) => {
      for (const [name, s] of Object.entries(caches)) add({ cache: name }, s.cacheSize);
    }),
    family(
      "clipshare_tasks",
      "gauge",
      "Background tasks by status (queued = queue depth; failed = failures kept)",
      (add) => {
        for (const row of tasks) add({ status: row.status }, Number(row.n));
      },
    ),
  ];
}
