/**
 * File search: case-insensitive name match over the part of
 * the tree the principal may see — all visible mounts (global), one mount, or
 * one directory — clamped to an API key's base path. Ranked exact match, then
 * prefix match, then newest. Results are cached like listings and dropped by
 * any write.
 */
import type { FsSearchResponse, FsSearchResult, SEARCH_SCOPES } from "@clipshare/shared";
import { badRequest, forbidden } from "../../errors";
import { authorize, canSeeMount, clampToBase, type FsActor, requireOperation } from "./access";
import { ALL_MOUNTS } from "./fs-caches";
import type { VirtualFileSystem } from "./vfs";
import { displayPath, isWithin, normalizeVirtualPath, vbasename } from "./vpath";

/** A search stops after looking at this many entries and says the result is truncated. */
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
}

export class SearchService {
  constructor(private readonly vfs: VirtualFileSystem) {}

  async search(actor: FsActor, input: SearchInput): Promise<FsSearchResponse> {
    requireOperation(actor, "view");
    const root = await this.rootFor(actor, input);
    const key = JSON.stringify([principalKey(actor), root, input.q.toLowerCase()]);
    const ttlMs = await this.cacheTtl();
    const useCache = ttlMs > 0 && this.vfs.caches.usable;
    let found = useCache
      ? (this.vfs.caches.search.get(ALL_MOUNTS, "", key) as
          | { results: FsSearchResult[]; truncated: boolean }
          | undefined)
      : undefined;
    if (!found) {
      found = await this.scan(actor, root, input.q);
      if (useCache) this.vfs.caches.search.set(ALL_MOUNTS, "", key, found, ttlMs, found.results.length + 1);
    }
    const { results, truncated } = found;
    return {
      results: results.slice(input.offset, input.offset + input.limit),
      total: results.length,
      hasMore: input.offset + input.limit < results.length,
      truncated,
      searchParams: {
        query: input.q,
        scope: input.scope,
        mountId: input.mount_id ?? null,
        path: input.path ?? null,
        limit: input.limit,
        offset: input.offset,
      },
      root: displayPath(root, true),
      mountsSearched: await this.mountsWithin(actor, root),
    };
  }

  /** How many mounts the search looked into: those below the root, or holding it. */
  private async mountsWithin(actor: FsActor, root: string): Promise<number> {
    const mounts = await this.vfs.mounts.active();
    return mounts.filter(
      (m) =>
        canSeeMount(actor.principal, m.row.mount_path) &&
        (isWithin(m.row.mount_path, root) || isWithin(root, m.row.mount_path)),
    ).length;
  }

  private async rootFor(actor: FsActor, input: SearchInput): Promise<string> {
    const principal = actor.principal;
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
    authorize(actor, "view", root);
    await this.vfs.stat(actor, root);
    return root;
  }

  private async scan(actor: FsActor, root: string, q: string) {
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
    const rank = (r: FsSearchResult) => {
      const lower = r.name.toLowerCase();
      return lower === needle ? 0 : lower.startsWith(needle) ? 1 : 2;
    };
    results.sort(
      (a, b) =>
        rank(a) - rank(b) ||
        (b.modified ?? "").localeCompare(a.modified ?? "") ||
        (a.path < b.path ? -1 : a.path > b.path ? 1 : 0),
    );
    return { results, truncated };
  }

  /** Search results live 5 minutes, or not at all while any mount has caching off. */
  private async cacheTtl(): Promise<number> {
    const mounts = await this.vfs.mounts.active();
    return mounts.some((m) => m.row.cache_ttl === 0) ? 0 : CACHE_TTL_MS;
  }
}

function principalKey(actor: FsActor): string {
  const p = actor.principal;
  return p.kind === "admin" ? "admin" : p.kind === "apiKey" ? `key:${p.key.id}:${p.key.basicPath}` : "anon";
}
