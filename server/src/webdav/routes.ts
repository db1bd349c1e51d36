/**
 * The /dav endpoint: a Hono sub-app that authenticates every request, checks
 * the permission of the method's file-system operation (METHOD_OPERATION; the
 * bits are the WebDAV actor's, in domain/fs/access.ts), parses the If header
 * and hands the request to the method's handler. Every error becomes a DAV
 * response in status.ts.
 */
import { type Context, Hono } from "hono";
import { authenticationRequired } from "../auth/policy";
import type { Principal } from "../auth/principal";
import type { AppContext } from "../context";
import { type FsOperation, requireOperation, webdavActor } from "../domain/fs/access";
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

type DavMethod = (typeof DAV_METHODS)[number];

/**
 * What each method does to the tree. Every request also needs "view" (to
 * read the tree at all); the bit of each operation is WEBDAV_READ for view
 * and WEBDAV_MANAGE for every change.
 */
const METHOD_OPERATION: Record<DavMethod, FsOperation> = {
  OPTIONS: "view",
  GET: "view",
  HEAD: "view",
  PROPFIND: "view",
  PUT: "upload",
  MKCOL: "upload",
  PROPPATCH: "rename",
  LOCK: "upload",
  UNLOCK: "upload",
  COPY: "copy",
  MOVE: "rename",
  DELETE: "delete",
};

type Handler = (call: DavCall, deps: DavDeps) => Promise<Response>;

const HANDLERS: Record<DavMethod, Handler> = {
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
  /** Public browsing over WebDAV: read methods, without failed credentials, with the setting on. */
  const visitorsMay = async (method: DavMethod, principal: Principal) =>
    METHOD_OPERATION[method] === "view" &&
    principal.kind === "anonymous" &&
    principal.authFailure === undefined &&
    (await ctx.settings.getAll()).public_webdav;

  const handle = async (c: Context<AppEnv>) => {
    const log = ctx.log.child({ reqId: c.get("requestId") });
    try {
      const method = c.req.method.toUpperCase() as DavMethod;
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
      // Without credentials only reading, and only where the public part is open to WebDAV;
      // the tree's check answers 401 (with the challenge) outside the public part.
      if (principal.kind === "anonymous" && !(await visitorsMay(method, principal))) {
        const failure = authenticationRequired(principal);
        throw new DavError(401, failure.message, undefined, {
          "WWW-Authenticate": 'Basic realm="ClipShare"',
        });
      }
      c.set("principal", principal);
      const actor = webdavActor(principal);
      requireOperation(actor, "view");
      requireOperation(actor, METHOD_OPERATION[method]);
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
        actor,
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
