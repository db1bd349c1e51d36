/**
 * The OpenAPI 3.1 document of /api, built once from the registered routes: each
 * handler carries its description (route-doc.ts), written where the route is
 * registered, with the shared zod schemas as JSON Schema 2020-12 (which OpenAPI 3.1
 * uses as is), the permission bits an API key needs and the errors it answers with.
 */
import {
  APP_NAME,
  APP_VERSION,
  ERROR_CATALOGUE,
  type ErrorCode,
  Permission,
  type PermissionName,
} from "@clipshare/shared";
import type { RouterRoute } from "hono/types";
import { z } from "zod";
import { type RouteDoc, routeDocOf } from "../route-doc";
import * as wire from "./wire";

type JsonSchema = Record<string, unknown>;

/** Hono's `/files/:id` and `/p/*` as OpenAPI paths: `/api/files/{id}`, `/api/p/{path}`. */
export function openApiPath(honoPath: string): string {
  return `/api${honoPath.replace(/:([A-Za-z_]+)/g, "{$1}").replace(/\*$/, "{path}")}`;
}

/** A schema as JSON Schema: what a client sends (`input`) or receives (`output`). */
function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
  return rest;
}

const envelope = (data: JsonSchema): JsonSchema => ({
  type: "object",
  properties: {
    code: { type: "integer" },
    message: { type: "string" },
    success: { type: "boolean", const: true },
    data,
  },
  required: ["code", "message", "success", "data"],
});

const errorEnvelope: JsonSchema = {
  type: "object",
  properties: {
    code: { type: "integer" },
    message: { type: "string" },
    success: { type: "boolean", const: false },
    data: { type: "null" },
    error: { type: "string", description: "Stable snake_case id of the error" },
  },
  required: ["code", "message", "success", "error"],
};

const SECURITY: Record<RouteDoc["access"], Array<Record<string, string[]>>> = {
  public: [],
  admin: [{ adminToken: [] }],
  account: [{ adminToken: [] }],
  key: [{ adminToken: [] }, { apiKey: [] }],
};

function parameters(path: string, op: RouteDoc) {
  const inPath = [...path.matchAll(/\{([A-Za-z_]+)\}/g)].map((m) => ({
    name: m[1],
    in: "path",
    required: true,
    schema: { type: "string" },
  }));
  if (!op.query) return inPath;
  const query = jsonSchema(op.query, "input") as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  const inQuery = Object.entries(query.properties ?? {}).map(([name, schema]) => ({
    name,
    in: "query",
    required: query.required?.includes(name) ?? false,
    schema,
  }));
  return [...inPath, ...inQuery];
}

function requestBody(op: RouteDoc) {
  if (op.upload === "raw")
    return {
      required: true,
      content: {
        "application/octet-stream": {
          schema: { type: "string", contentMediaType: "application/octet-stream" },
        },
      },
    };
  if (op.upload === "form")
    return { required: true, content: { "multipart/form-data": { schema: { type: "object" } } } };
  if (!op.body) return undefined;
  return { required: true, content: { "application/json": { schema: jsonSchema(op.body, "input") } } };
}

function success(op: RouteDoc) {
  if (op.file === "bytes")
    return {
      description: "The file",
      content: { "application/octet-stream": { schema: { type: "string" } } },
    };
  if (op.file === "image")
    return {
      description: "A WebP image",
      content: { "image/webp": { schema: { type: "string", contentMediaType: "image/webp" } } },
    };
  if (op.file === "text")
    return { description: "Plain text", content: { "text/plain": { schema: { type: "string" } } } };
  if (op.file === "html")
    return { description: "A page for people", content: { "text/html": { schema: { type: "string" } } } };
  if (op.file === "json")
    return {
      description: "A JSON document",
      content: { "application/json": { schema: { type: "object" } } },
    };
  const data = op.data ? jsonSchema(op.data, "output") : { type: "null" };
  return { description: "Success", content: { "application/json": { schema: envelope(data) } } };
}

/** Errors any route of an access level can answer with: no or bad credentials, a missing right. */
const AUTHENTICATION_ERRORS: ErrorCode[] = [
  "unauthorized",
  "token_expired",
  "api_key_invalid",
  "invalid_credentials",
  "basic_auth_not_accepted",
];

