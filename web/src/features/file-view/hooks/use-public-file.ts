import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type PublicFile, publicFilesApi } from "../api/public-files";

export const publicFileQueryKey = (slug: string) => ["public-file", slug] as const;

/**
 * The share's metadata. Fetching it counts a view, so it is fetched once per
 * visit: never refetched in the background and never retried (4xx are final).
 */
export function usePublicFile(slug: string) {
  return useQuery({
    queryKey: publicFileQueryKey(slug),
    queryFn: ({ signal }) => publicFilesApi.get(slug, signal),
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnMount: false,
    refetchOnReconnect: false,
    refetchOnWindowFocus: false,
    retry: false,
  });
}

/** POST …/verify: on success the unlocked metadata (with URLs) replaces the prompt. */
export function useUnlockFile(slug: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (password: string) => publicFilesApi.verify(slug, password),
    onSuccess: (data: PublicFile) => qc.setQueryData(publicFileQueryKey(slug), data),
  });
}
