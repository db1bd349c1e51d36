import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { keepShare, withOfflineShare } from "../../../lib/offline/offline-copy";
import type { ReplayReport } from "../../../lib/offline/offline-queue";
import { QUEUE_REPLAYED_EVENT } from "../../../lib/offline/queue-status";
import { type PublicFile, publicFilesApi } from "../../../lib/public-files";

export const publicFileQueryKey = (slug: string) => ["public-file", slug] as const;

/**
 * The share's metadata. Fetching it counts a view, so it is fetched once per
 * visit: never refetched in the background and never retried (4xx are final).
 * Offline, details kept on an earlier visit answer instead (`offlineCopyAt`).
 */
export function usePublicFile(slug: string) {
  return useQuery({
    queryKey: publicFileQueryKey(slug),
    queryFn: ({ signal }) => withOfflineShare("files", slug, () => publicFilesApi.get(slug, signal)),
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
  // A password entered offline is checked when the queue is sent: its answer unlocks this page.
  useEffect(() => {
    const onReplayed = (event: Event) => {
      const report = (event as CustomEvent<ReplayReport>).detail;
      const verified = report.sent.find(
        (r) => r.type === "file-verify" && r.endpoint === `/public/files/${encodeURIComponent(slug)}/verify`,
      );
      if (verified?.data) qc.setQueryData(publicFileQueryKey(slug), verified.data as PublicFile);
    };
    window.addEventListener(QUEUE_REPLAYED_EVENT, onReplayed);
    return () => window.removeEventListener(QUEUE_REPLAYED_EVENT, onReplayed);
  }, [qc, slug]);
  return useMutation({
    mutationFn: (password: string) => publicFilesApi.verify(slug, password),
    onSuccess: (data: PublicFile) => {
      qc.setQueryData(publicFileQueryKey(slug), data);
      keepShare("files", data);
    },
  });
}
