/**
 * Methods that change the tree: PUT, DELETE, MKCOL, COPY, MOVE. Permission and
 * base-path checks happen in the file-system layer (VirtualFileSystem with a
 * WebDAV actor); this module adds the protocol: preconditions, lock tokens,
 * the RFC's statuses, and keeping dead properties and locks in step.
 */
import type { FsEntry } from "@clipshare/shared";
import { writeInParts } from "../../domain/fs/part-writer";
import { isWithin, vbasename, vparent } from "../../domain/fs/vpath";
import { isAppError } from "../../errors";
import { declaredLength, requestStream } from "../../http/body";
import { mimeTypeFor } from "../../storage/mime";
import {
  assertLockTokens,
  checkHttpPreconditions,
  checkIfHeader,
  type DavCall,
  readSmallBody,
  statOrNull,
} from "../dav-request";
import type { DavDeps } from "../deps";
import { parseDepth, parseOverwrite, targetOfUrl } from "../headers";
import { quotedEtag } from "../properties";
import { DavError } from "../status";

const noContent = (status: 201 | 204, headers: Record<string, string> = {}) =>
  new Response(null, { status, headers });

/** The parent collection must exist (RFC 4918 §9.7.1: 409 otherwise). */
async function requireParentCollection(call: DavCall, deps: DavDeps, path: string): Promise<void> {
  if (path === "/") throw new DavError(403, "The root cannot be replaced");
  const parent = await statOrNull(deps.vfs, call.actor, vparent(path));
  if (!parent?.isDirectory) throw new DavError(409, "The parent collection does not exist");
  // Above the mount points the tree is made of mounts only; new resources need storage.
  if (parent.isVirtual) throw new DavError(403, "Resources can only be created inside a mount point");
}

function contentTypeFor(call: DavCall, name: string): string {
  const sent = call.c.req.header("content-type")?.split(";")[0]?.trim().toLowerCase();
  return sent && sent !== "application/octet-stream" && /^[\w.+-]+\/[\w.+-]+$/.test(sent)
    ? sent
    : mimeTypeFor(name);
}

export async function put(call: DavCall, deps: DavDeps): Promise<Response> {
  const { vfs, ctx } = deps;
  const path = call.path;
  const existing = await statOrNull(vfs, call.actor, path);
  if (existing?.isDirectory)
    throw new DavError(405, "PUT cannot replace a collection", undefined, {
      Allow: "GET, HEAD, PROPFIND, PROPPATCH, DELETE, MOVE, COPY, LOCK, UNLOCK, MKCOL",
    });
  if (call.target.trailingSlash) throw new DavError(409, "A file name cannot end with /");
  await requireParentCollection(call, deps, path);
  checkHttpPreconditions(call, existing);
  await checkIfHeader(call, deps, [path], new Map([[path, existing]]));
  await assertLockTokens(call, deps.locks, path, { parent: existing === null });

  const size = declaredLength(call.c.req.header("content-length")) ?? undefined;
  const { webdav_upload_mode: mode } = await ctx.settings.getAll();
  const contentType = contentTypeFor(call, vbasename(path));
  const { entry } = await ctx.fs.uploads.ingestFile(
    call.actor,
    path,
    requestStream(call.c),
    { declaredSize: size ?? null, exactSize: true },
    (input, signal) =>
      mode === "multipart"
        ? writeInParts(vfs, call.actor, path, input, { size, contentType, signal })
        : vfs.write(call.actor, path, input, { size, contentType, signal }),
  );
  // A new resource starts without properties, whatever an earlier one at this path had.
  if (!existing) await deps.props.removeTree(path);
  const etag = quotedEtag(entry);
  return noContent(existing ? 204 : 201, etag ? { ETag: etag } : {});
}

export async function remove(call: DavCall, deps: DavDeps): Promise<Response> {
  const path = call.path;
  const existing = await deps.vfs.stat(call.actor, path);
  checkHttpPreconditions(call, existing);
  await checkIfHeader(call, deps, [path], new Map([[path, existing]]));
  await assertLockTokens(call, deps.locks, path, { deep: true, parent: true });
  await deps.vfs.remove(call.actor, path);
  await Promise.all([deps.props.removeTree(path), deps.locks.removeTree(path)]);
  return noContent(204);
}

