/**
 * The cache endpoints: statistics for the admin, and clearing
 * — everything, one mount, or the mounts of one storage config for the admin;
 * for an API key only what lies under its base path.
 */
import {
  type CacheClearResult,
  type CacheStatsDto,
  isPathWithinBase,
  normalizeBasePath,
} from "@clipshare/shared";
import { basePathOf, type Principal } from "../../auth/principal";
import { canSeeMount } from "./access";
import type { FsCaches } from "./fs-caches";
import type { MountTable } from "./mount-table";
import { subPathOf } from "./vpath";

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

export function cacheStats(caches: FsCaches): CacheStatsDto {
  const memory = process.memoryUsage();
  return {
    cache: caches.stats(),
    system: {
      memory: {
        rss: mb(memory.rss),
        heapTotal: mb(memory.heapTotal),
        heapUsed: mb(memory.heapUsed),
        external: mb(memory.external),
        arrayBuffers: mb(memory.arrayBuffers),
        heapUsagePercent: memory.heapTotal > 0 ? Math.round((memory.heapUsed / memory.heapTotal) * 100) : 0,
      },
      uptime: Math.round(process.uptime()),
    },
    timestamp: new Date().toISOString(),
  };
}

export async function clearCaches(
  caches: FsCaches,
  table: MountTable,
  principal: Principal,
  scope: { mountId?: string | undefined; configId?: string | undefined },
): Promise<CacheClearResult> {
  let mounts = (await table.active()).filter((m) => canSeeMount(principal, m.row.mount_path));
  if (scope.mountId) mounts = mounts.filter((m) => m.row.id === scope.mountId);
  if (scope.configId) mounts = mounts.filter((m) => m.config.id === scope.configId);
  let clearedCount = 0;
  if (principal.kind === "admin" && !scope.mountId && !scope.configId) {
    clearedCount = await caches.clear();
  } else if (principal.kind === "admin") {
    for (const m of mounts) clearedCount += await caches.clear(m.row.id);
  } else if (basePathOf(principal) !== null) {
    const base = normalizeBasePath(basePathOf(principal)!);
    for (const m of mounts) {
      clearedCount += isPathWithinBase(base, m.row.mount_path)
        ? await caches.clear(m.row.id)
        : await caches.invalidate(m.row.id, subPathOf(base, m.row.mount_path), true);
    }
  }
  return { clearedCount, timestamp: new Date().toISOString() };
}
