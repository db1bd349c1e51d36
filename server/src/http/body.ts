/**
 * Reading JSON bodies with a byte limit and a schema, so every route turns
 * malformed, oversized or mistyped input into a 4xx with a clear message.
 */
import { Readable } from "node:stream";
import type { Context } from "hono";
import { type ZodType, z } from "zod";
import { badRequest, payloadTooLarge, validationFailed } from "../errors";
import { acceptAliases } from "./wire-aliases";

export const DEFAULT_JSON_LIMIT = 1024 * 1024;

/**
 * A small body read whole; `tooLarge()` is thrown past `maxBytes` (declared or counted). Reads
 * Node's own request stream where there is one: reading the Request's body instead would make
 * the adapter build a full Fetch Request (signal, web stream) for every small body.
 */
export async function readLimitedBody(c: Context, maxBytes: number, tooLarge: () => Error): Promise<Buffer> {
  const declared = Number(c.req.header("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge();
  const stream = requestStream(c);
  const chunks: Buffer[] = [];
  let total = 0;
  // Leaving the loop early must not destroy the stream: the 413 still has to reach the client.
  for await (const chunk of stream.iterator({ destroyOnReturn: false })) {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    total += bytes.byteLength;
    if (total > maxBytes) {
      stream.resume();
      throw tooLarge();
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks, total);
}

export async function readBodyText(c: Context, maxBytes: number): Promise<string> {
  const tooLarge = () => payloadTooLarge(`Request body is larger than ${maxBytes} bytes`);
  return (await readLimitedBody(c, maxBytes, tooLarge)).toString("utf8");
}

export function formatZodError(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "Invalid request";
  const field = issue.path.join(".");
  // Messages we wrote ourselves are full sentences that name the field; zod's defaults get it in front.
  const selfDescribing =
    issue.code === "custom" ||
    /^[A-Z]/.test(issue.message) ||
    (field !== "" && issue.message.startsWith(field));
  return selfDescribing || field === "" ? issue.message : `${field}: ${issue.message}`;
}

/** Validates a body, form or query, after the 0.7.3 spellings are renamed (http/wire-aliases.ts). */
export function parseWith<S extends ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(acceptAliases(input));
  if (!result.success) throw validationFailed(formatZodError(result.error), z.treeifyError(result.error));
  return result.data;
}

/** Parses the JSON body (empty body = {}) and validates it. */
export async function readJson<S extends ZodType>(
  c: Context,
  schema: S,
  maxBytes = DEFAULT_JSON_LIMIT,
): Promise<z.output<S>> {
  const text = await readBodyText(c, maxBytes);
  let value: unknown = {};
  if (text.trim() !== "") {
    try {
      value = JSON.parse(text);
    } catch {
      throw badRequest("Request body is not valid JSON", "invalid_json");
    }
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw badRequest("Request body must be a JSON object", "invalid_json");
  }
  return parseWith(schema, value);
}

/** Validates the query string (single values; use c.req.queries for arrays). */
export function readQuery<S extends ZodType>(c: Context, schema: S): z.output<S> {
  return parseWith(schema, c.req.query());
}

/**
 * The request body as a Node stream (empty when there is none), for streaming
 * it into storage. On a real socket that is Node's own request stream, which
 * saves converting every chunk to a web stream and back (upload throughput);
 * in-process requests go through the Request body.
 */
export function requestStream(c: { env: unknown; req: { raw: Request } }): Readable {
  const incoming = (c.env as { incoming?: unknown } | undefined)?.incoming;
  if (incoming instanceof Readable && !incoming.readableDidRead) return incoming;
  const body = c.req.raw.body;
  if (!body) return Readable.from([]);
  return Readable.fromWeb(body as import("node:stream/web").ReadableStream);
}

/** A Content-Length header as a number; null when absent or not a plain integer. */
export function declaredLength(header: string | undefined): number | null {
  if (!header || !/^\d+$/.test(header)) return null;
  return Number(header);
}
