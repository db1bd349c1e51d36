/**
 * PROPPATCH (RFC 4918 §9.2): sets and removes dead properties in document
 * order, atomically. Live DAV: properties are protected (403 with
 * cannot-modify-protected-property); when any instruction fails, none is
 * applied and the others are reported as 424 Failed Dependency.
 */

import { assertLockTokens, checkIfHeader, type DavCall, readXmlBody } from "../dav-request";
import type { DavDeps } from "../deps";
import { hrefOf } from "../headers";
import type { PropPatchOp } from "../prop-store";
import { isLiveProperty } from "../properties";
import { DavError, statusLine, XML_TYPE } from "../status";
import { childElements, clarkName, DAV_NS, emptyElement, escapeText, is, serializeElement } from "../xml";

export async function proppatch(call: DavCall, deps: DavDeps): Promise<Response> {
  const root = await readXmlBody(call.c);
  if (!root || !is(root, DAV_NS, "propertyupdate")) {
    throw new DavError(400, "PROPPATCH body must be a DAV:propertyupdate element");
  }
  const ops: Array<PropPatchOp & { ns: string; local: string }> = [];
  for (const instruction of childElements(root)) {
    const isSet = is(instruction, DAV_NS, "set");
    if (!isSet && !is(instruction, DAV_NS, "remove")) continue; // unknown elements are ignored (RFC 4918 §17)
    for (const prop of childElements(instruction).filter((e) => is(e, DAV_NS, "prop"))) {
      for (const p of childElements(prop)) {
        const name = clarkName(p.ns, p.local);
        ops.push(
          isSet
            ? { op: "set", name, valueXml: serializeElement(p), ns: p.ns, local: p.local }
            : { op: "remove", name, ns: p.ns, local: p.local },
        );
      }
    }
  }
  if (ops.length === 0) throw new DavError(400, "PROPPATCH names no properties");

  const path = call.path;
  await deps.vfs.authorize(call.actor, "upload", path);
  const entry = await deps.vfs.stat(call.actor, path);
  await checkIfHeader(call, deps, [path], new Map([[path, entry]]));
  await assertLockTokens(call, deps.locks, path);

  const protectedOps = ops.filter((o) => isLiveProperty(o.ns, o.local));
  const groups = new Map<number, string[]>();
  const add = (status: number, o: { ns: string; local: string }) => {
    const list = groups.get(status) ?? [];
    const xml = emptyElement(o.ns, o.local);
    if (!list.includes(xml)) list.push(xml);
    groups.set(status, list);
  };
  if (protectedOps.length > 0) {
    for (const o of ops) add(protectedOps.includes(o) ? 403 : 424, o);
  } else {
    await deps.props.patch(
      path,
      ops.map(({ ns: _ns, local: _local, ...op }) => op),
    );
    for (const o of ops) add(200, o);
  }
  let body = `<?xml version="1.0" encoding="utf-8"?>\n<D:multistatus xmlns:D="DAV:"><D:response><D:href>${escapeText(hrefOf(path, entry.isDirectory))}</D:href>`;
  for (const [status, names] of groups) {
    const error = status === 403 ? "<D:error><D:cannot-modify-protected-property/></D:error>" : "";
    body += `<D:propstat><D:prop>${names.join("")}</D:prop><D:status>${statusLine(status)}</D:status>${error}</D:propstat>`;
  }
  body += "</D:response></D:multistatus>\n";
  return new Response(body, { status: 207, headers: { "Content-Type": XML_TYPE } });
}
