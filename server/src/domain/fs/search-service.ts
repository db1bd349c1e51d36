/**
 * File search: case-insensitive name match over the part of the tree the
 * principal may see — all visible mounts (global), one mount, or one
 * directory — clamped to an API key's base path. Ranked exact match, then
 * prefix match, then newest.
 *
 * Mounts with a complete index are searched in the database, with the
 * caller's limits (root below the base path, visible mounts, nested mounts
 * left out, links hidden from confined keys) written into the query itself
 * (index-repository.ts). Other mounts are walked, as before the index: such
 * answers say `source: "walk"` (or "mixed") and may be `truncated`. Walk
 * results are cached like listings and dropped by any write.
 */

import type { FsSearchResponse, FsSearchResult, SEARCH_SCOPES } from "@clipshare/shared";
import { basePathOf, principalLabel } from "../../auth/principal";
import type { FsIndexRow } from "../../db/schema";
import { badRequest, forbidden } from "../../errors";
import { mimeTypeFor } from "../../storage/mime";
import { canSeeMount, clampToBase, type FsActor, isVisitor, requireOperation } from "./access";
import { ALL_MOUNTS } from "./fs-caches";
import type { IndexScope } from "./index-search-query";
import type { IndexService } from "./index-service";
import type { ActiveMount } from "./mount-table";
import type { VirtualFileSystem } from "./vfs";
import {
  displayPath,
  fromSubPath,
  isWithin,
  normalizeVirtualPath,
  subPathOf,
  vbasename,
  vparent,
} from "./vpath";
import type { WalkItem } from "./walk";

/** A walk stops after looking at this many entries and says the result is truncated. */
const MAX_SCANNED = 100_000;
const MAX_MATCHES = 10_000;
const CACHE_TTL_MS = 300_000;

export interface SearchInput {
  q: string;
  scope: (typeof SEARCH_SCOPES)[number];
  limit: number;
  offset: number;
  mount_id?: string | undefined;
  path?: string | undefined;
  type?: "file" | "directory" | undefined;
  min_size?: number | undefined;
  max_size?: number | undefined;
  modified_after?: string | undefined;
  modified_before?: string | undefined;
}

interface Found {
  results: FsSearchResult[];
  total: number;
  truncated: boolean;
}

export class SearchService {
  constructor(
    private readonly vfs: VirtualFileSystem,
    private readonly index: IndexService,
  ) {}

  async search(actor: FsActor, input: SearchInput): Promise<FsSearchResponse> {
    requireOperation(actor, "view");
    const root = await this.rootFor(actor, input);
    const mounts = await this.mountsWithin(actor, root);
    const searchable = await this.index.searchable();
    const indexed = mounts.filter((m) => searchable.has(m.row.id));
    const walked = mounts.filter((m) => !searchable.has(m.row.id));
    let found: Found;
    let source: FsSearchResponse["source"];
    if (indexed.length === 0) {
      source = "walk";
      found = paged(await this.walkCached(actor, root, input), input);
    } else if (walked.length === 0) {
      source = "index";
      found = await this.fromIndex(actor, root, mounts, indexed, input);
    } else {
      source = "mixed";
      found = await this.mixed(actor, root, mounts, indexed, walked, input);
    }
    return {
      results: found.results,
      total: found.total,
      hasMore: input.offset + input.limit < found.total,
      truncated: found.truncated,
      searchParams: {
        query: input.q,
        scope: input.scope,
        mountId: input.mount_id ?? null,
        path: input.path ?? null,
        limit: input.limit,
        offset: input.offset,
      },
      root: displayPath(root, true),
      mountsSearched: mounts.length,
      source,
    };
  }

  /** The mounts the search looks into: visible ones below the root, or holding it. */
  private async mountsWithin(actor: FsActor, root: string): Promise<ActiveMount[]> {
    const [mounts, sees] = await Promise.all([this.vfs.mounts.active(), this.vfs.mountFilter(actor)]);
    return mounts.filter(
      (m) => sees(m.row.mount_path) && (isWithin(m.row.mount_path, root) || isWithin(root, m.row.mount_path)),
    );
  }

