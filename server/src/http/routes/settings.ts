import { proxySignSettingsRequest, updateSystemSettingsRequest } from "@clipshare/shared";
import { Hono } from "hono";
import { requireAdmin } from "../../auth/policy";
import type { AppContext } from "../../context";
import { badRequest } from "../../errors";
import { readJson } from "../body";
import { ok } from "../envelope";
import { described } from "../route-doc";
import type { AppEnv } from "../types";

/** /admin/system-settings and /admin/proxy-sign-settings — admin only. */
export function settingsRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();
  app.use(async (c, next) => {
    requireAdmin(c.get("principal"));
    await next();
  });

  app.get(
    "/system-settings",
    described(
      (w) => ({
        summary: "System settings",
        tag: "Settings",
        access: "admin",
        data: w.list(w.systemSettingRow),
      }),
      async (c) => ok(c, await ctx.settings.listRows(), "Fetched"),
    ),
  );

  app.put(
    "/system-settings",
    described(
      (w) => ({
        summary: "Change system settings",
        description:
          "Turning require_admin_second_factor on takes an administrator who has a second factor themselves (else 400 own_second_factor_required), so nobody locks themselves out.",
        errors: ["nothing_to_update", "own_second_factor_required"],
        tag: "Settings",
        access: "admin",
        body: w.updateSystemSettingsRequest,
        data: w.list(w.systemSettingRow),
      }),
      async (c) => {
        const body = await readJson(c, updateSystemSettingsRequest);
        const principal = c.get("principal");
        requireAdmin(principal);
        if (body.require_admin_second_factor && !(await ctx.secondFactors.isDue(principal.adminId))) {
          throw badRequest(
            "Turn on two-factor sign-in for your own account first, so that requiring it cannot lock you out",
            "own_second_factor_required",
          );
        }
        await ctx.settings.update(body);
        return ok(c, await ctx.settings.listRows(), "System settings updated");
      },
    ),
  );

  app.get(
    "/proxy-sign-settings",
    described(
      (w) => ({
        summary: "Proxy link signing",
        tag: "Settings",
        access: "admin",
        data: w.proxySignSettings,
      }),
      async (c) => {
        const s = await ctx.settings.getAll();
        return ok(c, { signAll: s.proxy_sign_all, expires: s.proxy_sign_expires });
      },
    ),
  );

  app.post(
    "/proxy-sign-settings",
    described(
      (w) => ({
        summary: "Change proxy link signing",
        tag: "Settings",
        access: "admin",
        body: w.proxySignSettingsRequest,
        data: w.proxySignSettings,
      }),
      async (c) => {
        const body = await readJson(c, proxySignSettingsRequest);
        const s = await ctx.settings.update({
          proxy_sign_all: body.signAll,
          proxy_sign_expires: body.expires,
        });
        return ok(
          c,
          { signAll: s.proxy_sign_all, expires: s.proxy_sign_expires },
          "Proxy signing settings updated",
        );
      },
    ),
  );

  return app;
}
