/**
 * A route's entry in the OpenAPI document, written where the route is registered:
 *
 *   app.post("/paste", described((w) => ({ summary: …, access: "key", permissions: ["TEXT"], … }), handler))
 *
 * `described` only tags the handler; the builder runs when /api/openapi.json is first
 * asked for and gets the wire schemas (`openapi/wire.ts`) as `w` then, so an idle
 * server holds one small function per route and builds no schema for it.
 * `openapi/document.ts` walks the registered routes and reads each handler's builder.
 */
import type { ErrorCode, PermissionName } from "@clipshare/shared";
import type { z } from "zod";
import type * as Wire from "./openapi/wire";

export interface RouteDoc {
  summary: string;
  /** A longer text, shown under the summary. */
  description?: string;
  tag: string;
  /**
   * Who may call it: anyone, an administrator, a signed-in account (a session of any role, not
   * an API key), or any signed-in caller (a session or an API key).
   */
  access: "public" | "admin" | "account" | "key";
  /** "key" routes: the permission bits the caller's grant needs, every one of them. */
  permissions?: PermissionName[];
  /** The key needs any one of `permissions` instead of all of them. */
  anyPermission?: true;
  /**
   * "key" routes of the explorer tree that visitors without credentials may
   * also call, inside the public part (public browsing; elsewhere they get 401).
   */
  visitors?: true;
  /**
   * The errors this route answers with beyond those its access and input imply
   * (authentication, permission, invalid JSON or fields: added by the document).
   */
  errors?: ErrorCode[];
  query?: z.ZodType;
  body?: z.ZodType;
  /** The body is a file (raw bytes or a multipart form), not JSON. */
  upload?: "raw" | "form";
  /** The schema of `data` in the JSON envelope; absent for an answer whose `data` is null. */
  data?: z.ZodType;
  /** The answer is the file itself (plain text, a JSON document, a WebP image) or a page, not the JSON envelope. */
  file?: "bytes" | "text" | "json" | "html" | "image";
}

export type RouteDocBuilder = (w: typeof Wire) => RouteDoc;

const ROUTE_DOC = Symbol("routeDoc");
/** Hono's key for the handler it wraps when a sub-app with its own error handler is mounted. */
const COMPOSED_HANDLER = "__COMPOSED_HANDLER";

type Tagged = { [ROUTE_DOC]?: RouteDocBuilder; [COMPOSED_HANDLER]?: Tagged };

/**
 * The handler itself, tagged with its description (no wrapper, nothing added per request).
 * Unconstrained, so the handler keeps the types `app.get(path, …)` gives it.
 */
export function described<H extends object>(doc: RouteDocBuilder, handler: H): H {
  const tagged = handler as unknown as Tagged;
  // One handler registered at two routes would carry the last description for both.
  if (tagged[ROUTE_DOC]) throw new Error("This handler is already described; give each route its own");
  tagged[ROUTE_DOC] = doc;
  return handler;
}

/** The description a registered handler carries, if any. */
export function routeDocOf(handler: unknown): RouteDocBuilder | undefined {
  const tagged = handler as Tagged | undefined;
  return tagged?.[ROUTE_DOC] ?? tagged?.[COMPOSED_HANDLER]?.[ROUTE_DOC];
}

/** Routes under one tag that a key or a session may call, holding `permissions` where named. */
export function keyRouteDocs(tag: string, permissions?: PermissionName[]) {
  return (doc: Omit<RouteDoc, "tag" | "access" | "permissions">): RouteDoc => ({
    ...doc,
    tag,
    access: "key",
    ...(permissions && { permissions }),
  });
}

/**
 * The two kinds of route a shared thing (file request, collection) has under one tag: managed by
 * its creator, signed in with the file-share bit, and visited by anyone without credentials.
 */
export function shareRouteDocs(tag: string) {
  return {
    managed: keyRouteDocs(tag, ["FILE_SHARE"]),
    visiting: (doc: Omit<RouteDoc, "tag" | "access">): RouteDoc => ({ ...doc, tag, access: "public" }),
  };
}
