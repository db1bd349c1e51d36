/**
 * Properties of a resource as PROPFIND shows them: the live DAV: properties
 * computed from the file-system entry and its locks, and the dead properties
 * stored by PROPPATCH. Also renders `<D:response>` elements of a multistatus.
 */
import type { FsEntry } from "@clipshare/shared";
import { hrefOf } from "./headers";
import type { DavLock } from "./lock-store";
import type { DeadProp } from "./prop-store";
import { statusLine } from "./status";
import { clarkName, DAV_NS, emptyElement, escapeText, parseClarkName } from "./xml";

/** Live properties we compute; clients cannot set or remove them. */
export const LIVE_PROPERTIES = [
  "creationdate",
  "displayname",
  "getcontentlength",
  "getcontenttype",
  "getetag",
  "getlastmodified",
  "resourcetype",
  "supportedlock",
  "lockdiscovery",
] as const;

const LIVE_SET = new Set<string>(LIVE_PROPERTIES);

export function isLiveProperty(ns: string, local: string): boolean {
  return ns === DAV_NS && LIVE_SET.has(local);
}

export interface PropName {
  ns: string;
  local: string;
}

/** What a PROPFIND asks for. */
export type PropRequest =
  | { kind: "allprop"; include: PropName[] }
  | { kind: "propname" }
  | { kind: "prop"; names: PropName[] };

/** A resource as the WebDAV layer sees it. */
export interface DavResource {
  /** Normalized virtual path. */
  path: string;
  entry: FsEntry;
}

export const isCollection = (r: DavResource) => r.entry.isDirectory;

export function quotedEtag(entry: FsEntry): string | null {
  return !entry.isDirectory && entry.etag ? `"${entry.etag}"` : null;
}

function lastModified(entry: FsEntry): Date | null {
  if (!entry.modified) return null;
  const d = new Date(entry.modified);
  return Number.isNaN(d.getTime()) ? null : d;
}

export function activeLockXml(lock: DavLock, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((lock.expiresAt.getTime() - now) / 1000));
  return (
    "<D:activelock>" +
    "<D:locktype><D:write/></D:locktype>" +
    `<D:lockscope><D:${lock.scope}/></D:lockscope>` +
    `<D:depth>${lock.depth === "infinity" ? "infinity" : "0"}</D:depth>` +
    (lock.ownerXml ?? "") +
    `<D:timeout>Second-${seconds}</D:timeout>` +
    `<D:locktoken><D:href>${escapeText(lock.token)}</D:href></D:locktoken>` +
    `<D:lockroot><D:href>${escapeText(hrefOf(lock.path, false))}</D:href></D:lockroot>` +
    "</D:activelock>"
  );
}

const SUPPORTED_LOCK =
  "<D:supportedlock>" +
  "<D:lockentry><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>" +
  "<D:lockentry><D:lockscope><D:shared/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>" +
  "</D:supportedlock>";

/** One live property as XML, or null when it does not apply to this resource. */
export function liveProperty(local: string, resource: DavResource, locks: DavLock[] | null): string | null {
  const { entry } = resource;
  switch (local) {
    case "resourcetype":
      return entry.isDirectory ? "<D:resourcetype><D:collection/></D:resourcetype>" : "<D:resourcetype/>";
    case "displayname":
      return entry.name ? `<D:displayname>${escapeText(entry.name)}</D:displayname>` : null;
    case "getcontentlength":
      return entry.isDirectory ? null : `<D:getcontentlength>${entry.size}</D:getcontentlength>`;
    case "getcontenttype":
      return entry.isDirectory
        ? null
        : `<D:getcontenttype>${escapeText(entry.contentType || "application/octet-stream")}</D:getcontenttype>`;
    case "getetag": {
      const etag = quotedEtag(entry);
      return etag ? `<D:getetag>${escapeText(etag)}</D:getetag>` : null;
    }
    case "getlastmodified": {
      const d = lastModified(entry);
      return d ? `<D:getlastmodified>${d.toUTCString()}</D:getlastmodified>` : null;
    }
    case "creationdate": {
      // Storage keeps no creation time; the last modification is the closest we know.
      const d = lastModified(entry);
      return d ? `<D:creationdate>${d.toISOString().replace(/\.\d{3}Z$/, "Z")}</D:creationdate>` : null;
    }
    case "supportedlock":
      return SUPPORTED_LOCK;
    case "lockdiscovery":
      return locks && locks.length > 0
        ? `<D:lockdiscovery>${locks.map((l) => activeLockXml(l)).join("")}</D:lockdiscovery>`
        : "<D:lockdiscovery/>";
    default:
      return null;
  }
}

/** Whether answering `request` needs the resource's locks / dead properties. */
export function needsLocks(request: PropRequest): boolean {
  if (request.kind === "allprop") return true;
  if (request.kind === "propname") return false;
  return request.names.some((n) => n.ns === DAV_NS && n.local === "lockdiscovery");
}

export function needsDeadProps(request: PropRequest): boolean {
  if (request.kind !== "prop") return true;
  return request.names.some((n) => !isLiveProperty(n.ns, n.local));
}

/** The `<D:response>` of one resource for a PROPFIND. */
export function propfindResponse(
  resource: DavResource,
  request: PropRequest,
  dead: DeadProp[],
  locks: DavLock[] | null,
): string {
  const found: string[] = [];
  const missing: string[] = [];
  if (request.kind === "propname") {
    for (const local of LIVE_PROPERTIES)
      if (liveProperty(local, resource, null) !== null) found.push(`<D:${local}/>`);
    for (const p of dead) {
      const { ns, local } = parseClarkName(p.name);
      found.push(emptyElement(ns, local));
    }
  } else {
    const byName = new Map(dead.map((p) => [p.name, p.valueXml]));
    const wanted: PropName[] =
      request.kind === "prop"
        ? request.names
        : [
            ...LIVE_PROPERTIES.map((local) => ({ ns: DAV_NS, local })),
            ...dead.map((p) => parseClarkName(p.name)),
            ...request.include,
          ];
    const seen = new Set<string>();
    for (const { ns, local } of wanted) {
      const key = clarkName(ns, local);
      if (seen.has(key)) continue;
      seen.add(key);
      const value = isLiveProperty(ns, local)
        ? liveProperty(local, resource, locks)
        : (byName.get(key) ?? null);
      if (value !== null) found.push(value);
      else if (request.kind === "prop" || request.include.some((n) => n.ns === ns && n.local === local)) {
        missing.push(emptyElement(ns, local));
      }
    }
  }
  let out = `<D:response><D:href>${escapeText(hrefOf(resource.path, isCollection(resource)))}</D:href>`;
  if (found.length > 0 || missing.length === 0) {
    out += `<D:propstat><D:prop>${found.join("")}</D:prop><D:status>${statusLine(200)}</D:status></D:propstat>`;
  }
  if (missing.length > 0) {
    out += `<D:propstat><D:prop>${missing.join("")}</D:prop><D:status>${statusLine(404)}</D:status></D:propstat>`;
  }
  return `${out}</D:response>\n`;
}

export const MULTISTATUS_OPEN = '<?xml version="1.0" encoding="utf-8"?>\n<D:multistatus xmlns:D="DAV:">\n';
export const MULTISTATUS_CLOSE = "</D:multistatus>\n";