  private async rootFor(actor: FsActor, input: SearchInput): Promise<string> {
    const principal = actor.principal;
    if (isVisitor(principal) && input.scope !== "directory") {
      // A visitor searches from the top of the tree or of a mount; the walk and the index
      // answers keep to what it reaches (entryFilter).
      const mount =
        input.scope === "mount" && input.mount_id ? await this.vfs.mounts.byId(input.mount_id) : null;
      if (input.scope === "mount" && !mount)
        throw forbidden("No permission to access the specified mount", "mount_forbidden");
      const root = mount ? mount.row.mount_path : "/";
      await this.vfs.authorize(actor, "view", root);
      return root;
    }
    if (input.scope === "global") {
      const root = clampToBase(principal, "/");
      if (!root) throw forbidden("No permission to access this path", "path_forbidden");
      return root;
    }
    if (input.scope === "mount") {
      if (!input.mount_id)
        throw badRequest("Please provide mount_id for a mount search", "validation_failed");
      const mount = await this.vfs.mounts.byId(input.mount_id);
      const root =
        mount && canSeeMount(principal, mount.row.mount_path)
          ? clampToBase(principal, mount.row.mount_path)
          : null;
      if (!root) throw forbidden("No permission to access the specified mount", "mount_forbidden");
      return root;
    }
    if (!input.path) throw badRequest("Please provide path for a directory search", "validation_failed");
    const root = normalizeVirtualPath(input.path);
    await this.vfs.authorize(actor, "view", root);
    await this.vfs.stat(actor, root);
    return root;
  }

  /** Only indexed mounts: one query gives the page and the total. */
  private async fromIndex(
    actor: FsActor,
    root: string,
    mounts: ActiveMount[],
    indexed: ActiveMount[],
    input: SearchInput,
  ): Promise<Found> {
    const virtual = await this.shownVirtual(actor, root, mounts, input);
    // Virtual folders are few: the first offset+limit index rows are enough to place them.
    const window = virtual.length === 0 ? input : { ...input, offset: 0, limit: input.offset + input.limit };
    const { rows, total } = await this.queryIndex(actor, root, mounts, indexed, input, window);
    if (virtual.length === 0) return { results: rows, total, truncated: false };
    const merged = sortResults([...virtual, ...rows], input.q.toLowerCase());
    return {
      results: merged.slice(input.offset, input.offset + input.limit),
      total: total + virtual.length,
      truncated: false,
    };
  }

  /** Some mounts indexed, some not: the walked ones are bounded as before, so the merge happens here. */
  private async mixed(
    actor: FsActor,
    root: string,
    mounts: ActiveMount[],
    indexed: ActiveMount[],
    walked: ActiveMount[],
    input: SearchInput,
  ): Promise<Found> {
    const fromIndex = await this.queryIndex(actor, root, mounts, indexed, input, {
      offset: 0,
      limit: MAX_MATCHES,
    });
    const results = [...(await this.shownVirtual(actor, root, mounts, input)), ...fromIndex.rows];
    let truncated = fromIndex.total > MAX_MATCHES;
    for (const mount of walked) {
      const start = isWithin(root, mount.row.mount_path) ? root : mount.row.mount_path;
      // Only this mount's own entries: nested mounts and mount points have their own part of the answer.
      const walk = await this.scan(
        actor,
        start,
        input.q,
        (item) => item.target?.row.id === mount.row.id && item.target.subPath !== "",
      );
      results.push(...walk.results.filter((r) => matchesFilters(r, input)));
      truncated ||= walk.truncated;
    }
    return paged({ results: sortResults(results, input.q.toLowerCase()), truncated }, input);
  }

  /** The folders that exist because of mounts, as far as the actor may see them. */
  private async shownVirtual(
    actor: FsActor,
    root: string,
    mounts: ActiveMount[],
    input: SearchInput,
  ): Promise<FsSearchResult[]> {
    const shows = await this.vfs.entryFilter(actor, root);
    const found = virtualMatches(root, mounts, input);
    return shows ? found.filter((r) => shows(normalizeVirtualPath(r.path))) : found;
  }

