import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type InvitationBody, type UserBody, usersApi, usersQueryKey } from "../../../lib/accounts/users-api";

export { useUsers } from "../../../lib/accounts/use-users";

const invitationsKey = ["admin", "invitations"] as const;

export function useSaveUser() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: UserBody }) =>
      id ? usersApi.update(id, body) : usersApi.create(body),
    onSuccess: () => qc.invalidateQueries({ queryKey: usersQueryKey }),
  });
}

export function useDeleteUser() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, transferTo }: { id: string; transferTo: string | null }) =>
      usersApi.remove(id, transferTo),
    onSuccess: () => qc.invalidateQueries({ queryKey: usersQueryKey }),
  });
}

export function useResetSecondFactor() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => usersApi.resetSecondFactor(id),
    onSuccess: () => qc.invalidateQueries({ queryKey: usersQueryKey }),
  });
}

export function useInvitations() {
  return useQuery({ queryKey: invitationsKey, queryFn: ({ signal }) => usersApi.invitations(signal) });
}

export function useInvite() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: InvitationBody) => usersApi.invite(body),
    onSuccess: () => qc.invalidateQueries({ queryKey: invitationsKey }),
  });
}

export function useWithdrawInvitation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => usersApi.withdraw(id),
    onSuccess: () => qc.invalidateQueries({ queryKey: invitationsKey }),
  });
}
