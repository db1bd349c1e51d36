import type { SecondFactorChangeRequest } from "@clipshare/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { accountApi } from "../api/account";

const twoFactorKey = ["account", "two-factor"] as const;

export function useTwoFactor() {
  return useQuery({ queryKey: twoFactorKey, queryFn: ({ signal }) => accountApi.twoFactor(signal) });
}

export function useStartTotp() {
  return useMutation({ mutationFn: () => accountApi.startTotp() });
}

/** Every change of one's second factor: the status is read again afterwards. */
function useTwoFactorChange<A, R>(fn: (arg: A) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: twoFactorKey }) });
}

export const useConfirmTotp = () => useTwoFactorChange((code: string) => accountApi.confirmTotp(code));
export const useDisableTotp = () =>
  useTwoFactorChange((body: SecondFactorChangeRequest) => accountApi.disableTotp(body));
export const useRenewRecoveryCodes = () =>
  useTwoFactorChange((body: SecondFactorChangeRequest) => accountApi.renewRecoveryCodes(body));
