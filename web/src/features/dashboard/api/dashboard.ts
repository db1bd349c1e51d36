import type { RecentShare } from "@clipshare/shared";
import { api } from "../../../lib/api";

/** A storage config's use as GET /api/admin/dashboard/stats lists it (secrets never included). */
export interface BucketUsage {
  id: string;
  name: string;
  storage_type?: "LOCAL" | "S3";
  provider_type?: string | null;
  providerType?: string | null;
  bucket_name?: string | null;
  is_default?: boolean | number;
  usedStorage: number;
  /** The quota in bytes; null or 0 when the config has none. */
  totalStorage: number | null;
  fileCount: number;
  usagePercent: number;
}

/** data of GET /api/admin/dashboard/stats. */
export interface DashboardStats {
  totalPastes: number;
  totalFiles: number;
  totalApiKeys: number;
  totalS3Configs: number;
  totalMounts?: number;
  totalStorageUsed: number;
  s3Buckets: BucketUsage[];
  /** UTC dates (YYYY-MM-DD) of the week arrays, oldest first; absent on 0.7.3 servers. */
  days?: string[];
  lastWeekPastes: number[];
  lastWeekFiles: number[];
  recentShares?: RecentShare[];
}

/** Counters of one explorer cache. */
export interface CacheCounters {
  hits: number;
  misses: number;
  cacheSize: number;
  /** 0-1. */
  hitRate: number;
  name: string;
}

/** data of GET /api/admin/cache/stats. */
export interface CacheStats {
  cache: { directory: CacheCounters; s3Url: CacheCounters; search: CacheCounters };
  timestamp: string;
}

export const dashboardApi = {
  stats: (signal?: AbortSignal) => api.get<DashboardStats>("/admin/dashboard/stats", { signal }),
  cacheStats: (signal?: AbortSignal) => api.get<CacheStats>("/admin/cache/stats", { signal }),
  /** Clears every cache, or those of the mounts on one storage config. */
  clearCache: (storageConfigId?: string) =>
    api.post<{ clearedCount: number }>(
      "/admin/cache/clear",
      storageConfigId ? { s3ConfigId: storageConfigId } : {},
    ),
};
