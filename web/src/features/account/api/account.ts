import type { AdminLogin, InvitationDto, Role, SessionDto, UserDto } from "@clipshare/shared";
import { api } from "../../../lib/api";

/** One's own account (/api/account) and the public invitation routes. */
export const accountApi = {
  me: (signal?: AbortSignal) => api.get<UserDto>("/account", { signal }),
  setDisplayName: (displayName: string | null) => api.put<UserDto>("/account", { display_name: displayName }),
  sessions: (signal?: AbortSignal) => api.get<{ sessions: SessionDto[] }>("/account/sessions", { signal }),
  endSession: (id: string) => api.delete<null>(`/account/sessions/${encodeURIComponent(id)}`),
  endOtherSessions: () => api.post<{ signed_out: number }>("/account/sessions/sign-out-others"),
  invitation: (token: string) =>
    api.get<Pick<InvitationDto, "expires_at" | "note"> & { role: Role }>(
      `/invitations/${encodeURIComponent(token)}`,
      { auth: "none" },
    ),
  acceptInvitation: (token: string, body: { username: string; password: string; display_name?: string }) =>
    api.post<AdminLogin>(`/invitations/${encodeURIComponent(token)}/accept`, body, { auth: "none" }),
};
