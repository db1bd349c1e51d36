import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { accountApi } from "../api/account";

const appPasswordsKey = ["account", "app-passwords"] as const;

export function useAppPasswords() {
  return useQuery({ queryKey: appPasswordsKey, queryFn: ({ signal }) => accountApi.appPasswords(signal) });
}

/** Making or revoking one: the list is read again afterwards. */
function useAppPasswordChange<A, R>(fn: (arg: A) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => qc.invalidateQueries({ queryKey: appPasswordsKey }),
  });
}

export const useCreateAppPassword = () =>
  useAppPasswordChange((name: string) => accountApi.createAppPassword(name));
export const useRevokeAppPassword = () =>
  useAppPasswordChange((id: string) => accountApi.revokeAppPassword(id));
