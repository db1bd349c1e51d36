import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { collectionsApi, type PublicCollection } from "../api/collections";

export const collectionVisitKey = (slug: string) => ["collection-visit", slug] as const;

/**
 * The collection's page. Fetching it uses a view of a view-limited collection, so it is
 * fetched once per visit: never refetched in the background and never retried (4xx are
 * final). Everything after it goes on with the access token it hands out.
 */
export function useCollectionVisit(slug: string) {
  return useQuery({
    queryKey: collectionVisitKey(slug),
    queryFn: () => collectionsApi.visit(slug),
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnMount: false,
    refetchOnReconnect: false,
    refetchOnWindowFocus: false,
    retry: false,
  });
}

/** The password: on success the unlocked page replaces the prompt. */
export function useUnlockCollection(slug: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (password: string) => collectionsApi.unlock(slug, password),
    onSuccess: (data: PublicCollection) => qc.setQueryData(collectionVisitKey(slug), data),
  });
}

/** A folder of the collection, page by page, under the visit's token (uses no view). */
export function useCollectionFolder(slug: string, itemId: string, path: string, token: string | null) {
  return useInfiniteQuery({
    queryKey: ["collection-folder", slug, itemId, path],
    queryFn: ({ pageParam }) => collectionsApi.folder(slug, itemId, path, token, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next_cursor,
    staleTime: 60_000,
    retry: false,
  });
}
