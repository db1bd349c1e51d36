import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type ApiKeyRow, apiKeysApi, type CreateApiKeyBody, type UpdateApiKeyBody } from "../api/api-keys";

export const apiKeysQueryKey = ["admin", "api-keys"] as const;

export function useApiKeys() {
  return useQuery({ queryKey: apiKeysQueryKey, queryFn: ({ signal }) => apiKeysApi.list(signal) });
}

export function useCreateApiKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateApiKeyBody) => apiKeysApi.create(body),
    onSuccess: () => qc.invalidateQueries({ queryKey: apiKeysQueryKey }),
  });
}

export function useUpdateApiKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: ApiKeyRow["id"]; body: UpdateApiKeyBody }) =>
      apiKeysApi.update(id, body),
    onSuccess: () => qc.invalidateQueries({ queryKey: apiKeysQueryKey }),
  });
}

export function useDeleteApiKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: ApiKeyRow["id"]) => apiKeysApi.remove(id),
    onSuccess: () => qc.invalidateQueries({ queryKey: apiKeysQueryKey }),
  });
}
