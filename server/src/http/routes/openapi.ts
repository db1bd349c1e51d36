/** GET /openapi.json: the API described as OpenAPI 3.1, built on first request. */
import { Hono } from "hono";
import { buildOpenApiDocument } from "../openapi/document";
import type { AppEnv } from "../types";

export function openApiRoutes() {
  const app = new Hono<AppEnv>();
  let document: Record<string, unknown> | null = null;
  app.get("/openapi.json", (c) => {
    document ??= buildOpenApiDocument();
    c.header("Cache-Control", "public, max-age=300");
    return c.json(document);
  });
  return app;
}
