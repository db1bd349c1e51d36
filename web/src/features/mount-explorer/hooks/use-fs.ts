import { useInfiniteQuery, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { type MaybeOffline, withOfflineDirectory } from "../../../lib/offline/offline-copy";
import { type FsListing, fsApi } from "../api/fs";

export const fsKey = ["fs"] as const;

/**
 * A directory, page by page (cursor of /fs/list); more pages load as the view scrolls.
 * The first page is kept for offline use; offline it answers with `offlineCopyAt` set.
 */
export function useDirectory(path: string) {
  return useInfiniteQuery({
    queryKey: [...fsKey, "list", path],
    queryFn: ({ pageParam, signal }): Promise<MaybeOffline<FsListing>> =>
      pageParam === null
        ? withOfflineDirectory(path, () => fsApi.list(path, null, signal))
        : fsApi.list(path, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => (last.hasMore ? last.nextCursor : null),
    staleTime: 10_000,
  });
}

export function useFileInfo(path: string | null) {
  return useQuery({
    queryKey: [...fsKey, "get", path],
    queryFn: ({ signal }) => fsApi.get(path!, signal),
    enabled: path !== null,
    staleTime: 60_000,
  });
}

export function useFileText(path: string | null) {
  return useQuery({
    queryKey: [...fsKey, "text", path],
    queryFn: ({ signal }) => fsApi.readText(path!, signal),
    enabled: path !== null,
    staleTime: 0,
  });
}

/** Refetch listings after a change (the server invalidated its cache already). */
export function useRefreshFs() {
  const qc = useQueryClient();
  return useCallback(() => qc.invalidateQueries({ queryKey: fsKey }), [qc]);
}

/** Public browsing for a visitor without credentials: where it may browse (asked only when `enabled`). */
export function usePublicBrowsing(enabled: boolean) {
  return useQuery({
    queryKey: [...fsKey, "public"],
    queryFn: ({ signal }) => fsApi.publicInfo(signal),
    enabled,
    staleTime: 60_000,
  });
}

const FINISHED = new Set(["completed", "failed", "cancelled", "partial"]);

/** Server-side tasks: polled every second while one runs, so the panel survives a reload. */
export function useTasks(enabled: boolean) {
  return useQuery({
    queryKey: [...fsKey, "tasks"],
    queryFn: ({ signal }) => fsApi.tasks(signal),
    enabled,
    refetchInterval: (q) => (q.state.data?.tasks.some((t) => !FINISHED.has(t.status)) ? 1000 : 10_000),
  });
}

export function isTaskFinished(status: string): boolean {
  return FINISHED.has(status);
}
