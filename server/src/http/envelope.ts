/**
 * The response envelope of every JSON response: {code, message, success, data},
 * with HTTP status equal to code. Errors add a stable `error` id.
 */

import { type ErrorCode, errorMessage, preferredLanguage } from "@clipshare/shared";
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { isAppError } from "../errors";
import { aliasedJson, type ResponseAliasGroup } from "./wire-aliases";

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

/** ok() for an answer that carries 0.7.3's camelCase copies of its fields (wire-aliases.ts). */
export function okAliased(
  c: Context,
  data: object,
  aliases: ResponseAliasGroup,
  message = "Success",
  status: 200 | 201 | 202 = 200,
) {
  const body = `{"code":${status},"message":${JSON.stringify(message)},"success":true,"data":${aliasedJson(data, aliases)}}`;
  return c.body(body, status, { "Content-Type": "application/json" });
}

/**
 * `data` with 0.7.3's status fields inside: its upload, edit and link answers
 * repeated `success: true` (and there the message) in `data`, and its clients
 * still read them there. Domain services return the data alone.
 */
export function withInlineStatus<T extends object>(data: T, message?: string) {
  return { success: true as const, ...data, ...(message === undefined ? {} : { message }) };
}

/**
 * ok() whose answer also carries `fields` at the top level of the JSON, for the
 * few routes where 0.7.3 answered a bare object that its clients still read
 * without `data`. Envelope keys always win over a field of the same name.
 */
export function okWithTopLevel<T>(
  c: Context,
  data: T,
  fields: Record<string, unknown>,
  message = "Success",
  status: 200 | 201 | 202 = 200,
) {
  return c.json({ ...fields, code: status, message, success: true, data }, status);
}

const ENVELOPE_KEYS = ["code", "message", "success", "data"] as const;

/**
 * The answer okWithTopLevel(c, data, {...data, ...extra}) gives, for routes
 * where 0.7.3 answered the object itself: `data` is serialized once and its
 * members written twice, instead of stringifying a spread copy of it (the
 * paste's content would be escaped twice per view). When a key repeats
 * between data, extra and the envelope, spread order decides the result: the
 * spread copy is built then. `aliases`: the answer also carries those
 * camelCase copies, in data and at the top level.
 */
export function okRepeatingData<T extends object>(
  c: Context,
  data: T,
  extra: Record<string, unknown>,
  message = "Success",
  status: 200 | 201 | 202 = 200,
  aliases?: ResponseAliasGroup,
) {
  if (keysRepeat(data, extra)) {
    const wire = aliases ? (JSON.parse(aliasedJson(data, aliases)) as T) : data;
    return okWithTopLevel(c, wire, { ...wire, ...extra }, message, status);
  }
  const dataJson = aliases ? aliasedJson(data, aliases) : JSON.stringify(data);
  const members = [
    dataJson.slice(1, -1),
    JSON.stringify(extra).slice(1, -1),
    `"code":${status},"message":${JSON.stringify(message)},"success":true,"data":${dataJson}`,
  ];
  return c.body(`{${members.filter((m) => m !== "").join(",")}}`, status, {
    "Content-Type": "application/json",
  });
}

function keysRepeat(data: object, extra: Record<string, unknown>): boolean {
  for (const key in extra) if (Object.hasOwn(data, key)) return true;
  for (const key of ENVELOPE_KEYS) if (Object.hasOwn(data, key) || Object.hasOwn(extra, key)) return true;
  return false;
}

/**
 * An error answer. `message` is the English sentence; a request that prefers
 * Chinese gets the catalogue's Chinese text for `error` instead.
 */
export function fail(c: Context, status: number, error: ErrorCode, message: string, details?: unknown) {
  const language = preferredLanguage(c.req.header("accept-language"));
  if (language !== "en") c.header("Content-Language", language);
  c.header("Vary", "Accept-Language", { append: true });
  const body: Envelope<null> = {
    code: status,
    message: errorMessage(language, error, message),
    success: false,
    data: null,
    error,
  };
  if (details !== undefined) body.details = details;
  return c.json(body, status as ContentfulStatusCode);
}

/**
 * For URLs people and scripts open directly (raw pastes, file downloads): an
 * AppError becomes a plain-text body with its real status, in the language the
 * browser prefers (English or Chinese); anything else rethrows
 * to the JSON error handler.
 */
export function plainTextError(c: Context, e: unknown) {
  if (!isAppError(e)) throw e;
  for (const [name, value] of Object.entries(e.headers ?? {})) c.header(name, value);
  const language = preferredLanguage(c.req.header("accept-language"));
  c.header("Content-Type", "text/plain; charset=utf-8");
  c.header("Content-Language", language);
  c.header("Vary", "Accept-Language", { append: true });
  return c.body(`${errorMessage(language, e.error, e.message)}\n`, e.status as ContentfulStatusCode);
}
