import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { passkeysApi } from "../../../lib/accounts/passkeys";

const passkeysKey = ["account", "passkeys"] as const;
// The two-factor status counts passkeys: it is read again after every change too.
const twoFactorKey = ["account", "two-factor"] as const;

export function usePasskeys() {
  return useQuery({ queryKey: passkeysKey, queryFn: ({ signal }) => passkeysApi.list(signal) });
}

function usePasskeyChange<A, R>(fn: (arg: A) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: passkeysKey });
      await qc.invalidateQueries({ queryKey: twoFactorKey });
    },
  });
}

export const useAddPasskey = () => usePasskeyChange((name: string) => passkeysApi.add(name));
export const useRenamePasskey = () =>
  usePasskeyChange(({ id, name }: { id: string; name: string }) => passkeysApi.rename(id, name));
export const useDeletePasskey = () => usePasskeyChange((id: string) => passkeysApi.remove(id));
