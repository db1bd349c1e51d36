import { createApiKeyRequest, updateApiKeyRequest } from "@clipshare/shared";
import { Hono } from "hono";
import { requireAdmin } from "../../auth/policy";
import type { AppContext } from "../../context";
import { readJson } from "../body";
import { ok } from "../envelope";
import type { AppEnv } from "../types";

/** /admin/api-keys — admin only. */
export function apiKeyRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();
  app.use(async (c, next) => {
    requireAdmin(c.get("principal"));
    await next();
  });

  app.get("/", async (c) => ok(c, await ctx.apiKeys.list(), "Fetched"));

  app.post("/", async (c) => {
    const body = await readJson(c, createApiKeyRequest);
    return ok(c, await ctx.apiKeys.create(body), "API key created", 201);
  });

  app.get("/:id", async (c) => ok(c, await ctx.apiKeys.get(c.req.param("id")), "Fetched"));

  app.put("/:id", async (c) => {
    const body = await readJson(c, updateApiKeyRequest);
    return ok(c, await ctx.apiKeys.update(c.req.param("id"), body), "API key updated");
  });

  app.delete("/:id", async (c) => {
    await ctx.apiKeys.delete(c.req.param("id"));
    return ok(c, null, "Key deleted");
  });

  return app;
}
