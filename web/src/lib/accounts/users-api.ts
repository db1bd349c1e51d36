import type { CreatedInvitation, InvitationDto, Role, UserDto } from "@clipshare/shared";
import { api } from "../api";

export interface UserBody {
  username?: string;
  password?: string;
  display_name?: string | null;
  /** The address a first single sign-on matches; null clears it. */
  email?: string | null;
  role?: Role;
  permissions?: number;
  base_path?: string;
  disabled?: boolean;
  /** Bytes, or null for no limit. */
  quota_bytes?: number | null;
}

export interface InvitationBody {
  role: Role;
  permissions: number;
  base_path: string;
  note?: string;
  expires_in_hours: number;
}

/** Users and invitations, as administrators manage them. */
export const usersApi = {
  list: (signal?: AbortSignal) =>
    api.get<{ users: UserDto[]; total: number }>("/admin/users", { query: { limit: 500 }, signal }),
  create: (body: UserBody) => api.post<UserDto>("/admin/users", body),
  update: (id: string, body: UserBody) => api.put<UserDto>(`/admin/users/${encodeURIComponent(id)}`, body),
  remove: (id: string, transferTo: string | null) =>
    api.delete<{ transferred: number }>(`/admin/users/${encodeURIComponent(id)}`, undefined, {
      query: transferTo ? { transfer_to: transferTo } : {},
    }),
  resetSecondFactor: (id: string) =>
    api.post<null>(`/admin/users/${encodeURIComponent(id)}/reset-second-factor`),
  invitations: (signal?: AbortSignal) =>
    api.get<{ invitations: InvitationDto[] }>("/admin/invitations", { signal }),
  invite: (body: InvitationBody) => api.post<CreatedInvitation>("/admin/invitations", body),
  withdraw: (id: string) => api.delete<null>(`/admin/invitations/${encodeURIComponent(id)}`),
};

/** The users list, for the owner filter of the share lists and the Users module. */
export const usersQueryKey = ["admin", "users"] as const;
