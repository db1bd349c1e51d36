import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type StorageConfigBody, storageConfigsApi } from "../api/storage-configs";

export const storageConfigsQueryKey = ["storage-configs"] as const;

export function useStorageConfigs() {
  return useQuery({
    queryKey: [...storageConfigsQueryKey, "all"],
    queryFn: ({ signal }) => storageConfigsApi.list(signal),
  });
}

function useInvalidate() {
  const qc = useQueryClient();
  // Also refreshes the upload form's list (["storage-configs", "usable"]).
  return () => qc.invalidateQueries({ queryKey: storageConfigsQueryKey });
}

export function useCreateStorageConfig() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: StorageConfigBody) => storageConfigsApi.create(body),
    onSuccess: invalidate,
  });
}

export function useUpdateStorageConfig() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: StorageConfigBody }) => storageConfigsApi.update(id, body),
    onSuccess: invalidate,
  });
}

export function useDeleteStorageConfig() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (id: string) => storageConfigsApi.remove(id), onSuccess: invalidate });
}

export function useSetDefaultStorageConfig() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (id: string) => storageConfigsApi.setDefault(id), onSuccess: invalidate });
}

export function useTestStorageConfig() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (id: string) => storageConfigsApi.test(id), onSuccess: invalidate });
}
