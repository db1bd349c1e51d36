/**
 * GET /api/openapi.json: an OpenAPI 3.1 document that names every route the
 * server registers under /api (and no route it does not), with the shared
 * schemas as request and response shapes.
 */
import {
  ALL_PERMISSIONS,
  ERROR_CATALOGUE,
  type ErrorCode,
  Permission,
  type PermissionName,
} from "@clipshare/shared";
import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openApiPath } from "../../src/http/openapi/document";
import { type OpenApiDocument, uncompilableSchemas, validateAnswers } from "../support/openapi-check";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
// biome-ignore lint/suspicious/noExplicitAny: the document is JSON read by path in the assertions
type Operation = Record<string, any>;
let doc: {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
};
beforeAll(async () => {
  t = await createTestApp();
  const res = await t.request("GET", "/api/openapi.json");
  expect(res.status, res.text).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  doc = res.body;
});
afterAll(async () => t.close());

const HTTP_METHODS = new Set(["GET", "POST", "PUT", "DELETE", "PATCH"]);

/** "METHOD /api/…" of every route the app registered (middleware and the /api 404 fallback left out). */
function registeredRoutes(): string[] {
  const routes = new Set<string>();
  for (const r of t.app.routes) {
    if (!HTTP_METHODS.has(r.method) || !r.path.startsWith("/api/")) continue;
    routes.add(`${r.method} ${openApiPath(r.path.slice("/api".length))}`);
  }
  return [...routes].sort();
}

