/**
 * The parts of /api/openapi.json the reference page reads, and how it groups
 * and labels them. The document is the server's (built from the shared
 * schemas); nothing here restates the API.
 */

export type JsonSchema = {
  type?: string | string[];
  format?: string;
  description?: string;
  const?: unknown;
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  contentMediaType?: string;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
};

export interface OpenApiParameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
}

export interface OpenApiMedia {
  schema?: JsonSchema;
}

export interface OpenApiOperation {
  summary?: string;
  tags?: string[];
  operationId?: string;
  security?: Array<Record<string, string[]>>;
  parameters?: OpenApiParameter[];
  requestBody?: { required?: boolean; content: Record<string, OpenApiMedia> };
  responses: Record<string, { description?: string; content?: Record<string, OpenApiMedia> }>;
  /** The API-key permission bits the operation needs: every one, or any one of them. */
  "x-clipshare-permissions"?: { names: string[]; mask: number; match: "all" | "any" };
  "x-clipshare-access"?: Access;
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, OpenApiOperation>>;
}

export const HTTP_METHODS = ["get", "post", "put", "patch", "delete"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export interface OperationEntry {
  id: string;
  method: HttpMethod;
  path: string;
  operation: OpenApiOperation;
}

/** Who may call an operation: as the server says, else from its security requirements. */
export type Access = "public" | "admin" | "account" | "key";

const ACCESS: readonly Access[] = ["public", "admin", "account", "key"];

export function accessOf(operation: OpenApiOperation): Access {
  const said = operation["x-clipshare-access"];
  if (said && ACCESS.includes(said)) return said;
  const schemes = (operation.security ?? []).flatMap((s) => Object.keys(s));
  if (schemes.length === 0) return "public";
  return schemes.includes("apiKey") ? "key" : "admin";
}

/**
 * Operations grouped by their first tag, in the document's order, keeping
 * only those whose method, path or summary contain `filter` (any case).
 */
export function groupByTag(
  doc: OpenApiDocument,
  filter = "",
): Array<{ tag: string; operations: OperationEntry[] }> {
  const needle = filter.trim().toLowerCase();
  const groups = new Map<string, OperationEntry[]>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const text = `${method} ${path} ${operation.summary ?? ""}`.toLowerCase();
      if (needle && !text.includes(needle)) continue;
      const tag = operation.tags?.[0] ?? "Other";
      const id = operation.operationId ?? `${method}-${path}`;
      const list = groups.get(tag) ?? [];
      list.push({ id, method, path, operation });
      groups.set(tag, list);
    }
  }
  return [...groups].map(([tag, operations]) => ({ tag, operations }));
}

/** A short type for a schema: `string`, `integer | null`, `"a" | "b"`, `object[]`, `any`. */
export function typeLabel(schema: JsonSchema | undefined): string {
  if (!schema || Object.keys(schema).length === 0) return "any";
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return [...new Set(alternatives.map(typeLabel))].join(" | ");
  if (schema.allOf) return schema.allOf.map(typeLabel).join(" & ");
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const label = types
    .map((type) => {
      if (type === "array") return `${wrap(typeLabel(schema.items))}[]`;
      if (type === "string" && schema.format) return `string (${schema.format})`;
      if (type === "string" && schema.contentMediaType) return `${schema.contentMediaType}`;
      return type;
    })
    .join(" | ");
  return label || (schema.properties ? "object" : "any");
}

const wrap = (label: string) => (label.includes(" ") ? `(${label})` : label);

/**
 * The schema worth showing for a JSON answer: `data` of the {code, message,
 * success, data} envelope (the envelope itself is the same everywhere), or
 * the schema as it is.
 */
export function answerSchema(schema: JsonSchema | undefined): {
  schema: JsonSchema | undefined;
  enveloped: boolean;
} {
  const data = schema?.properties?.data;
  if (data && schema?.properties?.success) return { schema: data, enveloped: true };
  return { schema, enveloped: false };
}

/** The error ids an operation answers with, by status (each status's `error` lists them). */
export function errorAnswers(operation: OpenApiOperation): Array<{ status: string; ids: string[] }> {
  return Object.entries(operation.responses)
    .filter(([status]) => /^[45]\d\d$/.test(status))
    .map(([status, answer]) => ({
      status,
      ids: (answer.content?.["application/json"]?.schema?.properties?.error?.enum ?? []).map(String),
    }))
    .filter((answer) => answer.ids.length > 0);
}

/** The properties of an object schema (or of the object alternative of a nullable one), if any. */
export function objectProperties(schema: JsonSchema | undefined): JsonSchema | null {
  if (!schema) return null;
  if (schema.properties) return schema;
  if (schema.type === "array" || (Array.isArray(schema.type) && schema.type.includes("array")))
    return objectProperties(schema.items);
  for (const alternative of schema.anyOf ?? schema.oneOf ?? []) {
    const found = objectProperties(alternative);
    if (found) return found;
  }
  return null;
}
