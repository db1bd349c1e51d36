/**
 * The OpenAPI 3.1 document of /api, built once from the operation table and
 * the shared zod schemas (JSON Schema 2020-12, which OpenAPI 3.1 uses as is).
 */
import { APP_NAME, APP_VERSION } from "@clipshare/shared";
import { z } from "zod";
import { ACCESS_LOG_OPERATIONS } from "./access-log-operations";
import { ADMIN_OPERATIONS } from "./admin-operations";
import { FS_OPERATIONS } from "./fs-operations";
import type { Operation } from "./operations";
import { REQUEST_OPERATIONS } from "./request-operations";
import { SHARE_OPERATIONS } from "./share-operations";

/** "METHOD /path" (Hono's path syntax, below /api) → the operation. */
const OPERATIONS: Record<string, Operation> = {
  ...ADMIN_OPERATIONS,
  ...SHARE_OPERATIONS,
  ...FS_OPERATIONS,
  ...ACCESS_LOG_OPERATIONS,
  ...REQUEST_OPERATIONS,
};

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

const SECURITY: Record<Operation["access"], Array<Record<string, string[]>>> = {
  public: [],
  admin: [{ adminToken: [] }],
  key: [{ adminToken: [] }, { apiKey: [] }],
};

function parameters(path: string, op: Operation) {
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

function requestBody(op: Operation) {
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

function success(op: Operation) {
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

export function buildOpenApiDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [key, op] of Object.entries(OPERATIONS)) {
    const [method, honoPath] = key.split(" ") as [string, string];
    const path = openApiPath(honoPath);
    const body = requestBody(op);
    paths[path] ??= {};
    paths[path][method.toLowerCase()] = {
      summary: op.summary,
      tags: [op.tag],
      operationId: `${method.toLowerCase()}${path.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? "").toUpperCase())}`,
      security: SECURITY[op.access],
      parameters: parameters(path, op),
      ...(body ? { requestBody: body } : {}),
      responses: {
        "200": success(op),
        default: {
          description: "An error, in the JSON envelope",
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
        "Every JSON answer is the envelope {code, message, success, data}; errors add a stable `error` id.",
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
