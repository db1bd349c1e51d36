import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { dashboardApi } from "../api/dashboard";

export const dashboardStatsQueryKey = ["admin", "dashboard", "stats"] as const;
export const cacheStatsQueryKey = ["admin", "dashboard", "cache"] as const;

export function useDashboardStats() {
  return useQuery({ queryKey: dashboardStatsQueryKey, queryFn: ({ signal }) => dashboardApi.stats(signal) });
}

export function useCacheStats() {
  return useQuery({ queryKey: cacheStatsQueryKey, queryFn: ({ signal }) => dashboardApi.cacheStats(signal) });
}

/** Clears every explorer cache, or those of one storage config's mounts; the figures reload after. */
export function useClearCache() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (storageConfigId?: string) => dashboardApi.clearCache(storageConfigId),
    onSettled: () => qc.invalidateQueries({ queryKey: cacheStatsQueryKey }),
  });
}
