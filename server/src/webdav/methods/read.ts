/**
 * Read methods: OPTIONS, PROPFIND (streamed multistatus), GET and HEAD
 * (the mount's WebDAV policy: redirect to a presigned URL or stream through).
 */
import type { FsEntry } from "@clipshare/shared";
import { presentEntry } from "../../domain/fs/fs-entry";
import { vjoin } from "../../domain/fs/vpath";
import { isAppError } from "../../errors";
import { serverPageSecurityHeaders } from "../../http/security-headers";
import { serveObject } from "../../http/serve-object";
import { accessClientOf } from "../../http/share-visitor";
import { checkHttpPreconditions, checkIfHeader, type DavCall, readXmlBody } from "../dav-request";
import type { DavDeps } from "../deps";
import { hrefOf, parseDepth } from "../headers";
import type { DavLock } from "../lock-store";
import type { DeadProp } from "../prop-store";
import {
  type DavResource,
  MULTISTATUS_CLOSE,
  MULTISTATUS_OPEN,
  needsDeadProps,
  needsLocks,
  type PropName,
  type PropRequest,
  propfindResponse,
} from "../properties";
import { DavError, XML_TYPE } from "../status";
import { childElements, DAV_NS, escapeText, findChild, is, type XmlElement } from "../xml";

export const DAV_METHODS = [
  "OPTIONS",
  "GET",
  "HEAD",
  "PUT",
  "DELETE",
  "PROPFIND",
  "PROPPATCH",
  "MKCOL",
  "COPY",
  "MOVE",
  "LOCK",
  "UNLOCK",
] as const;

export function options(): Response {
  return new Response(null, {
    status: 200,
    headers: {
      DAV: "1, 2",
      "MS-Author-Via": "DAV",
      Allow: DAV_METHODS.join(", "),
      "Content-Length": "0",
    },
  });
}

/** Entries per listing page while streaming a collection. */
const PAGE = 1000;

function parsePropfind(root: XmlElement | null): PropRequest {
  if (root === null) return { kind: "allprop", include: [] };
  if (!is(root, DAV_NS, "propfind")) throw new DavError(400, "PROPFIND body must be a DAV:propfind element");
  const children = childElements(root);
  const prop = findChild(root, DAV_NS, "prop");
  const names = (el: XmlElement | undefined): PropName[] =>
    el ? childElements(el).map((p) => ({ ns: p.ns, local: p.local })) : [];
  if (findChild(root, DAV_NS, "propname")) return { kind: "propname" };
  if (findChild(root, DAV_NS, "allprop"))
    return { kind: "allprop", include: names(findChild(root, DAV_NS, "include")) };
  if (prop) return { kind: "prop", names: names(prop) };
  if (children.length === 0) return { kind: "allprop", include: [] };
  throw new DavError(400, "PROPFIND body needs prop, allprop or propname");
}

/** Virtual path of an entry of a listing (entries of directories end with "/"). */
const entryPath = (dir: string, entry: FsEntry) => vjoin(dir, entry.name);

export async function propfind(call: DavCall, deps: DavDeps): Promise<Response> {
  const depth = parseDepth(call.c.req.header("depth"), "infinity", ["0", "1", "infinity"]);
  if (depth === "infinity") {
    throw new DavError(403, "PROPFIND with Depth: infinity is not supported", "<D:propfind-finite-depth/>");
  }
  const request = parsePropfind(await readXmlBody(call.c));
  const entry = await deps.vfs.stat(call.actor, call.path);
  await checkIfHeader(call, deps, [call.path], new Map([[call.path, entry]]));
  const self: DavResource = { path: call.path, entry };

  // Fetch the first page before answering, so a failure still gets its own status.
  let page =
    depth === "1" && entry.isDirectory ? await deps.vfs.list(call.actor, call.path, { limit: PAGE }) : null;
  const wantLocks = needsLocks(request);
  const wantDead = needsDeadProps(request);

  const { vfs, locks, props } = deps;
  const actor = call.actor;
  const dir = call.path;
  async function* render(): AsyncGenerator<string> {
    yield MULTISTATUS_OPEN;
    const selfDead = wantDead ? await props.get(dir) : [];
    const selfLocks = wantLocks ? await locks.covering(dir) : null;
    yield propfindResponse(self, request, selfDead, selfLocks);
    while (page) {
      const resources = page.items.map((item) => ({ path: entryPath(dir, item), entry: item }));
      const paths = resources.map((r) => r.path);
      const dead: Map<string, DeadProp[]> = wantDead ? await props.getMany(paths) : new Map();
      const lockMap: Map<string, DavLock[]> | null = wantLocks ? await locks.forChildren(dir, paths) : null;
      let chunk = "";
      for (const r of resources) {
        chunk += propfindResponse(r, request, dead.get(r.path) ?? [], lockMap?.get(r.path) ?? null);
      }
      yield chunk;
      page = page.nextCursor ? await vfs.list(actor, dir, { limit: PAGE, cursor: page.nextCursor }) : null;
    }
    yield MULTISTATUS_CLOSE;
  }
  return new Response(streamOf(render(), call), {
    status: 207,
    headers: { "Content-Type": XML_TYPE },
  });
}

