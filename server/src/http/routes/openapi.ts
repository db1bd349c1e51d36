/**
 * GET /openapi.json: the API described as OpenAPI 3.1, built on first request. The
 * document's module (schemas and their JSON Schema conversion) is imported then too.
 */
import { Hono } from "hono";
import type { AppEnv } from "../types";

export function openApiRoutes() {
  const app = new Hono<AppEnv>();
  let document: Record<string, unknown> | null = null;
  app.get("/openapi.json", async (c) => {
    document ??= (await import("../openapi/document")).buildOpenApiDocument();
    c.header("Cache-Control", "public, max-age=300");
    return c.json(document);
  });
  return app;
}
