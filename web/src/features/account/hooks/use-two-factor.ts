import type { SecondFactorChangeRequest } from "@clipshare/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { twoFactorQueryKey as twoFactorKey } from "../../../lib/accounts/two-factor-status";
import { accountApi } from "../api/account";

export { useTwoFactorStatus as useTwoFactor } from "../../../lib/accounts/two-factor-status";

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
