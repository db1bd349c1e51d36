/**
 * Checks real answers against /api/openapi.json: a test records what the
 * server answered (method, path, status, JSON body), and each answer is
 * validated with ajv (JSON Schema 2020-12, the dialect of OpenAPI 3.1) against
 * the response schema the document gives for that operation.
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import type { TestApp, TestResponse } from "./test-app";

export interface RecordedAnswer {
  method: string;
  path: string;
  status: number;
  body: unknown;
}

type JsonSchema = Record<string, unknown>;
interface OpenApiOperation {
  responses: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
}

/** Makes `t.request` keep every JSON answer it receives (the requests themselves are unchanged). */
export function recordAnswers(t: TestApp): RecordedAnswer[] {
  const answers: RecordedAnswer[] = [];
  const request = t.request.bind(t);
  t.request = async <T>(method: string, url: string, options?: Parameters<TestApp["request"]>[2]) => {
    const res: TestResponse<T> = await request<T>(method, url, options);
    const path = new URL(url, "http://recorded").pathname;
    if (path.startsWith("/api/") && res.headers.get("content-type")?.startsWith("application/json"))
      answers.push({ method: method.toUpperCase(), path, status: res.status, body: res.body });
    return res;
  };
  return answers;
}

/** The document's path template a concrete path belongs to; literal segments win over parameters. */
export function matchPath(doc: OpenApiDocument, method: string, path: string): string | null {
  let best: { template: string; params: number } | null = null;
  for (const template of Object.keys(doc.paths)) {
    if (!doc.paths[template]![method.toLowerCase()]) continue;
    const pattern = template
      .split("/")
      .map((segment) =>
        segment === "{path}"
          ? ".+"
          : /^\{\w+\}$/.test(segment)
            ? "[^/]+"
            : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
      )
      .join("/");
    if (!new RegExp(`^${pattern}$`).test(path)) continue;
    const params = (template.match(/\{/g) ?? []).length;
    if (!best || params < best.params) best = { template, params };
  }
  return best?.template ?? null;
}

/**
 * The problems of each answer that does not match its documented schema: a
 * success (any 2xx) against the "200" answer, an error against the answer of its
 * status (whose `error` ids the route lists) or else "default".
 */
export function validateAnswers(doc: OpenApiDocument, answers: RecordedAnswer[]): string[] {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  const compiled = new Map<JsonSchema, ValidateFunction>();
  const problems: string[] = [];
  for (const a of answers) {
    const template = matchPath(doc, a.method, a.path);
    if (!template) {
      problems.push(`${a.method} ${a.path}: not in the document`);
      continue;
    }
    const op = doc.paths[template]![a.method.toLowerCase()]!;
    const response =
      a.status < 300 ? op.responses["200"] : (op.responses[String(a.status)] ?? op.responses.default);
    const schema = response?.content?.["application/json"]?.schema;
    if (!schema) {
      problems.push(`${a.method} ${template} ${a.status}: the document has no JSON answer for it`);
      continue;
    }
    let validate = compiled.get(schema);
    if (!validate) {
      validate = ajv.compile(schema);
      compiled.set(schema, validate);
    }
    if (!validate(a.body))
      problems.push(
        `${a.method} ${template} ${a.status}: ${ajv.errorsText(validate.errors, { dataVar: "body" })}`,
      );
  }
  return problems;
}

/** Every schema in the document compiles as JSON Schema 2020-12 (unknown keywords refused). */
export function uncompilableSchemas(doc: OpenApiDocument): string[] {
  const ajv = new Ajv2020({
    strict: true,
    strictRequired: false,
    strictTypes: false,
    validateFormats: false,
  });
  const problems: string[] = [];
  const check = (where: string, schema: unknown) => {
    if (!schema) return;
    try {
      ajv.compile(schema as JsonSchema);
    } catch (e) {
      problems.push(`${where}: ${(e as Error).message}`);
    }
  };
  for (const [path, ops] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(ops)) {
      const o = op as OpenApiOperation & {
        parameters?: Array<{ name: string; schema?: JsonSchema }>;
        requestBody?: { content: Record<string, { schema?: JsonSchema }> };
      };
      for (const p of o.parameters ?? []) check(`${method} ${path} parameter ${p.name}`, p.schema);
      for (const [type, c] of Object.entries(o.requestBody?.content ?? {}))
        check(`${method} ${path} body ${type}`, c.schema);
      for (const [status, r] of Object.entries(o.responses))
        for (const [type, c] of Object.entries(r.content ?? {}))
          check(`${method} ${path} ${status} ${type}`, c.schema);
    }
  return problems;
}
