/**
 * ZIP downloads of files and folders (basket, "download folder"): every
 * requested path is checked (view permission, base path, existence) before
 * the first byte is sent; folders are walked lazily while the archive streams,
 * so neither the tree nor any file is held in memory.
 */
import { Readable } from "node:stream";
import type { FsEntry, FsZipLink } from "@clipshare/shared";
import { creatorIdOf } from "../../auth/creator";
import { ANONYMOUS } from "../../auth/principal";
import type { Db } from "../../db/database";
import { AppError, isAppError } from "../../errors";
import { type ZipEntry, zipStream } from "../../lib/zip/zip-writer";
import { resolveCreator } from "../tasks/creator";
import { apiActor, type FsActor, isVisitor, requireOperation } from "./access";
import type { LinkSigner } from "./link-signer";
import type { VirtualFileSystem } from "./vfs";
import { normalizeVirtualPath, vbasename } from "./vpath";

/** Lifetime of a signed GET link to a ZIP. */
const ZIP_LINK_SECONDS = 600;
/** The `by` of a link a visitor without credentials signed (public browsing). */
const VISITOR_LINK_OWNER = "visitor";

/** A download name: no separators or control characters, ends in .zip. */
export function zipFileName(name: string | undefined, paths: string[]): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  const clean = (name ?? "").replace(/[\\/\u0000-\u001f\u007f"]/g, "_").trim();
  const base = clean || (paths.length === 1 ? vbasename(paths[0]!) : "") || "download";
  return base.toLowerCase().endsWith(".zip") ? base : `${base}.zip`;
}

/** Names for the top of an archive: a name taken (case aside) gets "(1)", "(2)"… appended. */
export function uniqueNames(): (wanted: string) => string {
  const used = new Set<string>();
  return (wanted) => {
    let candidate = wanted;
    for (let n = 1; used.has(candidate.toLowerCase()); n++) candidate = `${wanted}(${n})`;
    used.add(candidate.toLowerCase());
    return candidate;
  };
}

/**
 * The archive entries of one authorized file or folder, named `top` and below it: a folder
 * is walked lazily as the archive streams (the actor's view of it: hidden entries, locked
 * folders and, on a confined driver, links leading out stay out).
 */
export async function* treeEntries(
  vfs: VirtualFileSystem,
  actor: FsActor,
  root: { path: string; entry: FsEntry },
  top: string,
): AsyncGenerator<ZipEntry> {
  if (!root.entry.isDirectory) {
    const { target, entry } = await vfs.openFile(actor, root.path);
    yield {
      name: top,
      isDirectory: false,
      size: entry.size,
      modified: entry.modified,
      open: () => openOrSkip(() => target.driver.read(target.subPath)),
    };
    return;
  }
  yield {
    name: top,
    isDirectory: true,
    modified: root.entry.modified ? new Date(root.entry.modified) : null,
  };
  const prefix = root.path === "/" ? 1 : root.path.length + 1;
  for await (const item of vfs.walk(actor, root.path)) {
    const name = `${top}/${item.path.slice(prefix)}`;
    const source = item.target;
    if (item.isDirectory || !source) {
      yield { name, isDirectory: true, modified: item.modified };
      continue;
    }
    yield {
      name,
      isDirectory: false,
      size: item.size,
      modified: item.modified,
      open: () => openOrSkip(() => source.driver.read(source.subPath)),
    };
  }
}

export class ZipService {
  constructor(
    private readonly vfs: VirtualFileSystem,
    private readonly signer: LinkSigner,
    private readonly db: Db,
  ) {}

  /** Checks everything, then returns the archive as a stream that reads storage only as it is consumed. */
  async prepare(
    actor: FsActor,
    inputs: string[],
    name?: string,
  ): Promise<{ filename: string; stream: Readable }> {
    requireOperation(actor, "view");
    const paths = [...new Set(inputs.map(normalizeVirtualPath))];
    for (const path of paths) await this.vfs.authorize(actor, "view", path);
    const roots: Array<{ path: string; entry: FsEntry }> = [];
    for (const path of paths) roots.push({ path, entry: await this.vfs.stat(actor, path) });
    const filename = zipFileName(name, paths);
    const vfs = this.vfs;
    const unique = uniqueNames();
    async function* entries(): AsyncGenerator<ZipEntry> {
      for (const root of roots) yield* treeEntries(vfs, actor, root, unique(vbasename(root.path) || "files"));
    }
    return { filename, stream: Readable.from(zipStream(entries())) };
  }

  /**
   * A GET URL that downloads the ZIP without an Authorization header, for ten
   * minutes. It names the password-protected folders below its paths that the
   * caller has opened (`opened`, signed with the rest), so the archive holds
   * them as a ZIP the caller asked for with its passes would; the passes
   * themselves stay out of the URL.
   */
  async link(actor: FsActor, inputs: string[], name: string | undefined): Promise<FsZipLink> {
    requireOperation(actor, "view");
    const paths = [...new Set(inputs.map(normalizeVirtualPath))];
    for (const path of paths) await this.vfs.authorize(actor, "view", path);
    const by = isVisitor(actor.principal) ? VISITOR_LINK_OWNER : creatorIdOf(actor.principal);
    const opened = await this.vfs.openedFoldersBelow(actor, paths);
    const expires = Math.floor(Date.now() / 1000) + ZIP_LINK_SECONDS;
    const filename = zipFileName(name, paths);
    const query = new URLSearchParams();
    for (const p of paths) query.append("paths", p);
    for (const p of opened) query.append("opened", p);
    query.set("name", filename);
    query.set("by", by);
    query.set("expires", String(expires));
    query.set("sign", this.signer.zipSign(by, expires, paths, filename, opened));
    return {
      url: `/api/fs/zip?${query.toString()}`,
      expiresAt: new Date(expires * 1000).toISOString(),
      filename,
    };
  }

  /**
   * Whom a signed ZIP link acts for: its owner's permissions (or a visitor's
   * reach) are checked again when the archive is built; folder passes were
   * checked when it was signed, and the folders it names as opened stay open.
   */
  async actorForLink(query: {
    paths: string[];
    opened: string[];
    name: string;
    by: string;
    expires: string;
    sign: string;
  }): Promise<FsActor> {
    const expires = Number(query.expires);
    const paths = [...new Set(query.paths.map(normalizeVirtualPath))];
    const check = Number.isInteger(expires)
      ? this.signer.verifyZip(query.by, expires, paths, query.name, query.sign, query.opened)
      : "malformed_signature";
    if (check !== "ok") throw new AppError(401, check, `Signature verification failed: ${check}`);
    const principal = query.by === VISITOR_LINK_OWNER ? ANONYMOUS : await resolveCreator(this.db, query.by);
    if (!principal)
      throw new AppError(401, "unauthorized", "The link's owner no longer exists or has expired");
    return { ...apiActor(principal, "queued"), openedFolders: query.opened };
  }
}

/** A file body for the archive; null (left out) when it was deleted while the archive was being written. */
export async function openOrSkip(open: () => Promise<{ body: Readable }>): Promise<Readable | null> {
  try {
    return (await open()).body;
  } catch (e) {
    if (isAppError(e) && e.status === 404) return null; // deleted while the archive was being written
    throw e;
  }
}
