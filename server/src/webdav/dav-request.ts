/**
 * What every WebDAV method handler works with: the request, its target path,
 * the principal as a file-system actor, the parsed If header, and the shared
 * checks of RFC 4918 that several methods need (If header evaluation, lock
 * tokens on writes, HTTP preconditions, reading small XML bodies).
 */

import type { FsEntry } from "@clipshare/shared";
import type { Context } from "hono";
import { creatorIdOf } from "../auth/creator";
import type { Principal } from "../auth/principal";
import type { FsActor } from "../domain/fs/access";
import type { VirtualFileSystem } from "../domain/fs/vfs";
import { vparent } from "../domain/fs/vpath";
import { isAppError } from "../errors";
import { readLimitedBody } from "../http/body";
import type { AppEnv } from "../http/types";
import type { Logger } from "../logger";
import { type DavTarget, hrefOf, targetOfUrl } from "./headers";
import { evaluateList, type IfList, submittedTokens } from "./if-header";
import type { DavLock, LockStore } from "./lock-store";
import { quotedEtag } from "./properties";
import { DavError, lockTokenSubmitted } from "./status";
import { parseXml, type XmlElement, XmlError } from "./xml";

/** Largest XML body we read (PROPFIND, PROPPATCH, LOCK). */
export const MAX_XML_BODY = 1024 * 1024;

export interface DavCall {
  c: Context<AppEnv>;
  method: string;
  target: DavTarget;
  /** Normalized virtual path of the Request-URI. */
  path: string;
  /** Anonymous only for reading the public part (public browsing over WebDAV). */
  principal: Principal;
  actor: FsActor;
  /** The If header, parsed; null when absent. */
  ifLists: IfList[] | null;
  /** Where clients reach us, for Destination and If resource tags. */
  origin: string;
  log: Logger;
}

export const ownerOf = (call: DavCall) => creatorIdOf(call.principal);

/** A resource's entry, or null when nothing is there (a file in the way of the path counts as nothing). */
export async function statOrNull(
  vfs: VirtualFileSystem,
  actor: FsActor,
  path: string,
): Promise<FsEntry | null> {
  try {
    return await vfs.stat(actor, path);
  } catch (e) {
    if (isAppError(e) && (e.status === 404 || e.error === "not_a_directory")) return null;
    throw e;
  }
}

/** Reads a small body completely; 413 beyond `max` bytes. */
export function readSmallBody(c: Context<AppEnv>, max = MAX_XML_BODY): Promise<Buffer> {
  return readLimitedBody(c, max, () => new DavError(413, "Request body is too large"));
}

/** The XML body's root element, or null for an empty body; 400 for anything that is not well-formed XML. */
export async function readXmlBody(c: Context<AppEnv>): Promise<XmlElement | null> {
  const bytes = await readSmallBody(c);
  const text = bytes.toString("utf8");
  if (text.trim() === "") return null;
  try {
    return parseXml(text);
  } catch (e) {
    if (e instanceof XmlError) throw new DavError(400, `Malformed XML body: ${e.message}`);
    throw e;
  }
}

/** The virtual path an If resource tag names, or null when it is not one of ours. */
function tagPath(call: DavCall, tag: string): string | null {
  try {
    return targetOfUrl(tag, call.c.req.url, call.origin)?.path ?? null;
  } catch {
    return null;
  }
}

export interface ResourceStateSource {
  vfs: VirtualFileSystem;
  locks: LockStore;
}

/**
 * RFC 4918 §10.4: evaluates the If header against the resources this request
 * acts on (`involved`: the Request-URI, and the Destination for COPY/MOVE).
 * Untagged lists apply to the Request-URI; tagged lists to the resource they
 * name, and lists naming none of the involved resources are ignored. The
 * header holds when one applicable list holds; otherwise 412.
 */