export async function mkcol(call: DavCall, deps: DavDeps): Promise<Response> {
  const body = await readSmallBody(call.c, 64 * 1024).catch(() => Buffer.from("x"));
  if (body.length > 0) throw new DavError(415, "MKCOL with a request body is not supported");
  const path = call.path;
  const existing = await statOrNull(deps.vfs, call.actor, path);
  if (existing) {
    throw new DavError(405, "A resource already exists at this URL", undefined, {
      Allow: "GET, HEAD, PROPFIND, PROPPATCH, DELETE, MOVE, COPY, LOCK, UNLOCK, PUT",
    });
  }
  await requireParentCollection(call, deps, path);
  await checkIfHeader(call, deps, [path], new Map([[path, null]]));
  await assertLockTokens(call, deps.locks, path, { parent: true });
  await deps.vfs.mkdir(call.actor, path);
  await deps.props.removeTree(path);
  return noContent(201);
}

interface TransferPlan {
  source: string;
  sourceEntry: FsEntry;
  destination: string;
  destinationEntry: FsEntry | null;
  overwrite: boolean;
}

async function planTransfer(call: DavCall, deps: DavDeps): Promise<TransferPlan> {
  const header = call.c.req.header("destination");
  if (!header) throw new DavError(400, "Destination header is required");
  const target = targetOfUrl(header.trim(), call.c.req.url, call.origin);
  if (!target) throw new DavError(502, "Destination must be a /dav URL on this server");
  const overwrite = parseOverwrite(call.c.req.header("overwrite"));
  const source = call.path;
  const destination = target.path;
  if (source === destination) throw new DavError(403, "Source and destination are the same");
  if (isWithin(destination, source)) throw new DavError(403, "Cannot copy or move a collection into itself");
  if (isWithin(source, destination))
    throw new DavError(403, "Destination would replace an ancestor of the source");
  const sourceEntry = await deps.vfs.stat(call.actor, source);
  const destinationEntry = await statOrNull(deps.vfs, call.actor, destination);
  await requireParentCollection(call, deps, destination);
  checkHttpPreconditions(call, sourceEntry);
  await checkIfHeader(
    call,
    deps,
    [source, destination],
    new Map([
      [source, sourceEntry],
      [destination, destinationEntry],
    ]),
  );
  if (destinationEntry && !overwrite) throw new DavError(412, "Destination exists and Overwrite is F");
  return { source, sourceEntry, destination, destinationEntry, overwrite };
}

/** Overwrite: T replaces whatever is at the destination (RFC 4918 §9.8.4): delete it first. */
async function clearDestination(call: DavCall, deps: DavDeps, plan: TransferPlan): Promise<void> {
  if (!plan.destinationEntry) return;
  await deps.vfs.remove(call.actor, plan.destination);
  await Promise.all([deps.props.removeTree(plan.destination), deps.locks.removeTree(plan.destination)]);
}

export async function copy(call: DavCall, deps: DavDeps): Promise<Response> {
  const depth = parseDepth(call.c.req.header("depth"), "infinity", ["0", "infinity"]);
  const plan = await planTransfer(call, deps);
  await assertLockTokens(call, deps.locks, plan.destination, { deep: true, parent: true });
  await clearDestination(call, deps, plan);
  const shallow = depth === "0" && plan.sourceEntry.isDirectory;
  if (shallow) await deps.vfs.mkdir(call.actor, plan.destination);
  else await deps.vfs.copy(call.actor, plan.source, plan.destination, { overwrite: false });
  await deps.props.copyTree(plan.source, plan.destination, !shallow);
  return noContent(plan.destinationEntry ? 204 : 201);
}

export async function move(call: DavCall, deps: DavDeps): Promise<Response> {
  parseDepth(call.c.req.header("depth"), "infinity", ["infinity"]);
  const plan = await planTransfer(call, deps);
  await assertLockTokens(call, deps.locks, plan.source, { deep: true, parent: true });
  await assertLockTokens(call, deps.locks, plan.destination, { deep: true, parent: true });
  await clearDestination(call, deps, plan);
  try {
    await deps.vfs.rename(call.actor, plan.source, plan.destination, { overwrite: false });
  } catch (e) {
    if (!isAppError(e) || e.error !== "cross_storage") throw e;
    // Between two storages a move is a streamed copy followed by deleting the source.
    await deps.vfs.copy(call.actor, plan.source, plan.destination, { overwrite: false });
    await deps.vfs.remove(call.actor, plan.source);
  }
  await deps.props.moveTree(plan.source, plan.destination);
  await deps.locks.removeTree(plan.source);
  return noContent(plan.destinationEntry ? 204 : 201);
}