  private async queryIndex(
    actor: FsActor,
    root: string,
    mounts: ActiveMount[],
    indexed: ActiveMount[],
    filters: SearchInput,
    window: { offset: number; limit: number },
  ): Promise<{ rows: FsSearchResult[]; total: number }> {
    const scopes = indexed.map((m) => scopeOf(actor, root, m, mounts));
    // Folder rules are not in the query: with any in force, fetch the first MAX_MATCHES and page here.
    const shows = await this.vfs.entryFilter(actor, root);
    const fetched = shows ? { offset: 0, limit: MAX_MATCHES } : window;
    const byId = new Map(indexed.map((m) => [m.row.id, m]));
    const found = await this.index.repo.search({
      q: filters.q,
      scopes,
      type: filters.type === undefined ? undefined : filters.type === "file" ? "file" : "dir",
      minSize: filters.min_size,
      maxSize: filters.max_size,
      modifiedAfter: filters.modified_after,
      modifiedBefore: filters.modified_before,
      offset: fetched.offset,
      limit: fetched.limit,
    });
    let { rows, total } = found;
    if (shows) {
      rows = rows.filter((row) =>
        shows(fromSubPath(byId.get(row.mount_id)!.row.mount_path, row.path), row.is_link === 1),
      );
      total = rows.length;
      rows = rows.slice(window.offset, window.offset + window.limit);
    }
    return { rows: rows.map((row) => this.presentRow(row, byId.get(row.mount_id)!)), total };
  }

  private presentRow(row: FsIndexRow, mount: ActiveMount): FsSearchResult {
    const isDirectory = row.type === "dir";
    const contentType = isDirectory ? null : mimeTypeFor(row.name);
    return {
      name: row.name,
      path: displayPath(fromSubPath(mount.row.mount_path, row.path), isDirectory),
      type: isDirectory ? "directory" : "file",
      isDirectory,
      size: isDirectory ? 0 : Number(row.size),
      modified: row.mtime,
      contentType,
      mimetype: contentType,
      mount_id: mount.row.id,
      mount_name: mount.row.name,
      storage_type: mount.row.storage_type,
      s3_key: this.vfs.mounts.driverFor(mount).storagePath(row.path),
    };
  }

  /** Today's walk of the whole root, cached for five minutes (any write drops it), filters applied after. */
  private async walkCached(actor: FsActor, root: string, input: SearchInput) {
    const key = JSON.stringify([principalKey(actor), root, input.q.toLowerCase()]);
    const ttlMs = await this.cacheTtl();
    const useCache = ttlMs > 0 && this.vfs.caches.usable;
    let found = useCache
      ? (this.vfs.caches.search.get(ALL_MOUNTS, "", key) as
          | { results: FsSearchResult[]; truncated: boolean }
          | undefined)
      : undefined;
    if (!found) {
      found = await this.scan(actor, root, input.q, () => true);
      if (useCache) this.vfs.caches.search.set(ALL_MOUNTS, "", key, found, ttlMs, found.results.length + 1);
    }
    return { results: found.results.filter((r) => matchesFilters(r, input)), truncated: found.truncated };
  }

  /** Walks storage below `root`, keeping the matches `keep` accepts. */
  private async scan(actor: FsActor, root: string, q: string, keep: (item: WalkItem) => boolean) {
    const needle = q.toLowerCase();
    const results: FsSearchResult[] = [];
    let scanned = 0;
    let truncated = false;
    for await (const item of this.vfs.walk(actor, root)) {
      if (++scanned > MAX_SCANNED || results.length >= MAX_MATCHES) {
        truncated = true;
        break;
      }
      const name = vbasename(item.path);
      if (!name.toLowerCase().includes(needle)) continue;
      if (!keep(item)) continue;
      const target = item.target;
      results.push({
        name,
        path: displayPath(item.path, item.isDirectory),
        type: item.isDirectory ? "directory" : "file",
        isDirectory: item.isDirectory,
        size: item.isDirectory ? 0 : item.size,
        modified: item.modified ? item.modified.toISOString() : null,
        contentType: item.isDirectory ? null : item.contentType,
        mimetype: item.isDirectory ? null : item.contentType,
        mount_id: target?.row.id ?? null,
        mount_name: target?.row.name ?? null,
        storage_type: target?.row.storage_type ?? null,
        s3_key: target?.storagePath ?? null,
      });
    }
    return { results: sortResults(results, needle), truncated };
  }

