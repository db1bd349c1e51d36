/**
 * Share access logs: GET (paged, newest first), GET …/export (CSV, streamed)
 * and DELETE under /pastes/:id/access-log (TEXT) and /files/:id/access-log
 * (FILE_SHARE), for the share's creator and the admin; a mount's log of
 * visitors' downloads at /admin/mounts/:id/access-log and the dashboard's
 * summary at /admin/dashboard/access-log (admin).
 */
import { ACCESS_LOG_DEFAULT_LIMIT, accessLogQuery, Permission } from "@clipshare/shared";
import { type Context, Hono } from "hono";
import { requireAdmin, requirePermission } from "../../auth/policy";
import type { AppContext } from "../../context";
import type { LoggedShare } from "../../domain/shares/access-log";
import { accessLogCsv } from "../../domain/shares/access-log-csv";
import type { ShareKind } from "../../domain/shares/access-tokens";
import { contentDisposition } from "../../storage/content-disposition";
import { parseWith } from "../body";
import { ok } from "../envelope";
import { described, type RouteDoc, type RouteDocBuilder } from "../route-doc";
import type { AppEnv } from "../types";

export function accessLogRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();

  /** The share named by :id, if the caller owns it (404 otherwise), with its slug for the file name. */
  const ownedShare = async (c: Context<AppEnv>, type: ShareKind): Promise<LoggedShare & { slug: string }> => {
    const principal = c.get("principal");
    requirePermission(principal, type === "paste" ? Permission.TEXT : Permission.FILE_SHARE);
    const id = c.req.param("id")!;
    const row =
      type === "paste" ? await ctx.pastes.owned(principal, id) : await ctx.fileShares.owned(principal, id);
    return { type, id: row.id, no_log: row.no_log, slug: row.slug };
  };

  for (const [type, base, what, tag, permission, notFound] of [
    ["paste", "/pastes/:id/access-log", "paste", "Pastes", "TEXT", "paste_not_found"],
    ["file", "/files/:id/access-log", "file share", "File shares", "FILE_SHARE", "file_not_found"],
  ] as const) {
    const doc =
      (summary: string, rest: Partial<RouteDoc> = {}): RouteDocBuilder =>
      () => ({
        summary,
        tag,
        access: "key",
        permissions: [permission],
        errors: [notFound],
        ...rest,
      });

    app.get(
      base,
      described(
        (w) =>
          doc(`Access log of a ${what}, newest first`, { query: w.accessLogQuery, data: w.accessLogPage })(w),
        async (c) => {
          const share = await ownedShare(c, type);
          const q = parseWith(accessLogQuery, c.req.query());
          const page = { limit: q.limit ?? ACCESS_LOG_DEFAULT_LIMIT, offset: q.offset ?? 0 };
          return ok(c, await ctx.accessLog.list(share, page), "Fetched");
        },
      ),
    );

    app.get(
      `${base}/export`,
      described(doc(`Access log of a ${what} as CSV`, { file: "text" }), async (c) => {
        const share = await ownedShare(c, type);
        const lines = accessLogCsv(ctx.accessLog.entries(share));
        const encoder = new TextEncoder();
        const body = new ReadableStream<Uint8Array>(
          {
            async pull(controller) {
              const { done, value } = await lines.next();
              if (done) controller.close();
              else controller.enqueue(encoder.encode(value));
            },
            async cancel() {
              await lines.return(undefined);
            },
          },
          { highWaterMark: 0 },
        );
        return new Response(body, {
          headers: {
            "Content-Type": "text/csv; charset=utf-8",
            "Content-Disposition": contentDisposition("attachment", `access-log-${share.slug}.csv`),
            "Cache-Control": "no-store",
          },
        });
      }),
    );

    app.delete(
      base,
      described(
        (w) => doc(`Delete the access log of a ${what}`, { data: w.counted("deleted") })(w),
        async (c) => {
          const share = await ownedShare(c, type);
          const deleted = await ctx.accessLog.clear(share);
          return ok(c, { deleted }, `Deleted ${deleted} access log entries`);
        },
      ),
    );
  }

  // A mount's log: visitors' downloads from its public part (public browsing).
  const mountOwner = async (c: Context<AppEnv>) => {
    const mount = await ctx.fs.mounts.get(c.get("principal"), c.req.param("id")!);
    return { type: "mount" as const, id: mount.id, no_log: 0 as const };
  };

  app.get(
    "/admin/mounts/:id/access-log",
    described(
      (w) => ({
        summary: "Downloads by visitors without credentials from a mount's public part, newest first",
        tag: "Mounts",
        access: "admin",
        errors: ["mount_not_found"],
        query: w.accessLogQuery,
        data: w.accessLogPage,
      }),
      async (c) => {
        const owner = await mountOwner(c);
        const q = parseWith(accessLogQuery, c.req.query());
        const page = { limit: q.limit ?? ACCESS_LOG_DEFAULT_LIMIT, offset: q.offset ?? 0 };
        return ok(c, await ctx.accessLog.list(owner, page), "Fetched");
      },
    ),
  );

  app.delete(
    "/admin/mounts/:id/access-log",
    described(
      (w) => ({
        summary: "Delete a mount's log of visitors' downloads",
        tag: "Mounts",
        access: "admin",
        errors: ["mount_not_found"],
        data: w.counted("deleted"),
      }),
      async (c) => {
        const deleted = await ctx.accessLog.clear(await mountOwner(c));
        return ok(c, { deleted }, `Deleted ${deleted} access log entries`);
      },
    ),
  );

  app.get(
    "/admin/dashboard/access-log",
    described(
      (w) => ({
        summary: "Share accesses of the last 7 days by kind, and the most visited shares",
        tag: "Dashboard",
        access: "admin",
        data: w.accessSummary,
      }),
      async (c) => {
        requireAdmin(c.get("principal"));
        return ok(c, await ctx.accessLog.summary(), "Fetched");
      },
    ),
  );

  return app;
}
