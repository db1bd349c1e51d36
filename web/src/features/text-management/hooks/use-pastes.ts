import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type PasteListQuery, pastesApi, type UpdatePasteBody } from "../../../lib/pastes/api";

/** Everything cached about the owner's pastes (the Home page invalidates it after creating one). */
export const pastesKey = ["pastes"] as const;

export function usePasteList(query: PasteListQuery) {
  return useQuery({
    queryKey: [...pastesKey, "list", query],
    queryFn: ({ signal }) => pastesApi.list(query, signal),
    placeholderData: keepPreviousData,
  });
}

/** The full paste (owners' reads never count a view). */
export function usePasteDetail(id: string | null) {
  return useQuery({
    queryKey: [...pastesKey, "detail", id],
    queryFn: ({ signal }) => pastesApi.get(id!, signal),
    enabled: id !== null,
    staleTime: 0,
  });
}

export function useUpdatePaste() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdatePasteBody }) => pastesApi.update(id, body),
    onSuccess: () => qc.invalidateQueries({ queryKey: pastesKey }),
  });
}

export function useDeletePastes() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[]) => pastesApi.batchDelete(ids),
    onSuccess: () => qc.invalidateQueries({ queryKey: pastesKey }),
  });
}

export function useClearExpired() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (asAdmin: boolean) => pastesApi.clearExpired(asAdmin),
    onSuccess: () => qc.invalidateQueries({ queryKey: pastesKey }),
  });
}
