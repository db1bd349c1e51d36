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
import type { AppEnv } from "../types";

export function mountRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();
  const mounts = ctx.mounts;

  app.get("/admin/mounts", async (c) => ok(c, await mounts.list(c.get("principal")), "Fetched"));

  app.post("/admin/mounts", async (c) => {
    const principal = c.get("principal");
    requireAdmin(principal);
    const body = await readJson(c, createMountRequest);
    return ok(c, await mounts.create(principal, body), "Mount created", 201);
  });

  app.get("/admin/mounts/:id", async (c) =>
    ok(c, await mounts.get(c.get("principal"), c.req.param("id")), "Fetched"),
  );

  app.put("/admin/mounts/:id", async (c) => {
    const principal = c.get("principal");
    requireAdmin(principal);
    const body = await readJson(c, updateMountRequest);
    return ok(c, await mounts.update(principal, c.req.param("id"), body), "Mount updated");
  });

  app.delete("/admin/mounts/:id", async (c) => {
    await mounts.delete(c.get("principal"), c.req.param("id"));
    return ok(c, null, "Mount deleted");
  });

  app.get("/user/mounts", async (c) => {
    const principal = c.get("principal");
    requirePermission(principal, Permission.MOUNT_VIEW);
    return ok(c, await mounts.listForUser(principal), "Fetched");
  });

  app.get("/user/mounts/:id", async (c) => {
    const principal = c.get("principal");
    requirePermission(principal, Permission.MOUNT_VIEW);
    return ok(c, await mounts.getForUser(principal, c.req.param("id")), "Fetched");
  });

  const index = ctx.fs.index;
  app.get("/admin/indexes", async (c) => ok(c, await index.statuses(c.get("principal")), "Fetched"));

  app.post("/admin/indexes/:mountId/crawl", async (c) => {
    const principal = c.get("principal");
    requireAdmin(principal);
    const body = await readJson(c, indexCrawlRequest);
    const task = await index.startCrawl(principal, c.req.param("mountId"), {
      rebuild: body.rebuild,
      maxRate: body.max_rate,
    });
    return ok(c, task, "Crawl queued", 202);
  });

  app.post("/admin/indexes/:mountId/stop", async (c) =>
    ok(c, await index.stopCrawl(c.get("principal"), c.req.param("mountId")), "Crawl stopped"),
  );

  app.get("/admin/indexes/:mountId/usage", async (c) =>
    ok(c, await index.usage(c.get("principal"), c.req.param("mountId")), "Fetched"),
  );

  app.get("/admin/cache/stats", (c) => {
    requireAdmin(c.get("principal"));
    return ok(c, cacheStats(ctx.fs.caches), "Fetched");
  });

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
  app.post("/admin/cache/clear", clear(requireAdmin));
  app.post(
    "/user/cache/clear",
    clear((p) => requirePermission(p, Permission.MOUNT_VIEW)),
  );

  return app;
}
