/**
 * An in-process TTL cache organised like the tree it caches: mount → directory
 * (driver-relative path) → key → value. That shape makes the one invalidation
 * a write needs cheap: drop the written path, its ancestors and (for directory
 * operations) everything below it, without scanning unrelated entries.
 *
 * Entries carry a weight (a listing page weighs its entry count) and the cache
 * holds at most `maxWeight`; beyond that the oldest directories go first.
 * Safe to lose: it only ever saves a storage round trip.
 */
export interface CacheStats {
  name: string;
  hits: number;
  misses: number;
  expired: number;
  invalidations: number;
  pruned: number;
  cacheSize: number;
  hitRate: number;
}

interface Entry<V> {
  value: V;
  expiresAt: number;
  weight: number;
}

type DirMap<V> = Map<string, Map<string, Entry<V>>>;

export class PathCache<V> {
  private readonly mounts = new Map<string, DirMap<V>>();
  private weight = 0;
  private entries = 0;
  private counters = { hits: 0, misses: 0, expired: 0, invalidations: 0, pruned: 0 };

  constructor(
    readonly name: string,
    private readonly maxWeight: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(mountId: string, dir: string, key: string): V | undefined {
    const dirMap = this.mounts.get(mountId)?.get(dir);
    const entry = dirMap?.get(key);
    if (!entry) {
      this.counters.misses++;
      return undefined;
    }
    if (entry.expiresAt <= this.now()) {
      this.counters.expired++;
      this.counters.misses++;
      this.drop(mountId, dir, key);
      return undefined;
    }
    this.counters.hits++;
    return entry.value;
  }

  set(mountId: string, dir: string, key: string, value: V, ttlMs: number, weight = 1): void {
    if (ttlMs <= 0 || weight > this.maxWeight) return;
    let dirs = this.mounts.get(mountId);
    if (!dirs) {
      dirs = new Map();
      this.mounts.set(mountId, dirs);
    }
    let keys = dirs.get(dir);
    if (!keys) {
      keys = new Map();
      dirs.set(dir, keys);
    }
    const old = keys.get(key);
    if (old) {
      this.weight -= old.weight;
      this.entries--;
    }
    keys.set(key, { value, expiresAt: this.now() + ttlMs, weight });
    this.weight += weight;
    this.entries++;
    if (this.weight > this.maxWeight) this.prune();
  }

  /**
   * Drops what a change at `path` can make stale: `path` itself and every
   * ancestor directory (their listings show it), and with `tree` every
   * directory below it (a directory was removed, moved or replaced).
   */
  invalidate(mountId: string, path: string, tree: boolean): number {
    const dirs = this.mounts.get(mountId);
    if (!dirs) return 0;
    let dropped = 0;
    for (let p = path; ; ) {
      dropped += this.dropDir(dirs, p);
      if (p === "") break;
      const i = p.lastIndexOf("/");
      p = i < 0 ? "" : p.slice(0, i);
    }
    if (tree) {
      const prefix = path === "" ? "" : `${path}/`;
      for (const dir of [...dirs.keys()]) {
        if (dir.startsWith(prefix) && dir !== path) dropped += this.dropDir(dirs, dir);
      }
    }
    if (dirs.size === 0) this.mounts.delete(mountId);
    if (dropped > 0) this.counters.invalidations++;
    return dropped;
  }

  /** Everything of one mount, or everything. Returns the number of entries dropped. */
  clear(mountId?: string): number {
    const before = this.entries;
    if (mountId === undefined) {
      this.mounts.clear();
      this.weight = 0;
      this.entries = 0;
    } else {
      const dirs = this.mounts.get(mountId);
      if (dirs) for (const dir of [...dirs.keys()]) this.dropDir(dirs, dir);
      this.mounts.delete(mountId);
    }
    const dropped = before - this.entries;
    if (dropped > 0) this.counters.invalidations++;
    return dropped;
  }

  stats(): CacheStats {
    const lookups = this.counters.hits + this.counters.misses;
    return {
      name: this.name,
      ...this.counters,
      cacheSize: this.entries,
      hitRate: lookups === 0 ? 0 : Math.round((this.counters.hits / lookups) * 1000) / 1000,
    };
  }

  private dropDir(dirs: DirMap<V>, dir: string): number {
    const keys = dirs.get(dir);
    if (!keys) return 0;
    for (const entry of keys.values()) this.weight -= entry.weight;
    this.entries -= keys.size;
    dirs.delete(dir);
    return keys.size;
  }

  private drop(mountId: string, dir: string, key: string): void {
    const dirs = this.mounts.get(mountId);
    const keys = dirs?.get(dir);
    const entry = keys?.get(key);
    if (!dirs || !keys || !entry) return;
    keys.delete(key);
    this.weight -= entry.weight;
    this.entries--;
    if (keys.size === 0) dirs.delete(dir);
    if (dirs.size === 0) this.mounts.delete(mountId);
  }

  /** Expired entries first, then whole directories in insertion order until under 90% of the limit. */
  private prune(): void {
    const now = this.now();
    for (const [mountId, dirs] of this.mounts) {
      for (const [dir, keys] of dirs) {
        for (const [key, entry] of keys) {
          if (entry.expiresAt <= now) {
            this.drop(mountId, dir, key);
            this.counters.pruned++;
          }
        }
      }
    }
    const target = this.maxWeight * 0.9;
    for (const [mountId, dirs] of this.mounts) {
      for (const dir of [...dirs.keys()]) {
        if (this.weight <= target) return;
        this.counters.pruned += this.dropDir(dirs, dir);
      }
      if (dirs.size === 0) this.mounts.delete(mountId);
    }
  }
}
