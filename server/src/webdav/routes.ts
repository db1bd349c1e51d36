/**
 * The /dav endpoint: a Hono sub-app that authenticates every request, checks
 * the WebDAV permission bits (WEBDAV_READ for reading verbs, WEBDAV_MANAGE as
 * well for everything else), parses the If header and hands the request to
 * the method's handler. Every error becomes a DAV response in status.ts.
 */
import { Permission } from "@clipshare/shared";
import { type Context, Hono } from "hono";
import { authenticationRequired, requirePermission } from "../auth/policy";
import type { AppContext } from "../context";
import { webdavActor } from "../domain/fs/access";
import { publicOrigin } from "../http/request-origin";
import type { AppEnv } from "../http/types";
import { DavAuthenticator } from "./auth";
import type { DavCall } from "./dav-request";
import type { DavDeps } from "./deps";
import { pathOfTarget, targetOfPathname } from "./headers";
import { IfHeaderError, parseIfHeader } from "./if-header";
import { LockStore } from "./lock-store";
import { lock, unlock } from "./methods/locking";
import { proppatch } from "./methods/props";
import { DAV_METHODS, get, options, propfind } from "./methods/read";
import { copy, mkcol, move, put, remove } from "./methods/write";
import { PropStore } from "./prop-store";
import { DavError, davErrorResponse } from "./status";

const READ_METHODS = new Set(["OPTIONS", "GET", "HEAD", "PROPFIND"]);

type Handler = (call: DavCall, deps: DavDeps) => Promise<Response>;

const HANDLERS: Record<(typeof DAV_METHODS)[number], Handler> = {
  OPTIONS: async () => options(),
  GET: get,
  HEAD: get,
  PUT: put,
  DELETE: remove,
  PROPFIND: propfind,
  PROPPATCH: proppatch,
  MKCOL: mkcol,
  COPY: copy,
  MOVE: move,
  LOCK: lock,
  UNLOCK: unlock,
};

/** The path of a raw request target (origin form, or absolute form through a proxy). */
function rawPathname(raw: string | undefined): string | null {
  if (!raw) return null;
  return pathOfTarget(raw.startsWith("/") ? raw : raw.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?]*/i, ""));
}

export function webdavRoutes(ctx: AppContext): Hono<AppEnv> {
  const deps: DavDeps = {
    ctx,
    vfs: ctx.fs.vfs,
    locks: new LockStore(ctx.db, ctx.config.database.dialect),
    props: new PropStore(ctx.db),
  };
  const authenticator = new DavAuthenticator(ctx);
  const app = new Hono<AppEnv>();

  const handle = async (c: Context<AppEnv>) => {
    const log = c.get("log") ?? ctx.log;
    try {
      const method = c.req.method.toUpperCase() as (typeof DAV_METHODS)[number];
      // A fragment is never part of a request target; acting on what precedes it would be unsafe
      // (DELETE /coll/#frag must not delete /coll/). Node keeps the raw target on the request.
      // The raw target also keeps "%2e%2e" as sent; the URL parser would already have resolved it.
      const raw = (c.env as { incoming?: { url?: string } } | undefined)?.incoming?.url;
      if (raw?.includes("#")) throw new DavError(400, "A request URI must not contain a fragment");
      const target = targetOfPathname(rawPathname(raw) ?? new URL(c.req.url).pathname);
      if (!target) throw new DavError(404, "Not found");
      const principal = await authenticator.authenticate(
        c.req.header("authorization"),
        c.req.header("x-custom-auth-key"),
        c.get("clientIp") ?? "unknown",
      );
      if (principal.kind === "anonymous") {
        const failure = authenticationRequired(principal);
        throw new DavError(401, failure.message, undefined, {
          "WWW-Authenticate": 'Basic realm="ClipShare"',
        });
      }
      c.set("principal", principal);
      requirePermission(principal, Permission.WEBDAV_READ);
      if (!READ_METHODS.has(method)) requirePermission(principal, Permission.WEBDAV_MANAGE);
      const ifHeader = c.req.header("if");
      let ifLists: DavCall["ifLists"] = null;
      if (ifHeader !== undefined) {
        try {
          ifLists = parseIfHeader(ifHeader);
        } catch (e) {
          if (e instanceof IfHeaderError) throw new DavError(400, e.message);
          throw e;
        }
      }
      const call: DavCall = {
        c,
        method,
        target,
        path: target.path,
        principal,
        actor: webdavActor(principal),
        ifLists,
        origin: publicOrigin(c, ctx.config.trustProxy),
        log,
      };
      return await HANDLERS[method](call, deps);
    } catch (e) {
      return davErrorResponse(e, log);
    }
  };

  app.on([...DAV_METHODS], ["/", "/*"], handle);
  app.all("*", (c) => c.text("Method not implemented", 501, { Allow: DAV_METHODS.join(", ") }));
  return app;
}
