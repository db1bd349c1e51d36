/** /s3-configs: storage configurations (LOCAL and S3 share the table and the routes). */
import { createStorageConfigRequest, Permission, updateStorageConfigRequest } from "@clipshare/shared";
import { Hono } from "hono";
import { requireAdmin, requirePermission } from "../../auth/policy";
import type { AppContext } from "../../context";
import { connectionInfoOf, testStorage } from "../../domain/storage-configs/storage-config-tester";
import { readJson } from "../body";
import { ok } from "../envelope";
import { described } from "../route-doc";
import type { AppEnv } from "../types";

export function storageConfigRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();
  const configs = ctx.storageConfigs;

  app.get(
    "/",
    described(
      (w) => ({
        summary: "List storage configs",
        tag: "Storage",
        access: "key",
        permissions: ["FILE_SHARE"],
        data: w.list(w.storageConfig),
      }),
      async (c) => {
        const principal = c.get("principal");
        requirePermission(principal, Permission.FILE_SHARE);
        return ok(c, await configs.list(principal), "Fetched storage config list");
      },
    ),
  );

  app.post(
    "/",
    described(
      (w) => ({
        summary: "Create a storage config",
        errors: ["storage_endpoint_not_allowed", "conflict"],
        tag: "Storage",
        access: "admin",
        body: w.createStorageConfigRequest,
        data: w.storageConfig,
      }),
      async (c) => {
        const principal = c.get("principal");
        requireAdmin(principal);
        const body = await readJson(c, createStorageConfigRequest);
        return ok(c, await configs.create(principal.adminId, body), "Storage config created", 201);
      },
    ),
  );

  app.get(
    "/:id",
    described(
      (w) => ({
        summary: "One storage config",
        errors: ["storage_config_not_found"],
        tag: "Storage",
        access: "key",
        permissions: ["FILE_SHARE"],
        data: w.storageConfig,
      }),
      async (c) => {
        const principal = c.get("principal");
        requirePermission(principal, Permission.FILE_SHARE);
        return ok(c, await configs.get(principal, c.req.param("id")!), "Fetched");
      },
    ),
  );

  app.put(
    "/:id/set-default",
    described(
      () => ({
        summary: "Make a config the default",
        errors: ["storage_config_not_found"],
        tag: "Storage",
        access: "admin",
      }),
      async (c) => {
        requireAdmin(c.get("principal"));
        await configs.setDefault(c.req.param("id")!);
        return ok(c, null, "Default storage config set");
      },
    ),
  );

  app.post(
    "/:id/test",
    described(
      (w) => ({
        summary: "Check that the storage works (write, read, list, presign, CORS)",
        errors: ["storage_config_not_found", "storage_error", "storage_unreachable", "storage_access_denied"],
        tag: "Storage",
        access: "admin",
        data: w.storageTestOutcome,
      }),
      async (c) => {
        requireAdmin(c.get("principal"));
        const { row, driver } = await configs.driverById(c.req.param("id")!);
        const outcome = await testStorage(driver, {
          origin: c.req.header("origin") ?? null,
          fetcher: configs.endpoints.fetcher,
          connection: connectionInfoOf(configs.present(row)),
        });
        await configs.touch(row.id);
        return ok(c, { success: outcome.success, result: outcome.result }, outcome.summary);
      },
    ),
  );

  app.put(
    "/:id",
    described(
      (w) => ({
        summary: "Edit a storage config",
        errors: [
          "storage_config_not_found",
          "storage_type_immutable",
          "storage_endpoint_not_allowed",
          "nothing_to_update",
        ],
        tag: "Storage",
        access: "admin",
        body: w.updateStorageConfigRequest,
        data: w.storageConfig,
      }),
      async (c) => {
        requireAdmin(c.get("principal"));
        const body = await readJson(c, updateStorageConfigRequest);
        return ok(c, await configs.update(c.req.param("id")!, body), "Storage config updated");
      },
    ),
  );

  app.delete(
    "/:id",
    described(
      () => ({
        summary: "Delete a storage config",
        errors: ["storage_config_not_found", "storage_config_in_use"],
        tag: "Storage",
        access: "admin",
      }),
      async (c) => {
        requireAdmin(c.get("principal"));
        await configs.delete(c.req.param("id")!);
        return ok(c, null, "Storage config deleted");
      },
    ),
  );

  return app;
}
