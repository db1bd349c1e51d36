import type {
  AdminLogin,
  AppPasswordDto,
  CreatedAppPassword,
  InvitationDto,
  RecoveryCodes,
  Role,
  SecondFactorChangeRequest,
  SessionDto,
  TotpSetup,
  UserDto,
} from "@clipshare/shared";
import { api } from "../../../lib/api";

/** One's own account (/api/account) and the public invitation routes. */
export const accountApi = {
  me: (signal?: AbortSignal) => api.get<UserDto>("/account", { signal }),
  setDisplayName: (displayName: string | null) => api.put<UserDto>("/account", { display_name: displayName }),
  sessions: (signal?: AbortSignal) => api.get<{ sessions: SessionDto[] }>("/account/sessions", { signal }),
  endSession: (id: string) => api.delete<null>(`/account/sessions/${encodeURIComponent(id)}`),
  endOtherSessions: () => api.post<{ signed_out: number }>("/account/sessions/sign-out-others"),
  // A wrong code or password is a 401 about the code, not the session: never sign out for it.
  startTotp: () => api.post<TotpSetup>("/account/two-factor/totp"),
  confirmTotp: (code: string) =>
    api.post<RecoveryCodes>("/account/two-factor/totp/confirm", { code }, { context: "change-password" }),
  disableTotp: (body: SecondFactorChangeRequest) =>
    api.post<null>("/account/two-factor/totp/disable", body, { context: "change-password" }),
  renewRecoveryCodes: (body: SecondFactorChangeRequest) =>
    api.post<RecoveryCodes>("/account/two-factor/recovery-codes", body, { context: "change-password" }),
  appPasswords: (signal?: AbortSignal) =>
    api.get<{ app_passwords: AppPasswordDto[] }>("/account/app-passwords", { signal }),
  createAppPassword: (name: string) => api.post<CreatedAppPassword>("/account/app-passwords", { name }),
  revokeAppPassword: (id: string) => api.delete<null>(`/account/app-passwords/${encodeURIComponent(id)}`),
  invitation: (token: string) =>
    api.get<Pick<InvitationDto, "expires_at" | "note"> & { role: Role }>(
      `/invitations/${encodeURIComponent(token)}`,
      { auth: "none" },
    ),
  acceptInvitation: (token: string, body: { username: string; password: string; display_name?: string }) =>
    api.post<AdminLogin>(`/invitations/${encodeURIComponent(token)}/accept`, body, { auth: "none" }),
};
