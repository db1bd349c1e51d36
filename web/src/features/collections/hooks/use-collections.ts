import type { UpdateCollectionBody } from "@clipshare/shared";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { COLLECTIONS_KEY, collectionsApi } from "../../../lib/collections";

export function useCollections(query: { limit: number; offset: number; search?: string }) {
  return useQuery({
    queryKey: [...COLLECTIONS_KEY, "list", query],
    queryFn: () => collectionsApi.list(query),
    placeholderData: keepPreviousData,
  });
}

export function useCollectionDetail(id: string | null) {
  return useQuery({
    queryKey: [...COLLECTIONS_KEY, "detail", id],
    queryFn: () => collectionsApi.detail(id!),
    enabled: id !== null,
  });
}

export function useUpdateCollection() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateCollectionBody }) => collectionsApi.update(id, body),
    onSuccess: () => qc.invalidateQueries({ queryKey: COLLECTIONS_KEY }),
  });
}

export function useDeleteCollections() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ ids, deleteFiles }: { ids: string[]; deleteFiles: boolean }) =>
      collectionsApi.remove(ids, deleteFiles),
    onSuccess: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: COLLECTIONS_KEY }),
        qc.invalidateQueries({ queryKey: ["files"] }),
      ]),
  });
}
