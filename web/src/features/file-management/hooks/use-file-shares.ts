import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type DeleteMode, type FileListQuery, fileSharesApi, type UpdateFileBody } from "../api/file-shares";

export const fileSharesQueryKey = ["files"] as const;

export function useFileShares(query: FileListQuery) {
  return useQuery({
    queryKey: [...fileSharesQueryKey, "list", query],
    queryFn: ({ signal }) => fileSharesApi.list(query, signal),
    placeholderData: keepPreviousData,
  });
}

export function useFileShareDetail(id: string | null) {
  return useQuery({
    queryKey: [...fileSharesQueryKey, "detail", id],
    queryFn: ({ signal }) => fileSharesApi.get(id!, signal),
    enabled: id !== null,
    // The URLs carry short-lived tokens.
    staleTime: 60_000,
  });
}

export function useStorageUsage() {
  return useQuery({
    queryKey: ["storage-configs", "usage"],
    queryFn: ({ signal }) => fileSharesApi.storageUsage(signal),
  });
}

function useInvalidate() {
  const qc = useQueryClient();
  return () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: fileSharesQueryKey }),
      qc.invalidateQueries({ queryKey: ["storage-configs"] }),
    ]);
}

export function useUpdateFileShare() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateFileBody }) => fileSharesApi.update(id, body),
    onSuccess: invalidate,
  });
}

export function useDeleteFileShares() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ ids, mode }: { ids: string[]; mode: DeleteMode }) => fileSharesApi.batchDelete(ids, mode),
    onSuccess: invalidate,
  });
}
