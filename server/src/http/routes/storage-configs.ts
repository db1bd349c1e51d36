/** /s3-configs: storage configurations (LOCAL and S3 share the table and the routes). */
import { createStorageConfigRequest, Permission, updateStorageConfigRequest } from "@clipshare/shared";
import { Hono } from "hono";
import { requireAdmin, requirePermission } from "../../auth/policy";
import type { AppContext } from "../../context";
import { connectionInfoOf, testStorage } from "../../domain/storage-configs/storage-config-tester";
import { readJson } from "../body";
import { ok } from "../envelope";
import type { AppEnv } from "../types";

export function storageConfigRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();
  const configs = ctx.storageConfigs;

  app.get("/", async (c) => {
    const principal = c.get("principal");
    requirePermission(principal, Permission.FILE_SHARE);
    return ok(c, await configs.list(principal), "Fetched storage config list");
  });

  app.post("/", async (c) => {
    const principal = c.get("principal");
    requireAdmin(principal);
    const body = await readJson(c, createStorageConfigRequest);
    return ok(c, await configs.create(principal.adminId, body), "Storage config created", 201);
  });

  app.get("/:id", async (c) => {
    const principal = c.get("principal");
    requirePermission(principal, Permission.FILE_SHARE);
    return ok(c, await configs.get(principal, c.req.param("id")), "Fetched");
  });

  app.put("/:id/set-default", async (c) => {
    requireAdmin(c.get("principal"));
    await configs.setDefault(c.req.param("id"));
    return ok(c, null, "Default storage config set");
  });

  app.post("/:id/test", async (c) => {
    requireAdmin(c.get("principal"));
    const { row, driver } = await configs.driverById(c.req.param("id"));
    const outcome = await testStorage(driver, {
      origin: c.req.header("origin") ?? null,
      fetcher: configs.endpoints.fetcher,
      connection: connectionInfoOf(configs.present(row)),
    });
    await configs.touch(row.id);
    return ok(c, { success: outcome.success, result: outcome.result }, outcome.summary);
  });

  app.put("/:id", async (c) => {
    requireAdmin(c.get("principal"));
    const body = await readJson(c, updateStorageConfigRequest);
    return ok(c, await configs.update(c.req.param("id"), body), "Storage config updated");
  });

  app.delete("/:id", async (c) => {
    requireAdmin(c.get("principal"));
    await configs.delete(c.req.param("id"));
    return ok(c, null, "Storage config deleted");
  });

  return app;
}
