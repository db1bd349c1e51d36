/**
 * The virtual file system: one tree made of the active mounts, each backed by
 * a storage driver. Every operation normalizes its paths once, checks the
 * actor's permission bit and base path for every path it touches, resolves the
 * longest mount, calls the driver and invalidates the caches it made stale.
 * The JSON API and WebDAV both call these methods, so the rules live here once.
 */
import * as nodePath from "node:path";
import type { Readable } from "node:stream";
import { FS_LIST_MAX_LIMIT, type FsEntry, type FsListing } from "@clipshare/shared";
import { authenticationRequired } from "../../auth/policy";
import { grantOf, type Principal } from "../../auth/principal";
import type { FolderSettingsRow } from "../../db/schema";
import { isAppError } from "../../errors";
import type { ListPage, StorageEntry, WriteResult } from "../../storage/types";
import { canSeeMount, checkBitsAndBase, type FsActor, type FsOperation, isVisitor } from "./access";
import type { FolderPasses } from "./folder-passes";
import type { FolderRules } from "./folder-rules";
import type { FsCaches } from "./fs-caches";
import {
  directoriesFirst,
  FS_ERRORS,
  fsError,
  presentEntry,
  presentMountChild,
  virtualDirectory,
} from "./fs-entry";
import type { FolderTotals } from "./index-folder-totals";
import type { MountChild, MountTable, ResolvedPath } from "./mount-table";
import { streamCopyFile, streamCopyTree } from "./transfer";
import { displayPath, fromSubPath, isWithin, normalizeVirtualPath, subParent, vbasename } from "./vpath";
import { type WalkItem, walkTree } from "./walk";

export interface ListOptions {
  limit?: number;
  cursor?: string | null;
  /** Skip the cache (and refill it). */
  refresh?: boolean;
  /** Add folder sizes and counts from the search index, where the mount has a complete one. */
  sizes?: boolean;
}

/** What keeps the search index current; every write below reports to it (index-service.ts). */
export interface IndexHooks {
  changed(target: ResolvedPath, tree: boolean): Promise<void>;
  moved(source: ResolvedPath, target: ResolvedPath): Promise<void>;
  childTotals(target: ResolvedPath): Promise<Map<string, FolderTotals> | null>;
  totals(target: ResolvedPath): Promise<FolderTotals | null>;
}

export class VirtualFileSystem {
  private index: IndexHooks | null = null;

  constructor(
    readonly mounts: MountTable,
    readonly caches: FsCaches,
    private readonly passes: FolderPasses,
  ) {}

  /** Connects the search index (built after the VFS, which it reads through). */
  attachIndex(index: IndexHooks): void {
    this.index = index;
  }

  // ---- the one check ------------------------------------------------------

  /**
   * Every path an operation touches passes here, whoever reads (the JSON API,
   * WebDAV, ZIP, search, tasks): the actor's reach (checkReach), then the
   * folder rules (folder-rules.ts), which admins are above. A hidden path, or
   * one reached through a link where hide globs apply (for a visitor: through
   * any link), is "not found"; a path under a folder password needs a pass
   * for that folder unless the actor holds the folder's rights (a user or API
   * key whose base path lies inside it). A copy or move source that is a folder
   * where hide globs apply is refused whole: its hidden entries would go along.
   */
  async authorize(actor: FsActor, op: FsOperation, ...paths: string[]): Promise<void> {
    await this.checkReach(actor, op, ...paths);
    const rules = await this.rulesFor(actor);
    if (!rules) return;
    for (const path of paths) {
      if (!(await this.visiblePath(actor.principal, rules, path)))
        throw FS_ERRORS.notFound(displayPath(path, false));
      this.requirePass(actor, rules, path);
    }
    const source = paths[0];
    if ((op === "copy" || op === "rename") && paths.length > 1 && source && rules.hidesWithin(source)) {
      const target = await this.mounts.resolve(source, actor.principal);
      const entry = target ? await this.statIn(target) : null;
      if (!target || entry?.isDirectory) throw FS_ERRORS.hiddenInside(displayPath(source, true));
    }
  }

  /**
   * Where the actor may act at all, before the folder rules: the permission
   * bit and base path of a key (the admin everywhere); a visitor only views,
   * and only the public part and the folders on the way to it. Elsewhere a
   * visitor gets the 401 it got before public browsing, so a client knows to
   * sign in.
   */
  async checkReach(actor: FsActor, op: FsOperation, ...paths: string[]): Promise<void> {
    const principal = actor.principal;
    if (!isVisitor(principal)) return checkBitsAndBase(actor, op, ...paths);
    if (op !== "view") throw authenticationRequired(principal);
    const rules = await this.mounts.folderRules();
    for (const path of paths) if (!rules.visitorReaches(path)) throw authenticationRequired(principal);
  }

