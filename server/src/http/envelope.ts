/**
 * The response envelope of every JSON response: {code, message, success, data},
 * with HTTP status equal to code. Errors add a stable `error` id.
 */
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

export interface Envelope<T> {
  code: number;
  message: string;
  success: boolean;
  data: T;
  error?: string;
  details?: unknown;
}

export function ok<T>(c: Context, data: T, message = "Success", status: 200 | 201 | 202 = 200) {
  return c.json<Envelope<T>>({ code: status, message, success: true, data }, status);
}

export function fail(c: Context, status: number, error: string, message: string, details?: unknown) {
  const body: Envelope<null> = { code: status, message, success: false, data: null, error };
  if (details !== undefined) body.details = details;
  return c.json(body, status as ContentfulStatusCode);
}
