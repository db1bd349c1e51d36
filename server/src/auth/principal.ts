/**
 * Who is making a request. Resolved once per request by http/middleware/authenticate.ts
 * (and by the WebDAV layer), then passed into domain services, which make every
 * resource decision themselves so HTTP and WebDAV share one set of rules.
 *
 * Every signed-in principal is an account or speaks for one (docs/accounts.md):
 * - `admin`: a user with the administrator role, signed in (every bit, every path);
 * - `user`: a user or guest, signed in, holding the grant an administrator gave them;
 * - `apiKey`: a key, holding its own grant narrowed to its owner's (grantOf below).
 */
import type { Grant, Role } from "@clipshare/shared";

export interface ApiKeyIdentity {
  id: string;
  name: string;
  /** Effective: the key's own bits and base path narrowed to its owner's grant. */
  permissions: number;
  basicPath: string;
  role: string;
  isGuest: boolean;
  /** The user the key belongs to: their id, name and role. */
  ownerId: string;
  ownerName: string;
  ownerRole: Role;
}

export interface UserIdentity {
  id: string;
  username: string;
  role: Exclude<Role, "admin">;
  permissions: number;
  basePath: string;
}

/**
 * Why presented credentials gave no principal; `basic_not_accepted`: HTTP Basic sent to the JSON API;
 * `second_factor_password`: an account password over WebDAV Basic when the account has a second factor.
 */
export type AuthFailure =
  | "token_expired"
  | "api_key_invalid"
  | "invalid_credentials"
  | "basic_not_accepted"
  | "second_factor_password"
  /** An administrator who must set up a second factor before anything else. */
  | "second_factor_enrolment";

export type Principal =
  | { kind: "admin"; adminId: string; username: string; sessionId?: string }
  | { kind: "user"; user: UserIdentity; sessionId?: string }
  | { kind: "apiKey"; key: ApiKeyIdentity }
  | { kind: "anonymous"; authFailure?: AuthFailure };

export type SignedIn = Exclude<Principal, { kind: "anonymous" }>;

export const ANONYMOUS: Principal = { kind: "anonymous" };

/** What a principal may do: every bit on every path ("all"), a grant, or nothing (null). */
export function grantOf(principal: Principal): Grant | "all" | null {
  if (principal.kind === "admin") return "all";
  if (principal.kind === "user")
    return { permissions: principal.user.permissions, basePath: principal.user.basePath };
  if (principal.kind === "apiKey")
    return { permissions: principal.key.permissions, basePath: principal.key.basicPath };
  return null;
}

/** The base path a principal works under ("/" for administrators); null for anonymous. */
export function basePathOf(principal: Principal): string | null {
  const grant = grantOf(principal);
  if (grant === null) return null;
  return grant === "all" ? "/" : grant.basePath;
}

/** The user a principal is or speaks for; null for anonymous. */
export function accountIdOf(principal: Principal): string | null {
  if (principal.kind === "admin") return principal.adminId;
  if (principal.kind === "user") return principal.user.id;
  if (principal.kind === "apiKey") return principal.key.ownerId;
  return null;
}

/** The session a request was made with (a signed-in browser or client), if any. */
export function sessionIdOf(principal: Principal): string | null {
  return principal.kind === "admin" || principal.kind === "user" ? (principal.sessionId ?? null) : null;
}

/** A stable text naming who the principal is (passes are bound to it): `admin`, `user:<id>`, `key:<id>`. */
export function principalId(principal: Principal): string {
  if (principal.kind === "user") return `user:${principal.user.id}`;
  if (principal.kind === "apiKey") return `key:${principal.key.id}`;
  return principal.kind;
}

/**
 * A stable text naming the principal and what it may see, for caches of per-caller results
 * and for signed passes: two principals with the same label see the same.
 */
export function principalLabel(principal: Principal): string {
  if (principal.kind === "admin") return "admin";
  if (principal.kind === "user")
    return `user:${principal.user.id}:${principal.user.permissions}:${principal.user.basePath}`;
  if (principal.kind === "apiKey") return `key:${principal.key.id}:${principal.key.basicPath}`;
  return "anon";
}
