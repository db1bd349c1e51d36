import { APP_NAME, APP_VERSION, type MaxUploadSize, UNIT_BYTES } from "@clipshare/shared";
import { Hono } from "hono";
import type { AppContext } from "../../context";
import { ok, okRepeatingData } from "../envelope";
import { described } from "../route-doc";
import type { AppEnv } from "../types";

const startedAt = Date.now();

export function systemRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();

  // Monitors written for 0.7.3 read the bare {status, timestamp}: repeated at the top level.
  app.get(
    "/health",
    described(
      (w) => ({
        summary: "Liveness and database check",
        tag: "System",
        access: "public",
        data: w.z.unknown(),
      }),
      (c) => {
        const health = { status: "ok", timestamp: new Date().toISOString() };
        return okRepeatingData(c, health, {}, "OK");
      },
    ),
  );

  app.get(
    "/version",
    described(
      (w) => ({ summary: "Name and version", tag: "System", access: "public", data: w.z.unknown() }),
      (c) =>
        ok(c, {
          version: APP_VERSION,
          name: APP_NAME,
          environment: process.env.container ? "Container" : "Node",
          storage: ctx.config.database.dialect === "sqlite" ? "SQLite" : "PostgreSQL",
          nodeVersion: process.version,
          uptime: Math.round((Date.now() - startedAt) / 1000),
        }),
    ),
  );

  app.get(
    "/system/max-upload-size",
    described(
      (w) => ({
        summary: "The maximum upload size",
        tag: "System",
        access: "public",
        data: w.maxUploadSize,
      }),
      async (c) => {
        const s = await ctx.settings.getAll();
        return ok(c, {
          max_upload_size: s.max_upload_size,
          max_upload_size_unit: s.max_upload_size_unit,
          max_upload_size_bytes: s.max_upload_size * UNIT_BYTES[s.max_upload_size_unit],
        } satisfies MaxUploadSize);
      },
    ),
  );

  return app;
}
