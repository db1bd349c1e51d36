import { Hono } from "hono";
import { requireAdmin } from "../../auth/policy";
import type { AppContext } from "../../context";
import { DashboardService } from "../../domain/dashboard/dashboard-service";
import { ok } from "../envelope";
import { described } from "../route-doc";
import type { AppEnv } from "../types";

/** GET /admin/dashboard/stats — admin only. */
export function dashboardRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();
  const dashboard = new DashboardService(ctx.db, ctx.storageConfigs, ctx.secretBox);
  app.get(
    "/dashboard/stats",
    described(
      (w) => ({
        summary: "Dashboard figures",
        tag: "Dashboard",
        access: "admin",
        data: w.dashboardStats,
      }),
      async (c) => {
        requireAdmin(c.get("principal"));
        return ok(c, await dashboard.stats(), "Fetched");
      },
    ),
  );
  return app;
}