export async function checkIfHeader(
  call: DavCall,
  deps: ResourceStateSource,
  involved: string[],
  known: Map<string, FsEntry | null> = new Map(),
): Promise<void> {
  if (!call.ifLists) return;
  const applicable: Array<{ list: IfList; path: string }> = [];
  for (const list of call.ifLists) {
    const path = list.resource === null ? call.path : tagPath(call, list.resource);
    if (path !== null && involved.includes(path)) applicable.push({ list, path });
  }
  if (applicable.length === 0) return;
  const states = new Map<string, { etag: string | null; lockTokens: Set<string> }>();
  for (const { list, path } of applicable) {
    let state = states.get(path);
    if (!state) {
      const entry = known.has(path) ? known.get(path)! : await statOrNull(deps.vfs, call.actor, path);
      const locks = await deps.locks.covering(path);
      state = { etag: entry ? quotedEtag(entry) : null, lockTokens: new Set(locks.map((l) => l.token)) };
      states.set(path, state);
    }
    if (evaluateList(list, state)) return;
  }
  throw new DavError(412, "The If header's conditions are not met");
}

/**
 * Lock enforcement on writes (RFC 4918 §7): a write to a locked resource must
 * present, in the If header, the token of a lock that covers it and that the
 * same principal holds. `deep` also checks locks rooted below the path
 * (DELETE, MOVE, overwriting a collection); `parent` also checks locks on the
 * parent collection, whose membership changes (creating, deleting, moving).
 * Otherwise 423 with the lock roots in `<D:lock-token-submitted>`.
 */
export async function assertLockTokens(
  call: DavCall,
  locks: LockStore,
  path: string,
  options: { deep?: boolean; parent?: boolean } = {},
): Promise<void> {
  const tokens = submittedTokens(call.ifLists ?? []);
  const owner = ownerOf(call);
  const held = (l: DavLock) => tokens.has(l.token) && l.principal === owner;
  const blocked: DavLock[] = [];
  const covering = await locks.covering(path);
  if (covering.length > 0 && !covering.some(held)) blocked.push(covering[0]!);
  if (options.parent && path !== "/") {
    const parent = vparent(path);
    // Only locks that end at the parent: deeper ones cover `path` and were checked above.
    const parentLocks = (await locks.covering(parent)).filter((l) => l.path === parent && l.depth === "0");
    if (parentLocks.length > 0 && !parentLocks.some(held)) blocked.push(parentLocks[0]!);
  }
  if (options.deep) {
    const byRoot = new Map<string, DavLock[]>();
    for (const l of await locks.within(path)) byRoot.set(l.path, [...(byRoot.get(l.path) ?? []), l]);
    for (const group of byRoot.values()) if (!group.some(held)) blocked.push(group[0]!);
  }
  if (blocked.length > 0) throw lockTokenSubmitted(blocked.map((l) => hrefOf(l.path, false)));
}

/** HTTP preconditions of RFC 9110 §13 for methods other than GET/HEAD (which serveObject answers). */
export function checkHttpPreconditions(call: DavCall, entry: FsEntry | null): void {
  const { c } = call;
  const etag = entry ? quotedEtag(entry) : null;
  const ifMatch = c.req.header("if-match");
  if (ifMatch !== undefined) {
    const ok = ifMatch.trim() === "*" ? entry !== null : etag !== null && listHasEtag(ifMatch, etag);
    if (!ok) throw new DavError(412, "If-Match precondition failed");
  } else {
    const since = c.req.header("if-unmodified-since");
    if (since && entry?.modified) {
      const limit = Date.parse(since);
      if (!Number.isNaN(limit) && Math.floor(Date.parse(entry.modified) / 1000) > Math.floor(limit / 1000)) {
        throw new DavError(412, "If-Unmodified-Since precondition failed");
      }
    }
  }
  const ifNoneMatch = c.req.header("if-none-match");
  if (ifNoneMatch !== undefined && call.method !== "GET" && call.method !== "HEAD") {
    const matches =
      ifNoneMatch.trim() === "*" ? entry !== null : etag !== null && listHasEtag(ifNoneMatch, etag);
    if (matches) throw new DavError(412, "If-None-Match precondition failed");
  }
}

function listHasEtag(header: string, etag: string): boolean {
  const strip = (t: string) => t.trim().replace(/^W\//, "");
  return header.split(",").some((t) => strip(t) === strip(etag));
}
