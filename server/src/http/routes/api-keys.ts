import { createApiKeyRequest, updateApiKeyRequest } from "@clipshare/shared";
import { Hono } from "hono";
import { requireAdmin } from "../../auth/policy";
import type { AppContext } from "../../context";
import { readJson } from "../body";
import { ok } from "../envelope";
import { described } from "../route-doc";
import type { AppEnv } from "../types";

/** /admin/api-keys — admin only. */
export function apiKeyRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();
  app.use(async (c, next) => {
    requireAdmin(c.get("principal"));
    await next();
  });

  app.get(
    "/",
    described(
      (w) => ({ summary: "List API keys", tag: "API keys", access: "admin", data: w.list(w.apiKey) }),
      async (c) => ok(c, await ctx.apiKeys.list(), "Fetched"),
    ),
  );

  app.post(
    "/",
    described(
      (w) => ({
        summary: "Create an API key (the key is shown once)",
        errors: ["conflict", "invalid_path"],
        tag: "API keys",
        access: "admin",
        body: w.createApiKeyRequest,
        data: w.createdApiKey,
      }),
      async (c) => {
        const body = await readJson(c, createApiKeyRequest);
        return ok(c, await ctx.apiKeys.create(body), "API key created", 201);
      },
    ),
  );

  app.get(
    "/:id",
    described(
      (w) => ({
        summary: "One API key",
        errors: ["not_found"],
        tag: "API keys",
        access: "admin",
        data: w.apiKey,
      }),
      async (c) => ok(c, await ctx.apiKeys.get(c.req.param("id")!), "Fetched"),
    ),
  );

  app.put(
    "/:id",
    described(
      (w) => ({
        summary: "Edit an API key",
        errors: ["not_found", "conflict", "nothing_to_update"],
        tag: "API keys",
        access: "admin",
        body: w.updateApiKeyRequest,
        data: w.apiKey,
      }),
      async (c) => {
        const body = await readJson(c, updateApiKeyRequest);
        return ok(c, await ctx.apiKeys.update(c.req.param("id")!, body), "API key updated");
      },
    ),
  );

  app.delete(
    "/:id",
    described(
      () => ({ summary: "Delete an API key", errors: ["not_found"], tag: "API keys", access: "admin" }),
      async (c) => {
        await ctx.apiKeys.delete(c.req.param("id")!);
        return ok(c, null, "Key deleted");
      },
    ),
  );

  return app;
}