  /** The folder rules, or null when they change nothing for this actor (admins; keys where no folder has settings). */
  async rulesFor(actor: FsActor): Promise<FolderRules | null> {
    if (actor.principal.kind === "admin") return null;
    const rules = await this.mounts.folderRules();
    return rules.empty && !isVisitor(actor.principal) ? null : rules;
  }

  private requirePass(actor: FsActor, rules: FolderRules, path: string): void {
    const lock = rules.lockFor(path);
    // A task's paths passed this check when it was queued.
    if (!lock || actor.folderTokens === "queued") return;
    if (!this.opens(actor, lock)) throw FS_ERRORS.locked(displayPath(lock.path, true));
  }

  /** The actor may read below a password-protected folder: it holds the folder's rights or a pass to it. */
  private opens(actor: FsActor, lock: FolderSettingsRow): boolean {
    const principal = actor.principal;
    const grant = grantOf(principal);
    if (grant === "all") return true;
    if (grant && isWithin(normalizeVirtualPath(grant.basePath), lock.path)) return true;
    if (actor.folderTokens === "queued") return actor.openedFolders?.includes(lock.path) ?? false;
    return this.passes.admits(lock, principal, actor.folderTokens);
  }

  /**
   * The password-protected folders strictly below `roots` that are open to the
   * actor now: what work done later in its name (a signed ZIP link) may enter.
   */
  async openedFoldersBelow(actor: FsActor, roots: readonly string[]): Promise<string[]> {
    const rules = await this.rulesFor(actor);
    if (!rules) return [];
    return rules
      .lockedFolders()
      .filter((lock) => roots.some((root) => lock.path !== root && isWithin(lock.path, root)))
      .filter((lock) => this.opens(actor, lock))
      .map((lock) => lock.path);
  }

  /**
   * Which entries below an authorized `root` the actor may see (listings,
   * walks, search): not hidden, and not inside a password-protected folder
   * it has not opened (the folder itself shows); for a visitor, only what it
   * reaches (checkReach) and no links. Null: everything.
   */
  async entryFilter(
    actor: FsActor,
    root: string,
  ): Promise<((path: string, isLink?: boolean) => boolean) | null> {
    const rules = await this.rulesFor(actor);
    if (!rules) return null;
    const visitor = isVisitor(actor.principal);
    return (path, isLink) => {
      if (visitor && (isLink || !rules.visitorReaches(path))) return false;
      if (!rules.shows(path, isLink)) return false;
      const lock = rules.lockFor(path);
      return !lock || lock.path === path || isWithin(root, lock.path) || this.opens(actor, lock);
    };
  }

  /**
   * Not hidden, and where hide globs apply (for a visitor: everywhere),
   * reached through no symbolic link: a link's own name says nothing about
   * where it leads. `principal` null: a holder of a signed URL.
   */
  async visiblePath(principal: Principal | null, rules: FolderRules, path: string): Promise<boolean> {
    if (!rules.shows(path)) return false;
    if (!rules.hidesAt(path) && !(principal && isVisitor(principal))) return true;
    const target = await this.mounts.resolve(path, principal);
    if (!target || target.subPath === "" || !target.driver.localPath) return true;
    // Where the path really leads against where its names say (only LOCAL storage has links).
    try {
      // The mount's own root, not the key's confined view of it (whose root is out of bounds).
      const [real, base] = await Promise.all([
        target.driver.localPath(target.subPath),
        this.mounts.driverFor(target).localPath!(""),
      ]);
      return real === nodePath.join(base, ...target.subPath.split("/"));
    } catch {
      return false; // the storage refuses to resolve it (a dangling or escaping link): not shown
    }
  }

  /** Where public parts start, as a visitor sees them (hidden ones left out), in path order. */
  async publicRoots(): Promise<string[]> {
    const rules = await this.mounts.folderRules();
    return rules.publicRoots.filter((root) => rules.shows(root));
  }

  /** Mounts the actor may see in listings and searches: a key's related ones, for a visitor those it reaches. */
  async mountFilter(actor: FsActor): Promise<(mountPath: string) => boolean> {
    const principal = actor.principal;
    if (!isVisitor(principal)) return (mountPath) => canSeeMount(principal, mountPath);
    const rules = await this.mounts.folderRules();
    return (mountPath) => rules.visitorReaches(mountPath);
  }

  // ---- reading ------------------------------------------------------------

  async stat(actor: FsActor, input: string): Promise<FsEntry> {
    return (await this.statDetailed(actor, input)).entry;
  }

