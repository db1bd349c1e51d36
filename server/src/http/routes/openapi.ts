/**
 * GET /openapi.json: the API described as OpenAPI 3.1, built on first request from
 * the routes registered below /api. The document's module (schemas and their JSON
 * Schema conversion) is imported then too, and each route's description is built then.
 */
import { Hono } from "hono";
import type { RouterRoute } from "hono/types";
import { described } from "../route-doc";
import type { AppEnv } from "../types";

export function openApiRoutes(registeredRoutes: () => readonly RouterRoute[]) {
  const app = new Hono<AppEnv>();
  let document: Record<string, unknown> | null = null;
  app.get(
    "/openapi.json",
    described(
      () => ({ summary: "This document", tag: "System", access: "public", file: "json" }),
      async (c) => {
        document ??= (await import("../openapi/document")).buildOpenApiDocument(registeredRoutes());
        c.header("Cache-Control", "public, max-age=300");
        return c.json(document);
      },
    ),
  );
  return app;
}
