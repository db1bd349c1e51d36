import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { dashboardApi } from "../api/dashboard";

export const dashboardStatsQueryKey = ["admin", "dashboard", "stats"] as const;
export const cacheStatsQueryKey = ["admin", "dashboard", "cache"] as const;

/*
 * Coming back to the dashboard from another module (where shares were just created or deleted)
 * shows the last figures at once and fetches fresh ones, whatever the app's usual stale time.
 */
export function useDashboardStats() {
  return useQuery({
    queryKey: dashboardStatsQueryKey,
    queryFn: ({ signal }) => dashboardApi.stats(signal),
    refetchOnMount: "always",
  });
}

export function useCacheStats() {
  return useQuery({
    queryKey: cacheStatsQueryKey,
    queryFn: ({ signal }) => dashboardApi.cacheStats(signal),
    refetchOnMount: "always",
  });
}

/** Clears every explorer cache, or those of one storage config's mounts; the figures reload after. */
export function useClearCache() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (storageConfigId?: string) => dashboardApi.clearCache(storageConfigId),
    onSettled: () => qc.invalidateQueries({ queryKey: cacheStatsQueryKey }),
  });
}