  async list(actor: FsActor, input: string, options: ListOptions = {}): Promise<FsListing> {
    const path = normalizeVirtualPath(input);
    await this.authorize(actor, "view", path);
    const target = await this.mounts.resolve(path, actor.principal);
    if (!target) return this.listVirtual(actor, path);
    const { page, cached } = await this.readPage(target, options);
    const shows = await this.entryFilter(actor, path);
    const shown = shows
      ? page.entries.filter((e) => shows(fromSubPath(target.row.mount_path, e.path), e.isLink))
      : page.entries;
    let items = shown.map((e) => presentEntry(target, e));
    if (!options.cursor) items = await this.withNestedMounts(actor, path, items);
    if (!options.cursor && page.nextCursor === null) items.sort(directoriesFirst);
    if (options.sizes) items = await this.withFolderTotals(target, items);
    return {
      path: displayPath(path, true),
      name: path === "/" ? "" : vbasename(path),
      type: "directory",
      isRoot: path === "/",
      isVirtual: false,
      mount_id: target.row.id,
      storage_type: target.row.storage_type,
      items,
      nextCursor: page.nextCursor,
      hasMore: page.nextCursor !== null,
      cached,
    };
  }

  /** A file to stream (download, proxy, WebDAV GET): checks done, metadata known. */
  async openFile(actor: FsActor, input: string): Promise<{ target: ResolvedPath; entry: StorageEntry }> {
    const path = normalizeVirtualPath(input);
    await this.authorize(actor, "view", path);
    const target = await this.mounts.resolve(path, actor.principal);
    if (!target)
      throw (await this.hasMountsBelow(path)) ? FS_ERRORS.isDirectory(path) : FS_ERRORS.fileNotFound();
    const entry = await this.statIn(target);
    if (!entry) throw FS_ERRORS.fileNotFound();
    if (entry.isDirectory) throw FS_ERRORS.isDirectory(displayPath(path, true));
    return { target, entry };
  }

  /**
   * Everything below `root` (not `root` itself), directories before their
   * contents, crossing into nested mounts. Callers have authorized `root`;
   * everything below it is within the same base path.
   */
  walk(actor: FsActor, root: string): AsyncGenerator<WalkItem> {
    return walkTree(this, actor, root);
  }

  // ---- writing ------------------------------------------------------------

  /** Resolves a path that must lie inside a mount, for operations that change storage, opened for `actor`. */
  async requireMount(path: string, actor: FsActor): Promise<ResolvedPath> {
    if (path === "/") throw FS_ERRORS.root();
    const target = await this.mounts.resolve(path, actor.principal);
    if (target) return target;
    throw (await this.hasMountsBelow(path)) ? FS_ERRORS.virtual(path) : FS_ERRORS.mountMissing();
  }

  async write(
    actor: FsActor,
    input: string,
    body: Readable,
    options: { size?: number; contentType?: string; signal?: AbortSignal } = {},
  ): Promise<FsEntry> {
    const path = normalizeVirtualPath(input);
    await this.authorize(actor, "upload", path);
    const target = await this.requireMount(path, actor);
    if (target.subPath === "") throw FS_ERRORS.isDirectory(displayPath(path, true));
    let written: WriteResult;
    try {
      written = await target.driver.write(target.subPath, body, options);
    } catch (e) {
      throw fsError(e, target);
    }
    await this.invalidate(target, false);
    const entry: StorageEntry = {
      path: target.subPath,
      name: vbasename(path),
      isDirectory: false,
      size: written.size,
      modified: new Date(),
      etag: written.etag,
      contentType: options.contentType ?? null,
    };
    return presentEntry(target, entry);
  }

  /** Creates a directory. Without `parents` the parent must exist; an existing directory is 409 either way. */
  async mkdir(actor: FsActor, input: string, options: { parents?: boolean } = {}): Promise<FsEntry> {
    const path = normalizeVirtualPath(input);
    await this.authorize(actor, "upload", path);
    const target = await this.requireMount(path, actor);
    const existing = await this.statIn(target);
    if (existing?.isDirectory) throw FS_ERRORS.dirExists(displayPath(path, true));
    if (existing) throw FS_ERRORS.targetExists(path);
    if (!options.parents) {
      const parent = subParent(target.subPath);
      const parentEntry = parent === "" ? null : await this.statIn({ ...target, subPath: parent });
      if (parent !== "" && !parentEntry?.isDirectory) throw FS_ERRORS.parentMissing(displayPath(path, true));
    }
    try {
      await target.driver.mkdir(target.subPath);
    } catch (e) {
      throw fsError(e, target);
    }
    await this.invalidate(target, false);
    return presentEntry(target, { ...emptyDir(target.subPath), modified: new Date() });
  }

