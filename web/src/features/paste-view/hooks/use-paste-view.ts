import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { keepShare, withOfflineShare } from "../../../lib/offline/offline-copy";
import { type PasteView, pastesApi } from "../../../lib/pastes/api";

export const pasteViewKey = (slug: string) => ["paste-view", slug] as const;

/**
 * The paste as a visitor sees it. Fetching counts a view, so it happens once
 * per page visit: never refetched in the background, never retried, and not
 * aborted when a component unmounts (the server may have counted it already).
 * Offline, a copy kept on an earlier visit answers instead (`offlineCopyAt`).
 */
export function usePasteView(slug: string) {
  return useQuery({
    queryKey: pasteViewKey(slug),
    queryFn: () => withOfflineShare("pastes", slug, () => pastesApi.view(slug)),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 10 * 60 * 1000,
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    refetchOnMount: false,
  });
}

/** POST /paste/:slug {password}: on success the unlocked paste (with content and token) replaces the locked one. */
export function useUnlockPaste(slug: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (password: string) => pastesApi.unlock(slug, password),
    onSuccess: (data: PasteView) => {
      qc.setQueryData(pasteViewKey(slug), data);
      keepShare("pastes", data);
    },
  });
}
