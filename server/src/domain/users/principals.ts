/**
 * Principals from stored rows: a signed-in user, and an API key narrowed to its owner. The
 * request path (sessions, keys, WebDAV) and work done later on someone's behalf (tasks,
 * signed links) both build them here, so a key's rights are worked out once.
 */
import { grantOfRole, narrowGrant, type Role } from "@clipshare/shared";
import type { ApiKeyIdentity, Principal } from "../../auth/principal";
import type { ApiKeyRow, UserRow } from "../../db/schema";

export type UserFields = Pick<UserRow, "id" | "username" | "role" | "permissions" | "base_path" | "disabled">;
export type KeyFields = Pick<ApiKeyRow, "id" | "name" | "permissions" | "basic_path" | "role" | "is_guest">;

export const USER_FIELDS = ["id", "username", "role", "permissions", "base_path", "disabled"] as const;

export const roleOf = (value: string): Role => (value === "user" || value === "guest" ? value : "admin");

/** A signed-in user: administrators hold everything, users and guests their role-limited grant. */
export function userPrincipal(user: UserFields, sessionId?: string): Principal {
  const role = roleOf(user.role);
  if (role === "admin") return { kind: "admin", adminId: user.id, username: user.username, sessionId };
  const grant = grantOfRole(role, { permissions: user.permissions, basePath: user.base_path });
  return {
    kind: "user",
    user: {
      id: user.id,
      username: user.username,
      role,
      permissions: grant.permissions,
      basePath: grant.basePath,
    },
    sessionId,
  };
}

/**
 * An API key as the principal it stands for: its own bits and base path, narrowed to what its
 * owner may do now (an administrator's keys keep exactly their own). A key of a disabled user
 * is no principal at all.
 */
export function keyIdentity(key: KeyFields, owner: UserFields): ApiKeyIdentity | null {
  if (owner.disabled === 1) return null;
  const own = { permissions: key.permissions, basePath: key.basic_path };
  const role = roleOf(owner.role);
  const grant =
    role === "admin"
      ? own
      : narrowGrant(grantOfRole(role, { permissions: owner.permissions, basePath: owner.base_path }), own);
  return {
    id: key.id,
    name: key.name,
    permissions: grant.permissions,
    basicPath: grant.basePath,
    role: key.role,
    isGuest: key.is_guest === 1,
    ownerId: owner.id,
    ownerName: owner.username,
    ownerRole: role,
  };
}