  /** Removes a file, or a directory with everything in it. */
  async remove(actor: FsActor, input: string): Promise<void> {
    const path = normalizeVirtualPath(input);
    await this.authorize(actor, "delete", path);
    const target = await this.requireMount(path, actor);
    if (target.subPath === "") throw FS_ERRORS.mountRoot(path);
    try {
      await target.driver.remove(target.subPath, { recursive: true });
    } catch (e) {
      throw fsError(e, target);
    } finally {
      await this.invalidate(target, true);
    }
  }

  /** Rename or move inside one storage; both paths are checked. */
  async rename(actor: FsActor, fromInput: string, toInput: string, options: { overwrite?: boolean } = {}) {
    const from = normalizeVirtualPath(fromInput);
    const to = normalizeVirtualPath(toInput);
    await this.authorize(actor, "rename", from, to);
    const source = await this.requireMount(from, actor);
    if (source.subPath === "") throw FS_ERRORS.mountRoot(from);
    const target = await this.requireMount(to, actor);
    if (target.subPath === "") throw FS_ERRORS.mountRoot(to);
    if (source.config.id !== target.config.id) throw FS_ERRORS.crossStorage();
    try {
      await source.driver.rename(source.subPath, target.subPath, { overwrite: options.overwrite ?? false });
    } catch (e) {
      throw fsError(e, isAppError(e) && e.error === "target_exists" ? target : source);
    }
    await this.index?.moved(source, target);
    await Promise.all([
      this.caches.invalidate(source.row.id, source.subPath, true),
      this.caches.invalidate(target.row.id, target.subPath, true),
    ]);
  }

  /**
   * Copies one file or directory, synchronously: server-side within one
   * storage, streamed between storages. Batch copies and big trees go through
   * the copy service, which uses tasks.
   */
  async copy(actor: FsActor, fromInput: string, toInput: string, options: { overwrite?: boolean } = {}) {
    const from = normalizeVirtualPath(fromInput);
    const to = normalizeVirtualPath(toInput);
    await this.authorize(actor, "copy", from, to);
    const [source, target] = await Promise.all([
      this.mounts.resolve(from, actor.principal),
      this.requireMount(to, actor),
    ]);
    if (!source) throw FS_ERRORS.notFound(from);
    if (target.subPath === "") throw FS_ERRORS.mountRoot(to);
    await this.copyResolved(source, target, { overwrite: options.overwrite ?? false });
  }

  /** The copy itself, for callers that already checked both ends. */
  async copyResolved(
    source: ResolvedPath,
    target: ResolvedPath,
    options: { overwrite: boolean; signal?: AbortSignal; onBytes?: (n: number) => void },
  ): Promise<void> {
    try {
      if (source.config.id === target.config.id) {
        await source.driver.copy(source.subPath, target.subPath, { overwrite: options.overwrite });
      } else {
        const entry = await this.statIn(source);
        if (!entry) throw FS_ERRORS.notFound(source.path);
        const existing = await this.statIn(target);
        if (existing && (!options.overwrite || existing.isDirectory || entry.isDirectory)) {
          throw FS_ERRORS.targetExists(target.path);
        }
        const from = { driver: source.driver, path: source.subPath };
        const to = { driver: target.driver, path: target.subPath };
        if (entry.isDirectory) await streamCopyTree(from, to, options);
        else await streamCopyFile(from, to, options);
      }
    } catch (e) {
      throw fsError(e, isAppError(e) && e.error === "target_exists" ? target : source);
    } finally {
      await this.invalidate(target, true);
    }
  }

  /**
   * After every write at `target` (tree: below it too): drops cached listings, URLs and searches
   * it made stale, on every instance, and brings the search index up to date in this request.
   */
  async invalidate(target: ResolvedPath, tree: boolean): Promise<void> {
    await this.caches.invalidate(target.row.id, target.subPath, tree);
    await this.index?.changed(target, tree);
  }

  /** stat() with what lies behind the entry: the resolved target and the driver's entry (null for virtual directories). */
  async statDetailed(
    actor: FsActor,
    input: string,
  ): Promise<{ entry: FsEntry; target: ResolvedPath | null; raw: StorageEntry | null }> {
    const path = normalizeVirtualPath(input);
    await this.authorize(actor, "view", path);
    const target = await this.mounts.resolve(path, actor.principal);
    if (!target) return { entry: await this.virtualEntry(actor, path), target: null, raw: null };
    const raw = await this.statIn(target);
    if (!raw) throw FS_ERRORS.notFound(displayPath(path, false));
    return { entry: presentEntry(target, raw), target, raw };
  }