function documentedRoutes(): string[] {
  return Object.entries(doc.paths)
    .flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`))
    .sort();
}

describe("the OpenAPI document", () => {
  it("is OpenAPI 3.1 and names exactly the routes the server registers", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info).toMatchObject({ title: "ClipShare API", version: expect.any(String) });
    const registered = registeredRoutes();
    expect(registered.length).toBeGreaterThan(90);
    expect(documentedRoutes()).toEqual(registered);
  });

  it("validates against the official OpenAPI 3.1 schema, and every schema in it is valid JSON Schema 2020-12", async () => {
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(uncompilableSchemas(doc as unknown as OpenApiDocument)).toEqual([]);
  });

  it("the answer check catches an answer that breaks its schema", () => {
    const broken = { code: 200, message: "Fetched", success: true, data: { username: 5 } };
    const problems = validateAnswers(doc as unknown as OpenApiDocument, [
      { method: "GET", path: "/api/admin/login", status: 200, body: broken },
      { method: "POST", path: "/api/admin/login", status: 200, body: broken },
      { method: "GET", path: "/api/no-such-route", status: 404, body: {} },
    ]);
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/GET \/api\/admin\/login: not in the document/);
    expect(problems[1]).toMatch(/POST \/api\/admin\/login 200: .*body\/data/);
  });

  it("every operation has a summary, a unique id, a success and an error answer", () => {
    const ids = new Set<string>();
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        expect(op.summary, `${method} ${path}`).toEqual(expect.any(String));
        expect(ids.has(op.operationId), op.operationId).toBe(false);
        ids.add(op.operationId);
        expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(["200", "default"]));
        for (const name of path.matchAll(/\{([A-Za-z_]+)\}/g))
          expect(op.parameters.map((p: { name: string }) => p.name)).toContain(name[1]);
      }
    }
  });

  it("describes request bodies and answers with the shared schemas", () => {
    const login = doc.paths["/api/admin/login"]!.post!;
    expect(login.security).toEqual([]);
    expect(login.requestBody.content["application/json"].schema).toMatchObject({
      type: "object",
      required: ["username", "password"],
    });
    const data = login.responses["200"].content["application/json"].schema.properties.data;
    expect(data).toMatchObject({
      required: ["username", "token", "expiresAt", "role"],
      additionalProperties: false,
    });

    const listing = doc.paths["/api/fs/list"]!.get!;
    expect(listing.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(["path", "limit", "cursor"]),
    );
    const entry =
      listing.responses["200"].content["application/json"].schema.properties.data.properties.items.items;
    expect(Object.keys(entry.properties)).toEqual(
      expect.arrayContaining(["isDirectory", "etag", "mount_id"]),
    );

    const file = doc.paths["/api/file-download/{slug}"]!.get!;
    expect(Object.keys(file.responses["200"].content)).toEqual(["application/octet-stream"]);
    expect(doc.paths["/api/admin/api-keys/{id}"]!.put!.security).toEqual([{ adminToken: [] }]);
  });

  it("names the permission bits an API key needs for each operation", () => {
    const create = doc.paths["/api/paste"]!.post!;
    expect(create["x-clipshare-permissions"]).toEqual({
      names: ["TEXT"],
      mask: Permission.TEXT,
      match: "all",
    });
    expect(create.description).toContain("TEXT (1)");
    const share = doc.paths["/api/fs/create-share"]!.post!;
    expect(share["x-clipshare-permissions"]).toMatchObject({
      mask: Permission.MOUNT_VIEW | Permission.FILE_SHARE,
      match: "all",
    });
    expect(doc.paths["/api/fs/tasks"]!.get!["x-clipshare-permissions"].match).toBe("any");
    // Admin-only and public operations need no key bits; every operation open to keys says which
    // bits it needs, apart from the few any valid key may call (its own tasks, who it is).
    const anyKey: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(ops)) {
        const permissions = op["x-clipshare-permissions"] as
          | { names: PermissionName[]; mask: number }
          | undefined;
        const forKeys = (op.security as Array<Record<string, string[]>>).some((s) => "apiKey" in s);
        if (!forKeys) expect(permissions, `${method} ${path}`).toBeUndefined();
        else if (!permissions) anyKey.push(`${method.toUpperCase()} ${path}`);
        else expect(permissions.names.reduce((m, n) => m | Permission[n], 0)).toBe(permissions.mask);
      }
    expect(anyKey.sort()).toEqual([
      "DELETE /api/fs/tasks/{id}",
      "GET /api/fs/tasks/{id}",
      "GET /api/test/api-key",
      "POST /api/fs/tasks/{id}/cancel",
    ]);
  });

  it("lists each operation's errors under their statuses, with the catalogue's ids", () => {
    for (const [path, ops] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(ops))
        for (const [status, response] of Object.entries(op.responses as Record<string, Operation>)) {
          if (status === "200" || status === "default") continue;
          const ids = response.content["application/json"].schema.properties.error.enum as ErrorCode[];
          expect(ids.length, `${method} ${path} ${status}`).toBeGreaterThan(0);
          for (const id of ids)
            expect(ERROR_CATALOGUE[id]?.status, `${method} ${path} ${id}`).toBe(Number(status));
        }
    const view = doc.paths["/api/paste/{slug}"]!.get!.responses;
    expect(view["404"].content["application/json"].schema.properties.error.enum).toContain("paste_not_found");
    expect(view["410"].content["application/json"].schema.properties.error.enum).toEqual([
      "paste_expired",
      "paste_view_limit",
    ]);
    expect(view["401"]).toBeDefined();
    const admin = doc.paths["/api/admin/users"]!.get!.responses;
    expect(admin["403"].content["application/json"].schema.properties.error.enum).toEqual(["admin_required"]);
    expect(admin["401"].content["application/json"].schema.properties.error.enum).toContain("token_expired");
  });

  it("a key without a documented bit is refused by the route itself", async () => {
    // For every operation that names bits, a key holding every other bit asks with the smallest
    // input its schemas accept (paths at the root): the answer must be permission_denied.
    const keys = new Map<number, string>();
    const problems: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(ops)) {
        const permissions = op["x-clipshare-permissions"] as { mask: number } | undefined;
        if (!permissions) continue;
        const withheld = permissions.mask;
        if (!keys.has(withheld)) keys.set(withheld, (await t.createApiKey(ALL_PERMISSIONS & ~withheld)).key);
        const query = new URLSearchParams();
        for (const p of op.parameters as Array<{
          name: string;
          in: string;
          required?: boolean;
          schema: Schema;
        }>)
          if (p.in === "query" && p.required) query.set(p.name, String(sample(p.schema, p.name)));
        const url = `${path.replace(/\{[A-Za-z_]+\}/g, "x")}${query.size ? `?${query}` : ""}`;
        const json = op.requestBody?.content["application/json"]?.schema as Schema | undefined;
        const options = json
          ? { body: sample(json, "") }
          : op.requestBody?.content["multipart/form-data"]
            ? { rawBody: uploadForm() }
            : op.requestBody
              ? { rawBody: "x", headers: { "Content-Type": "application/octet-stream" } }
              : {};
        const res = await t.request(method.toUpperCase(), url, { apiKey: keys.get(withheld), ...options });
        if (res.status !== 403 || res.body?.error !== "permission_denied")
          problems.push(
            `${method.toUpperCase()} ${path}: ${res.status} ${res.body?.error ?? res.text.slice(0, 60)}`,
          );
      }
    expect(problems).toEqual([]);
  });
});

/** A form with a path and a small file, as the upload forms take them. */
function uploadForm(): FormData {
  const form = new FormData();
  form.set("path", "/x");
  form.set("file", new Blob(["x"]), "x.txt");
  return form;
}

type Schema = {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  minimum?: number;
  minLength?: number;
};

/** The smallest value a schema accepts, with paths at the root: enough to get past input checks. */
function sample(schema: Schema, name: string): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf) return sample(schema.anyOf[0]!, name);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === "object" || schema.properties)
    return Object.fromEntries(
      (schema.required ?? []).map((key) => [key, sample(schema.properties?.[key] ?? {}, key)]),
    );
  if (type === "array") return [sample(schema.items ?? {}, name)];
  if (type === "integer" || type === "number") return Math.max(schema.minimum ?? 1, 1);
  if (type === "boolean") return false;
  return /path|dir/i.test(name) ? "/x" : "x".repeat(Math.max(schema.minLength ?? 1, 1));
}