  /** Search results live 5 minutes, or not at all while any mount has caching off. */
  private async cacheTtl(): Promise<number> {
    const mounts = await this.vfs.mounts.active();
    return mounts.some((m) => m.row.cache_ttl === 0) ? 0 : CACHE_TTL_MS;
  }
}

/**
 * What of mount `m` a search at `root` may see: the subtree under the root
 * (already clamped to the key's base path), without nested mounts (their own
 * scopes, if visible, cover them), and no links for a key confined inside it.
 */
function scopeOf(actor: FsActor, root: string, mount: ActiveMount, mounts: ActiveMount[]): IndexScope {
  const mountPath = mount.row.mount_path;
  const principal = actor.principal;
  const base = basePathOf(principal) ?? "/";
  return {
    mountId: mount.row.id,
    prefix: isWithin(root, mountPath) ? subPathOf(root, mountPath) : "",
    exclude: mounts
      .filter((n) => n !== mount && n.row.mount_path !== mountPath && isWithin(n.row.mount_path, mountPath))
      .map((n) => subPathOf(n.row.mount_path, mountPath)),
    hideLinks: principal.kind !== "admin" && base !== mountPath && isWithin(base, mountPath),
  };
}

/**
 * Folders that exist because of mounts (mount points and the virtual folders
 * above them) below the root whose names match: no storage holds them, so no
 * index row does.
 */
function virtualMatches(root: string, mounts: ActiveMount[], input: SearchInput): FsSearchResult[] {
  const needle = input.q.toLowerCase();
  const paths = new Map<string, ActiveMount | null>();
  for (const mount of mounts) {
    for (let p = mount.row.mount_path; p !== root && p !== "/" && isWithin(p, root); p = vparent(p)) {
      const holder = mounts.find((m) => m.row.mount_path !== p && isWithin(p, m.row.mount_path));
      if (holder) continue; // a folder of another mount's storage: that mount's search finds it
      paths.set(p, paths.get(p) ?? (p === mount.row.mount_path ? mount : null));
    }
  }
  const results: FsSearchResult[] = [];
  for (const [path, mount] of paths) {
    const name = vbasename(path);
    if (!name.toLowerCase().includes(needle)) continue;
    const result: FsSearchResult = {
      name,
      path: displayPath(path, true),
      type: "directory",
      isDirectory: true,
      size: 0,
      modified: null,
      contentType: null,
      mimetype: null,
      mount_id: mount?.row.id ?? null,
      mount_name: mount?.row.name ?? null,
      storage_type: mount?.row.storage_type ?? null,
      s3_key: mount ? "" : null,
    };
    if (matchesFilters(result, input)) results.push(result);
  }
  return results;
}

function matchesFilters(r: FsSearchResult, f: SearchInput): boolean {
  if (f.type && r.type !== f.type) return false;
  if (f.min_size !== undefined && r.size < f.min_size) return false;
  if (f.max_size !== undefined && r.size > f.max_size) return false;
  if (f.modified_after !== undefined && (r.modified === null || r.modified < f.modified_after)) return false;
  if (f.modified_before !== undefined && (r.modified === null || r.modified >= f.modified_before))
    return false;
  return true;
}

/** Exact name first, then prefix, then newest, then path. */
function sortResults(results: FsSearchResult[], needle: string): FsSearchResult[] {
  const rank = (r: FsSearchResult) => {
    const lower = r.name.toLowerCase();
    return lower === needle ? 0 : lower.startsWith(needle) ? 1 : 2;
  };
  return results.sort(
    (a, b) =>
      rank(a) - rank(b) ||
      (b.modified ?? "").localeCompare(a.modified ?? "") ||
      (a.path < b.path ? -1 : a.path > b.path ? 1 : 0),
  );
}

function paged(found: { results: FsSearchResult[]; truncated: boolean }, input: SearchInput): Found {
  return {
    results: found.results.slice(input.offset, input.offset + input.limit),
    total: found.results.length,
    truncated: found.truncated,
  };
}

function principalKey(actor: FsActor): string {
  const who = principalLabel(actor.principal);
  // Folder passes change what a walk may enter.
  return `${who}:${actor.folderTokens === "queued" ? "queued" : actor.folderTokens.join(",")}`;
}