  // ---- internals ----------------------------------------------------------

  async statIn(target: ResolvedPath): Promise<StorageEntry | null> {
    try {
      return target.subPath === "" ? emptyDir("") : await target.driver.stat(target.subPath);
    } catch (e) {
      throw fsError(e, target);
    }
  }

  private async readPage(
    target: ResolvedPath,
    options: ListOptions,
  ): Promise<{ page: ListPage; cached: boolean }> {
    const limit = Math.min(options.limit ?? FS_LIST_MAX_LIMIT, FS_LIST_MAX_LIMIT);
    const ttlMs = target.row.cache_ttl * 1000;
    // A confined driver hides links an unconfined one shows: pages differ per boundary.
    const key = `${target.boundary ?? ""}:${limit}:${options.cursor ?? ""}`;
    const useCache = ttlMs > 0 && this.caches.usable;
    if (useCache && !options.refresh) {
      const hit = this.caches.directory.get(target.row.id, target.subPath, key) as ListPage | undefined;
      if (hit) return { page: hit, cached: true };
    }
    let page: ListPage;
    try {
      page = await target.driver.list(target.subPath, { limit, cursor: options.cursor ?? null });
    } catch (e) {
      throw fsError(e, target);
    }
    if (useCache)
      this.caches.directory.set(target.row.id, target.subPath, key, page, ttlMs, page.entries.length + 1);
    return { page, cached: false };
  }

  /** A folder's own totals (details of one folder), where its mount has a complete index. */
  async folderTotals(actor: FsActor, input: string): Promise<FolderTotals | null> {
    const path = normalizeVirtualPath(input);
    await this.authorize(actor, "view", path);
    const target = await this.mounts.resolve(path, actor.principal);
    return target && this.index ? this.index.totals(target) : null;
  }

  private async withFolderTotals(target: ResolvedPath, items: FsEntry[]): Promise<FsEntry[]> {
    const totals = await this.index?.childTotals(target);
    if (!totals) return items;
    return items.map((item) => {
      if (!item.isDirectory || item.isMount || item.mount_id !== target.row.id) return item;
      const t = totals.get(item.name) ?? { size: 0, files: 0, folders: 0 };
      return { ...item, folderSize: t.size, folderFiles: t.files, folderFolders: t.folders };
    });
  }

  /** Mounts nested inside a mounted directory appear in its listing (first page) as directories. */
  private async withNestedMounts(actor: FsActor, path: string, items: FsEntry[]): Promise<FsEntry[]> {
    const children = await this.visibleMountChildren(actor, path);
    if (children.length === 0) return items;
    const names = new Set(children.map((c) => c.name));
    return [...items.filter((i) => !names.has(i.name)), ...children.map(presentMountChild)];
  }

  private async listVirtual(actor: FsActor, path: string): Promise<FsListing> {
    const children = await this.visibleMountChildren(actor, path);
    if (children.length === 0 && path !== "/") throw FS_ERRORS.mountMissing();
    const order = (c: (typeof children)[number]) => c.mount?.row.sort_order ?? 0;
    children.sort((a, b) => order(a) - order(b) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return {
      path: displayPath(path, true),
      name: path === "/" ? "" : vbasename(path),
      type: "directory",
      isRoot: path === "/",
      isVirtual: true,
      mount_id: null,
      storage_type: null,
      items: children.map(presentMountChild),
      nextCursor: null,
      hasMore: false,
      cached: false,
    };
  }

  private async virtualEntry(actor: FsActor, path: string): Promise<FsEntry> {
    if (path !== "/") {
      const children = await this.visibleMountChildren(actor, path);
      if (children.length === 0) throw FS_ERRORS.mountMissing();
    }
    return virtualDirectory(path, null);
  }

  /** Children of `dir` that exist because of mounts the actor may see, less those entryFilter() keeps from it. */
  async visibleMountChildren(actor: FsActor, dir: string): Promise<MountChild[]> {
    const sees = await this.mountFilter(actor);
    const children = await this.mounts.childrenOf(dir, (m) => sees(m.row.mount_path));
    const shows = await this.entryFilter(actor, dir);
    return shows ? children.filter((c) => shows(c.path)) : children;
  }

  private async hasMountsBelow(path: string): Promise<boolean> {
    return (await this.mounts.childrenOf(path, () => true)).length > 0;
  }
}

function emptyDir(path: string): StorageEntry {
  return {
    path,
    name: vbasename(path),
    isDirectory: true,
    size: 0,
    modified: null,
    etag: null,
    contentType: null,
  };
}
