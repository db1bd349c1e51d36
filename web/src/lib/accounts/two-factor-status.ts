import type { SecondFactorStatus } from "@clipshare/shared";
import { useQuery } from "@tanstack/react-query";
import { api } from "../api";

/** Whether one's account has a second factor, and whether an administrator must still set one up. */
export const twoFactorQueryKey = ["account", "two-factor"] as const;

/** Read by My account and, for administrators, by the panel (which sends them to enrol first). */
export function useTwoFactorStatus(enabled = true) {
  return useQuery({
    queryKey: twoFactorQueryKey,
    queryFn: ({ signal }) => api.get<SecondFactorStatus>("/account/two-factor", { signal }),
    enabled,
  });
}
