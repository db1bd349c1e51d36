/**
 * LOCK and UNLOCK (RFC 4918 §9.10, §9.11): exclusive and shared write locks,
 * depth 0 or infinity, refresh through the If header, and locking an unmapped
 * URL, which creates an empty file (a "locked empty resource").
 */
import { Readable } from "node:stream";

import { isWithin, vparent } from "../../domain/fs/vpath";
import { checkIfHeader, type DavCall, ownerOf, readXmlBody, statOrNull } from "../dav-request";
import type { DavDeps } from "../deps";
import { hrefOf, parseDepth, parseLockToken, parseTimeout } from "../headers";
import { submittedTokens } from "../if-header";
import { type DavLock, LockConflictError, type LockScope } from "../lock-store";
import { activeLockXml } from "../properties";
import { DavError, XML_TYPE, xmlDocument } from "../status";
import { childElements, DAV_NS, escapeText, findChild, is, serializeElement } from "../xml";

function lockResponse(lock: DavLock, status: 200 | 201, withHeader: boolean): Response {
  const body = xmlDocument(
    `<D:prop xmlns:D="DAV:"><D:lockdiscovery>${activeLockXml(lock)}</D:lockdiscovery></D:prop>\n`,
  );
  const headers: Record<string, string> = { "Content-Type": XML_TYPE };
  if (withHeader) headers["Lock-Token"] = `<${lock.token}>`;
  return new Response(body, { status, headers });
}

export async function lock(call: DavCall, deps: DavDeps): Promise<Response> {
  const { vfs, locks } = deps;
  const path = call.path;
  const depth = parseDepth(call.c.req.header("depth"), "infinity", ["0", "infinity"]);
  const timeout = parseTimeout(call.c.req.header("timeout"));
  const root = await readXmlBody(call.c);
  await vfs.authorize(call.actor, "upload", path);

  if (root === null) {
    // A refresh: the lock is named by a token in the If header.
    if (!call.ifLists)
      throw new DavError(400, "A LOCK without a body refreshes a lock and needs an If header");
    await checkIfHeader(call, deps, [path]);
    const tokens = submittedTokens(call.ifLists);
    const owner = ownerOf(call);
    const current = (await locks.covering(path)).find((l) => tokens.has(l.token) && l.principal === owner);
    if (!current)
      throw new DavError(
        412,
        "No lock of yours on this resource is named in the If header",
        "<D:lock-token-matches-request-uri/>",
      );
    const refreshed = await locks.refresh(current.token, timeout);
    if (!refreshed) throw new DavError(412, "The lock has expired");
    return lockResponse(refreshed, 200, false);
  }

  if (!is(root, DAV_NS, "lockinfo")) throw new DavError(400, "LOCK body must be a DAV:lockinfo element");
  const scopeEl = findChild(root, DAV_NS, "lockscope");
  const scopeName = scopeEl ? childElements(scopeEl)[0] : undefined;
  if (
    !scopeName ||
    scopeName.ns !== DAV_NS ||
    (scopeName.local !== "exclusive" && scopeName.local !== "shared")
  ) {
    throw new DavError(400, "lockscope must be exclusive or shared");
  }
  const typeEl = findChild(root, DAV_NS, "locktype");
  if (!typeEl || !childElements(typeEl).some((t) => is(t, DAV_NS, "write"))) {
    throw new DavError(400, "Only write locks are supported");
  }
  const ownerEl = findChild(root, DAV_NS, "owner");

  const existing = await statOrNull(vfs, call.actor, path);
  if (existing?.isVirtual) throw new DavError(403, "Only resources inside a mount point can be locked");
  if (!existing) {
    const parent = await statOrNull(vfs, call.actor, vparent(path));
    if (!parent?.isDirectory) throw new DavError(409, "The parent collection does not exist");
  }
  await checkIfHeader(call, deps, [path], new Map([[path, existing]]));

  let granted: DavLock;
  try {
    granted = await locks.create({
      path,
      scope: scopeName.local as LockScope,
      depth: depth === "0" ? "0" : "infinity",
      ownerXml: ownerEl ? serializeElement(ownerEl) : null,
      principal: ownerOf(call),
      timeoutSeconds: timeout,
    });
  } catch (e) {
    if (e instanceof LockConflictError) {
      const href = escapeText(hrefOf(e.lock.path, false));
      throw new DavError(
        423,
        "The resource is locked",
        `<D:no-conflicting-lock><D:href>${href}</D:href></D:no-conflicting-lock>`,
      );
    }
    throw e;
  }
  if (existing) return lockResponse(granted, 200, true);
  try {
    await vfs.write(call.actor, path, Readable.from([]), { size: 0 });
    await deps.props.removeTree(path);
  } catch (e) {
    await locks.remove(granted.token);
    throw e;
  }
  return lockResponse(granted, 201, true);
}

export async function unlock(call: DavCall, deps: DavDeps): Promise<Response> {
  const token = parseLockToken(call.c.req.header("lock-token"));
  await deps.vfs.authorize(call.actor, "upload", call.path);
  const found = await deps.locks.get(token);
  if (
    !found ||
    !(found.path === call.path || (found.depth === "infinity" && isWithin(call.path, found.path)))
  ) {
    throw new DavError(
      409,
      "The lock token does not match a lock on this resource",
      "<D:lock-token-matches-request-uri/>",
    );
  }
  if (found.principal !== ownerOf(call) && call.principal.kind !== "admin") {
    throw new DavError(403, "This lock belongs to someone else");
  }
  await deps.locks.remove(token);
  return new Response(null, { status: 204 });
}
