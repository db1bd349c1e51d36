import { createApiKeyRequest, updateApiKeyRequest } from "@clipshare/shared";
import { Hono } from "hono";
import { z } from "zod";
import { requireAccount } from "../../auth/policy";
import { accountIdOf } from "../../auth/principal";
import type { AppContext } from "../../context";
import { keyScopeOf } from "../../domain/api-keys/api-key-service";
import { readJson, readQuery } from "../body";
import { ok } from "../envelope";
import { described } from "../route-doc";
import type { AppEnv } from "../types";

const listQuery = z.object({ user_id: z.string().trim().min(1).max(100).optional() });

/** The key scope of the signed-in account (API keys manage no keys). */
const scopeOf = (c: { get(key: "principal"): AppEnv["Variables"]["principal"] }) => {
  const principal = c.get("principal");
  requireAccount(principal);
  return { principal, scope: keyScopeOf(principal) };
};

/**
 * /admin/api-keys (the path 0.7.3 clients use): administrators manage every key, and a user
 * signed in manages their own there too.
 */
export function apiKeyRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();

  app.get(
    "/",
    described(
      (w) => ({
        summary: "List API keys (administrators: every key, or one user's; users: their own)",
        tag: "API keys",
        access: "account",
        query: listQuery,
        data: w.list(w.apiKey),
      }),
      async (c) => {
        const { scope } = scopeOf(c);
        const q = readQuery(c, listQuery);
        return ok(c, await ctx.apiKeys.list(scope, q.user_id), "Fetched");
      },
    ),
  );

  app.post(
    "/",
    described(
      (w) => ({
        summary: "Create an API key (the key is shown once); it never exceeds its user's grant",
        errors: ["conflict", "invalid_path", "grant_exceeded", "user_not_found"],
        tag: "API keys",
        access: "account",
        body: w.createApiKeyRequest,
        data: w.createdApiKey,
      }),
      async (c) => {
        const { principal, scope } = scopeOf(c);
        const body = await readJson(c, createApiKeyRequest);
        const owner = scope === "all" ? (body.user_id ?? accountIdOf(principal)!) : scope;
        return ok(c, await ctx.apiKeys.create(body, owner), "API key created", 201);
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
        access: "account",
        data: w.apiKey,
      }),
      async (c) => ok(c, await ctx.apiKeys.get(scopeOf(c).scope, c.req.param("id")!), "Fetched"),
    ),
  );

  app.put(
    "/:id",
    described(
      (w) => ({
        summary: "Edit an API key",
        errors: ["not_found", "conflict", "nothing_to_update", "grant_exceeded"],
        tag: "API keys",
        access: "account",
        body: w.updateApiKeyRequest,
        data: w.apiKey,
      }),
      async (c) => {
        const { scope } = scopeOf(c);
        const body = await readJson(c, updateApiKeyRequest);
        return ok(c, await ctx.apiKeys.update(scope, c.req.param("id")!, body), "API key updated");
      },
    ),
  );

  app.delete(
    "/:id",
    described(
      () => ({ summary: "Delete an API key", errors: ["not_found"], tag: "API keys", access: "account" }),
      async (c) => {
        await ctx.apiKeys.delete(scopeOf(c).scope, c.req.param("id")!);
        return ok(c, null, "Key deleted");
      },
    ),
  );

  return app;
}
