/**
 * The explorer's caches and how they stay correct:
 * - directory: listing pages per mount, for the mount's cache_ttl (0 = none);
 * - s3Url: presigned/proxy URLs handed out by fs/get;
 * - search: search results, per mount (or "*" for searches across mounts).
 * Bounded by entries (about 30 MB for the directory cache at its limit).
 * Every write that goes through the server calls invalidate(); the message is
 * applied here and published on the bus so other instances drop theirs too.
 */
import type { BusMessage, CacheBus } from "./cache-bus";
import { type CacheStats, PathCache } from "./path-cache";

/** Pseudo-mount of search results spanning several mounts. */
export const ALL_MOUNTS = "*";

export interface DirectoryPage<E> {
  entries: E[];
  nextCursor: string | null;
}

export class FsCaches {
  readonly directory = new PathCache<DirectoryPage<unknown>>("DirectoryCache", 100_000);
  readonly urls = new PathCache<{ url: string; expiresAt: number }>("S3UrlCache", 20_000);
  readonly search = new PathCache<unknown>("SearchCache", 50_000);
  private bus: CacheBus | null = null;
  private readonly listeners = { mounts: [] as Array<() => void>, tasks: [] as Array<() => void> };

  attach(bus: CacheBus): void {
    this.bus = bus;
  }

  /** Caches may be used: with a multi-instance bus, only while it is connected. */
  get usable(): boolean {
    return this.bus?.healthy ?? true;
  }

  onMountsChanged(listener: () => void): void {
    this.listeners.mounts.push(listener);
  }

  onTasksQueued(listener: () => void): void {
    this.listeners.tasks.push(listener);
  }

  /** A change at `path` (driver-relative) inside a mount; `tree` when a directory changed as a whole. */
  async invalidate(mountId: string, path: string, tree = false): Promise<number> {
    const dropped = this.apply({ op: "invalidate", mountId, path, tree });
    await this.publish({ op: "invalidate", mountId, path, tree });
    return dropped;
  }

  /** Clears one mount's entries, or all; returns how many entries this instance dropped. */
  async clear(mountId?: string): Promise<number> {
    const dropped = this.apply(mountId === undefined ? { op: "clear" } : { op: "clear", mountId });
    await this.publish(mountId === undefined ? { op: "clear" } : { op: "clear", mountId });
    return dropped;
  }

  async mountsChanged(): Promise<void> {
    this.apply({ op: "mounts" });
    await this.publish({ op: "mounts" });
  }

  /** Tells every instance's task runner that work is waiting. */
  async tasksQueued(): Promise<void> {
    for (const listener of this.listeners.tasks) listener();
    await this.publish({ op: "tasks" });
  }

  stats(): { directory: CacheStats; s3Url: CacheStats; search: CacheStats } {
    return { directory: this.directory.stats(), s3Url: this.urls.stats(), search: this.search.stats() };
  }

  /** Applies a message locally (from this instance or from the bus). */
  apply(message: BusMessage): number {
    switch (message.op) {
      case "invalidate": {
        let n = this.directory.invalidate(message.mountId, message.path, message.tree);
        n += this.urls.invalidate(message.mountId, message.path, message.tree);
        n += this.search.invalidate(message.mountId, message.path, message.tree);
        return n + this.search.clear(ALL_MOUNTS);
      }
      case "clear": {
        const { mountId } = message;
        const n = this.directory.clear(mountId) + this.urls.clear(mountId) + this.search.clear(mountId);
        return n + (mountId === undefined ? 0 : this.search.clear(ALL_MOUNTS));
      }
      case "mounts":
        for (const listener of this.listeners.mounts) listener();
        // Mount settings (cache_ttl, proxy flags) may have changed: stale URLs and pages must go.
        return this.directory.clear() + this.urls.clear() + this.search.clear();
      case "tasks":
        for (const listener of this.listeners.tasks) listener();
        return 0;
    }
  }

  /** The bus lost messages: forget everything. */
  reset(): void {
    this.apply({ op: "mounts" });
  }

  private async publish(message: BusMessage): Promise<void> {
    await this.bus?.publish(message);
  }
}
