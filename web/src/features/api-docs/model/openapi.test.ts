import { describe, expect, it } from "vitest";
import {
  accessOf,
  answerSchema,
  errorAnswers,
  groupByTag,
  type OpenApiDocument,
  objectProperties,
  typeLabel,
} from "./openapi";

const doc: OpenApiDocument = {
  openapi: "3.1.0",
  info: { title: "ClipShare API", version: "1" },
  paths: {
    "/api/paste": {
      post: {
        summary: "Create a paste",
        tags: ["Pastes"],
        security: [{ adminToken: [] }, { apiKey: [] }],
        responses: {},
      },
    },
    "/api/paste/{slug}": { get: { summary: "Read a paste", tags: ["Pastes"], security: [], responses: {} } },
    "/api/admin/login": { post: { summary: "Sign in", tags: ["Admin"], security: [], responses: {} } },
    "/api/admin/settings": {
      get: { summary: "Settings", tags: ["Admin"], security: [{ adminToken: [] }], responses: {} },
    },
  },
};

describe("the API reference model", () => {
  it("groups operations by tag in document order and filters on method, path and summary", () => {
    expect(groupByTag(doc).map((g) => [g.tag, g.operations.map((o) => `${o.method} ${o.path}`)])).toEqual([
      ["Pastes", ["post /api/paste", "get /api/paste/{slug}"]],
      ["Admin", ["post /api/admin/login", "get /api/admin/settings"]],
    ]);
    expect(groupByTag(doc, "SIGN").map((g) => g.operations.map((o) => o.path))).toEqual([
      ["/api/admin/login"],
    ]);
    expect(groupByTag(doc, "get /api/paste")[0]!.operations).toHaveLength(1);
    expect(groupByTag(doc, "nothing like this")).toEqual([]);
  });

  it("names who may call an operation", () => {
    expect(accessOf(doc.paths["/api/paste"]!.post!)).toBe("key");
    expect(accessOf(doc.paths["/api/paste/{slug}"]!.get!)).toBe("public");
    expect(accessOf(doc.paths["/api/admin/settings"]!.get!)).toBe("admin");
  });

  it("lists the error ids of each error status", () => {
    const error = (ids: string[]) => ({
      content: { "application/json": { schema: { properties: { error: { type: "string", enum: ids } } } } },
    });
    const operation = {
      responses: {
        "200": {},
        "401": error(["unauthorized"]),
        "404": error(["paste_not_found"]),
        default: {},
      },
    };
    expect(errorAnswers(operation)).toEqual([
      { status: "401", ids: ["unauthorized"] },
      { status: "404", ids: ["paste_not_found"] },
    ]);
    expect(errorAnswers({ responses: { "200": {}, default: {} } })).toEqual([]);
  });

  it("labels schema types briefly", () => {
    expect(typeLabel({ type: "string" })).toBe("string");
    expect(typeLabel({ type: ["integer", "null"] })).toBe("integer | null");
    expect(typeLabel({ type: "string", format: "date-time" })).toBe("string (date-time)");
    expect(typeLabel({ enum: ["LOCAL", "S3"] })).toBe('"LOCAL" | "S3"');
    expect(typeLabel({ const: true })).toBe("true");
    expect(typeLabel({ type: "array", items: { type: "object", properties: {} } })).toBe("object[]");
    expect(typeLabel({ type: "array", items: { anyOf: [{ type: "string" }, { type: "null" }] } })).toBe(
      "(string | null)[]",
    );
    expect(typeLabel({})).toBe("any");
  });

  it("shows `data` of an enveloped answer, and finds the object inside arrays and nullable schemas", () => {
    const data = { type: "object", properties: { id: { type: "string" } } };
    const envelope = { type: "object", properties: { success: { const: true }, data } };
    expect(answerSchema(envelope)).toEqual({ schema: data, enveloped: true });
    expect(answerSchema(data)).toEqual({ schema: data, enveloped: false });
    expect(objectProperties({ type: "array", items: data })).toBe(data);
    expect(objectProperties({ anyOf: [{ type: "null" }, data] })).toBe(data);
    expect(objectProperties({ type: "string" })).toBeNull();
  });
});
