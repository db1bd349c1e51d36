/**
 * Mount points and the explorer caches:
 * /admin/mounts (admin), /user/mounts (mount view), /admin/cache/*,
 * /user/cache/clear, and the search index of each mount: /admin/indexes/*.
 */
import {
  cacheClearRequest,
  createMountRequest,
  indexCrawlRequest,
  Permission,
  updateMountRequest,
} from "@clipshare/shared";
import { type Context, Hono } from "hono";
import { requireAdmin, requirePermission } from "../../auth/policy";
import type { Principal } from "../../auth/principal";
import type { AppContext } from "../../context";
import { cacheStats, clearCaches } from "../../domain/fs/cache-admin";
import { readJson } from "../body";
import { ok } from "../envelope";
import { described } from "../route-doc";
import type { AppEnv } from "../types";

export function mountRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();
  const mounts = ctx.mounts;

  app.get(
    "/admin/mounts",
    described(
      (w) => ({ summary: "List mounts", tag: "Mounts", access: "admin", data: w.list(w.mount) }),
      async (c) => ok(c, await mounts.list(c.get("principal")), "Fetched"),
    ),
  );

  app.post(
    "/admin/mounts",
    described(
      (w) => ({
        summary: "Create a mount",
        errors: ["mount_path_taken", "mount_root_overlap", "invalid_path", "storage_config_not_found"],
        tag: "Mounts",
        access: "admin",
        body: w.createMountRequest,
        data: w.mount,
      }),
      async (c) => {
        const principal = c.get("principal");
        requireAdmin(principal);
        const body = await readJson(c, createMountRequest);
        return ok(c, await mounts.create(principal, body), "Mount created", 201);
      },
    ),
  );

  app.get(
    "/admin/mounts/:id",
    described(
      (w) => ({
        summary: "One mount",
        errors: ["mount_not_found"],
        tag: "Mounts",
        access: "admin",
        data: w.mount,
      }),
      async (c) => ok(c, await mounts.get(c.get("principal"), c.req.param("id")!), "Fetched"),
    ),
  );

  app.put(
    "/admin/mounts/:id",
    described(
      (w) => ({
        summary: "Edit a mount",
        errors: [
          "mount_not_found",
          "mount_path_taken",
          "mount_root_overlap",
          "invalid_path",
          "nothing_to_update",
        ],
        tag: "Mounts",
        access: "admin",
        body: w.updateMountRequest,
        data: w.mount,
      }),
      async (c) => {
        const principal = c.get("principal");
        requireAdmin(principal);
        const body = await readJson(c, updateMountRequest);
        return ok(c, await mounts.update(principal, c.req.param("id")!, body), "Mount updated");
      },
    ),
  );

  app.delete(
    "/admin/mounts/:id",
    described(
      () => ({ summary: "Delete a mount", errors: ["mount_not_found"], tag: "Mounts", access: "admin" }),
      async (c) => {
        await mounts.delete(c.get("principal"), c.req.param("id")!);
        return ok(c, null, "Mount deleted");
      },
    ),
  );

  app.get(
    "/user/mounts",
    described(
      (w) => ({
        summary: "Mounts the key can see",
        tag: "Mounts",
        access: "key",
        permissions: ["MOUNT_VIEW"],
        data: w.list(w.mount),
      }),
      async (c) => {
        const principal = c.get("principal");
        requirePermission(principal, Permission.MOUNT_VIEW);
        return ok(c, await mounts.listForUser(principal), "Fetched");
      },
    ),
  );

  app.get(
    "/user/mounts/:id",
    described(
      (w) => ({
        summary: "One mount the key can see",
        errors: ["mount_not_found", "mount_forbidden"],
        tag: "Mounts",
        access: "key",
        permissions: ["MOUNT_VIEW"],
        data: w.mount,
      }),
      async (c) => {
        const principal = c.get("principal");
        requirePermission(principal, Permission.MOUNT_VIEW);
        return ok(c, await mounts.getForUser(principal, c.req.param("id")!), "Fetched");
      },
    ),
  );

  const index = ctx.fs.index;
  app.get(
    "/admin/indexes",
    described(
      (w) => ({
        summary: "The search index of every mount",
        tag: "Mounts",
        access: "admin",
        data: w.list(w.mountIndexStatus),
      }),
      async (c) => ok(c, await index.statuses(c.get("principal")), "Fetched"),
    ),
  );

  app.post(
    "/admin/indexes/:mountId/crawl",
    described(
      (w) => ({
        summary: "Crawl a mount into the search index (or rebuild it)",
        errors: ["mount_not_found", "conflict"],
        tag: "Mounts",
        access: "admin",
        body: w.indexCrawlRequest,
        data: w.fsTask,
      }),
      async (c) => {
        const principal = c.get("principal");
        requireAdmin(principal);
        const body = await readJson(c, indexCrawlRequest);
        const task = await index.startCrawl(principal, c.req.param("mountId")!, {
          rebuild: body.rebuild,
          maxRate: body.max_rate,
        });
        return ok(c, task, "Crawl queued", 202);
      },
    ),
  );

  app.post(
    "/admin/indexes/:mountId/stop",
    described(
      (w) => ({
        summary: "Stop a mount's crawl",
        errors: ["mount_not_found"],
        tag: "Mounts",
        access: "admin",
        data: w.fsTask.nullable(),
      }),
      async (c) => ok(c, await index.stopCrawl(c.get("principal"), c.req.param("mountId")!), "Crawl stopped"),
    ),
  );

  app.get(
    "/admin/indexes/:mountId/usage",
    described(
      (w) => ({
        summary: "A mount's storage usage from its index: largest folders and files",
        errors: ["mount_not_found"],
        tag: "Mounts",
        access: "admin",
        data: w.mountIndexUsage,
      }),
      async (c) => ok(c, await index.usage(c.get("principal"), c.req.param("mountId")!), "Fetched"),
    ),
  );

  app.get(
    "/admin/cache/stats",
    described(
      (w) => ({
        summary: "Explorer cache counters",
        tag: "Dashboard",
        access: "admin",
        data: w.cacheStats,
      }),
      (c) => {
        requireAdmin(c.get("principal"));
        return ok(c, cacheStats(ctx.fs.caches), "Fetched");
      },
    ),
  );

  const clear = (check: (principal: Principal) => void) => async (c: Context<AppEnv>) => {
    const principal = c.get("principal");
    check(principal);
    const body = await readJson(c, cacheClearRequest);
    const result = await clearCaches(ctx.fs.caches, ctx.fs.table, principal, {
      mountId: body.mountId,
      configId: body.s3ConfigId ?? body.storage_config_id,
    });
    return ok(c, result, `Cache cleared, ${result.clearedCount} items in total`);
  };
  app.post(
    "/admin/cache/clear",
    described(
      (w) => ({
        summary: "Clear explorer caches",
        tag: "Dashboard",
        access: "admin",
        body: w.cacheClearRequest,
        data: w.cacheClearResult,
      }),
      clear(requireAdmin),
    ),
  );
  app.post(
    "/user/cache/clear",
    described(
      (w) => ({
        summary: "Clear the caches below the key's base path",
        tag: "Mounts",
        access: "key",
        permissions: ["MOUNT_VIEW"],
        body: w.cacheClearRequest,
        data: w.cacheClearResult,
      }),
      clear((p) => requirePermission(p, Permission.MOUNT_VIEW)),
    ),
  );

  return app;
}
