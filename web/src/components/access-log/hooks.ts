import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { accessLogApi, type LoggedShare } from "../../lib/access-log";

const accessLogKey = ["access-log"] as const;

export function useAccessLogPage(share: LoggedShare | null, page: { limit: number; offset: number }) {
  return useQuery({
    queryKey: [...accessLogKey, share?.type, share?.id, page],
    queryFn: ({ signal }) => accessLogApi.page(share!, page, signal),
    enabled: share !== null,
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

export function useAccessSummary() {
  return useQuery({
    queryKey: [...accessLogKey, "summary"],
    queryFn: ({ signal }) => accessLogApi.summary(signal),
  });
}

export function useClearAccessLog() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (share: LoggedShare) => accessLogApi.clear(share),
    onSuccess: () => qc.invalidateQueries({ queryKey: accessLogKey }),
  });
}

export function useSetShareLogging() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ share, on }: { share: LoggedShare; on: boolean }) => accessLogApi.setLogging(share, on),
    onSuccess: () => qc.invalidateQueries({ queryKey: accessLogKey }),
  });
}