/** The route's own errors and those its access and input imply, each once, in catalogue order. */
function errorsOf(op: RouteDoc): ErrorCode[] {
  const implied: ErrorCode[] = [];
  if (op.access !== "public") implied.push(...AUTHENTICATION_ERRORS);
  if (op.access === "admin") implied.push("admin_required");
  if (op.access === "account") implied.push("account_required");
  if (op.access === "key" && op.permissions?.length) implied.push("permission_denied");
  if (op.query) implied.push("validation_failed");
  if (op.body) implied.push("invalid_json", "validation_failed", "content_too_large");
  if (op.upload) implied.push("content_too_large");
  const all = new Set([...implied, ...(op.errors ?? [])]);
  return (Object.keys(ERROR_CATALOGUE) as ErrorCode[]).filter((id) => all.has(id));
}

/** One answer per error status, its `error` limited to the ids the route answers with at that status. */
function errorResponses(errors: ErrorCode[]) {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const id of errors) {
    const status = ERROR_CATALOGUE[id].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), id]);
  }
  const responses: Record<string, unknown> = {};
  for (const [status, ids] of [...byStatus].sort(([a], [b]) => a - b)) {
    const properties = errorEnvelope.properties as Record<string, JsonSchema>;
    responses[String(status)] = {
      description: ids.map((id) => `\`${id}\`: ${ERROR_CATALOGUE[id].en}`).join("; "),
      content: {
        "application/json": {
          schema: {
            ...errorEnvelope,
            properties: { ...properties, error: { ...properties.error, enum: ids } },
          },
        },
      },
    };
  }
  return responses;
}

/** The permission bits as names and as the mask an API key needs. */
function permissionsOf(op: RouteDoc) {
  if (op.access !== "key" || !op.permissions?.length) return undefined;
  const names: PermissionName[] = op.permissions;
  return {
    names,
    mask: names.reduce((mask, name) => mask | Permission[name], 0),
    match: op.anyPermission ? "any" : "all",
  };
}

/** Who may call the operation, in words, for its description. */
function accessText(op: RouteDoc): string {
  if (op.access === "public") return "Anyone may call this.";
  if (op.access === "admin") return "Administrators only.";
  if (op.access === "account") return "Any signed-in user, with a session token (not an API key).";
  const permissions = permissionsOf(op);
  const visitors = op.visitors
    ? " Visitors without credentials may call it for the public part of the tree (public browsing)."
    : "";
  if (!permissions) return `Administrators, or any signed-in user or valid API key.${visitors}`;
  const bits = permissions.names.map((name) => `${name} (${Permission[name]})`);
  const joined = bits.join(permissions.match === "any" ? " or " : " and ");
  return `Administrators, or a user or API key whose grant holds the permission ${joined}.${visitors}`;
}

/** Hono's registered routes below /api (paths relative to it) → the document. */
export function buildOpenApiDocument(routes: readonly RouterRoute[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const build = routeDocOf(route.handler);
    if (!build) continue;
    const op = build(wire);
    const method = route.method.toLowerCase();
    const path = openApiPath(route.path);
    const body = requestBody(op);
    const permissions = permissionsOf(op);
    paths[path] ??= {};
    paths[path][method] = {
      summary: op.summary,
      description: op.description ? `${op.description}\n\n${accessText(op)}` : accessText(op),
      tags: [op.tag],
      operationId: `${method}${path.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? "").toUpperCase())}`,
      // An empty requirement: the operation may also be called without credentials.
      security: op.visitors ? [...SECURITY[op.access], {}] : SECURITY[op.access],
      ...(permissions ? { "x-clipshare-permissions": permissions } : {}),
      "x-clipshare-access": op.access,
      ...(op.visitors ? { "x-clipshare-visitors": true } : {}),
      parameters: parameters(path, op),
      ...(body ? { requestBody: body } : {}),
      responses: {
        "200": success(op),
        ...errorResponses(errorsOf(op)),
        default: {
          description: "Any other error, in the JSON envelope",
          content: { "application/json": { schema: errorEnvelope } },
        },
      },
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: `${APP_NAME} API`,
      version: APP_VERSION,
      description:
        "Every JSON answer is the envelope {code, message, success, data}; errors add a stable `error` id. " +
        "An operation's `x-clipshare-access` says who may call it (public, admin, account: any signed-in " +
        "user's session, key: a session or an API key), `x-clipshare-permissions` the permission bits " +
        "the caller's grant needs (`mask`, and whether `all` or `any` of them); each error status lists " +
        "the ids it carries.",
    },
    servers: [{ url: "/" }],
    components: {
      securitySchemes: {
        adminToken: { type: "http", scheme: "bearer", description: "Token from POST /api/admin/login" },
        apiKey: { type: "apiKey", in: "header", name: "Authorization", description: "ApiKey <key>" },
      },
    },
    paths,
  };
}
