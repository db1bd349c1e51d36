import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { accountApi } from "../api/account";

const accountKey = ["account"] as const;
const sessionsKey = ["account", "sessions"] as const;

export function useAccount() {
  return useQuery({ queryKey: accountKey, queryFn: ({ signal }) => accountApi.me(signal) });
}

export function useSetDisplayName() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (name: string | null) => accountApi.setDisplayName(name),
    onSuccess: (user) => qc.setQueryData(accountKey, user),
  });
}

export function useSessions() {
  return useQuery({ queryKey: sessionsKey, queryFn: ({ signal }) => accountApi.sessions(signal) });
}

export function useEndSession() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string | "others") =>
      id === "others" ? accountApi.endOtherSessions() : accountApi.endSession(id),
    onSuccess: () => qc.invalidateQueries({ queryKey: sessionsKey }),
  });
}
