import type {
  BucketUsage as BucketUsageDto,
  CacheClearResult,
  CacheCounters,
  CacheStatsDto,
  DashboardStats as DashboardStatsDto,
} from "@clipshare/shared";
import { api } from "../../../lib/api";
import type { AbsentOn073 } from "../../../lib/wire-types";

export type { CacheCounters, CacheStatsDto as CacheStats };

/** A storage config's use on the dashboard; a 0.7.3 server sends only the figures and the name. */
export type BucketUsage = Pick<
  BucketUsageDto,
  "id" | "name" | "usedStorage" | "totalStorage" | "fileCount" | "usagePercent"
> &
  Partial<BucketUsageDto>;

/** data of GET /api/admin/dashboard/stats. */
export type DashboardStats = AbsentOn073<
  Omit<DashboardStatsDto, "s3Buckets">,
  "totalMounts" | "days" | "recentShares"
> & { s3Buckets: BucketUsage[] };

export const dashboardApi = {
  stats: (signal?: AbortSignal) => api.get<DashboardStats>("/admin/dashboard/stats", { signal }),
  cacheStats: (signal?: AbortSignal) => api.get<CacheStatsDto>("/admin/cache/stats", { signal }),
  /** Clears every cache, or those of the mounts on one storage config. */
  clearCache: (storageConfigId?: string) =>
    api.post<CacheClearResult>("/admin/cache/clear", storageConfigId ? { s3ConfigId: storageConfigId } : {}),
};