/**
 * A pull-driven byte stream over generated text: the next piece is produced
 * only when the client has taken the previous one, so a huge directory never
 * sits in memory. A failure mid-way aborts the response (the client sees a
 * broken transfer, not a well-formed but truncated answer).
 */
function streamOf(source: AsyncGenerator<string>, call: DavCall): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = await source.next();
        if (done) controller.close();
        else controller.enqueue(encoder.encode(value));
      } catch (e) {
        call.log.warn({ err: e }, "PROPFIND stream failed");
        controller.error(e);
      }
    },
    async cancel() {
      await source.return(undefined);
    },
  });
}

export async function get(call: DavCall, deps: DavDeps): Promise<Response> {
  const { c } = call;
  let opened: Awaited<ReturnType<typeof deps.vfs.openFile>>;
  try {
    opened = await deps.vfs.openFile(call.actor, call.path);
  } catch (e) {
    if (isAppError(e) && e.error === "is_a_directory") return collectionPage(call, deps);
    throw e;
  }
  const { target, entry } = opened;
  const fsEntry = presentEntry(target, entry);
  checkHttpPreconditions(call, fsEntry);
  await checkIfHeader(call, deps, [call.path], new Map([[call.path, fsEntry]]));
  const filename = entry.name;
  const conditional = c.req.header("if-none-match") || c.req.header("if-modified-since");
  const driver = target.driver;
  const redirect =
    call.method === "GET" &&
    !conditional &&
    target.row.webdav_policy === "302_redirect" &&
    driver.capabilities.presignRead &&
    driver.presignRead !== undefined;
  if (call.method === "GET") {
    const kind = redirect ? "presigned_redirect" : "download";
    const bytes = redirect ? null : entry.size;
    await deps.ctx.fs.visitorDownloads.admit(call.principal, [call.path], kind, accessClientOf(c), bytes);
  }
  if (redirect && driver.presignRead) {
    const signed = await driver.presignRead(target.subPath);
    return new Response(null, {
      status: 302,
      headers: { Location: signed.url, "Cache-Control": "no-store" },
    });
  }
  return serveObject(c, driver, target.subPath, {
    filename,
    contentType: entry.contentType,
    disposition: "attachment",
    entry,
  });
}

/** GET on a collection: a small HTML index of its first page, for people who open /dav in a browser. */
async function collectionPage(call: DavCall, deps: DavDeps): Promise<Response> {
  const listing = await deps.vfs.list(call.actor, call.path, { limit: PAGE });
  const rows = listing.items
    .map((item) => {
      const href = hrefOf(entryPath(call.path, item), item.isDirectory);
      return `<li><a href="${escapeText(href).replace(/"/g, "&quot;")}">${escapeText(item.name)}${item.isDirectory ? "/" : ""}</a></li>`;
    })
    .join("\n");
  const title = escapeText(call.path);
  const body = `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><ul>\n${rows}\n</ul>${listing.hasMore ? "<p>(more entries not shown)</p>" : ""}</body></html>\n`;
  return new Response(call.method === "HEAD" ? null : body, {
    status: 200,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      ...serverPageSecurityHeaders(deps.ctx.config, { sandbox: true }),
      "Cache-Control": "private, no-cache",
    },
  });
}
