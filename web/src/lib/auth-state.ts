import {
  ALL_PERMISSIONS,
  type CredentialCheck,
  hasAnyPermission,
  MOUNT_ANY,
  maskFromFlags,
  normalizeBasePath,
  Permission,
  type PermissionFlags,
  type Role,
} from "@clipshare/shared";

/**
 * Who is signed in and what that principal may do: the auth state's shape,
 * the verification answer read into it, and the capabilities derived from it.
 * Pure, so route guards and tests use it without the store.
 */

/**
 * How the browser is signed in: an administrator's session, a user's or guest's session
 * ("user": a bearer token like the administrator's, with the grant an administrator gave),
 * or an API key.
 */
export type AuthType = "none" | "admin" | "user" | "apikey";

export interface KeyInfo {
  id: string | number | null;
  name: string;
  basic_path: string;
}

export interface UserInfo {
  id: string | number | null;
  name: string;
  basicPath: string;
  /** The account's role (a key's owner's, for keys); null when the server did not say. */
  role?: Role | null;
}

export interface AuthState {
  authType: AuthType;
  adminToken: string | null;
  apiKey: string | null;
  keyInfo: KeyInfo | null;
  /** Permission bitmask; every bit for an admin; the grant for a user's session or a key. */
  permissions: number;
  userInfo: UserInfo | null;
  /** Epoch ms of the last successful check with the server, null if never in this page. */
  lastValidated: number | null;
}

export const SIGNED_OUT: AuthState = {
  authType: "none",
  adminToken: null,
  apiKey: null,
  keyInfo: null,
  permissions: 0,
  userInfo: null,
  lastValidated: null,
};

/** GET /api/test/api-key's data, read defensively: a 0.7.3 server sends less, and `permissions` may be the mask. */
export type ApiKeyVerification = Partial<Omit<CredentialCheck, "permissions" | "key_info">> & {
  permissions?: Partial<PermissionFlags> | number;
  key_info?: Partial<KeyInfo>;
};

/** Permission mask from a verification response: `permission_mask`, a number, or the flag object. */
export function parsePermissionMask(data: ApiKeyVerification | null | undefined): number | null {
  if (!data) return null;
  if (typeof data.permission_mask === "number" && Number.isInteger(data.permission_mask)) {
    return data.permission_mask;
  }
  if (typeof data.permissions === "number" && Number.isInteger(data.permissions)) return data.permissions;
  if (data.permissions && typeof data.permissions === "object") return maskFromFlags(data.permissions);
  return null;
}

export function parseKeyInfo(data: ApiKeyVerification): KeyInfo {
  const info = data.key_info ?? {};
  return {
    id: info.id ?? null,
    name: info.name ?? data.name ?? "",
    basic_path: normalizeBasePath(info.basic_path ?? data.basic_path ?? "/"),
  };
}

/** What the principal may do, derived from the state. */
export interface Capabilities {
  isAuthenticated: boolean;
  isAdmin: boolean;
  isApiKey: boolean;
  /** Signed in with an account's session (any role), so the account's own pages apply. */
  isAccount: boolean;
  /** Limited to a grant (a user's session or an API key): its bits and base path. */
  isScoped: boolean;
  /** The effective permission bits: every bit for an admin, none when signed out. */
  mask: number;
  text: boolean;
  file: boolean;
  /** Any mount bit. */
  mount: boolean;
  mountView: boolean;
  basicPath: string;
  /** Admin, any account (its profile is there), or a key with text, file or mount permission. */
  hasPanelAccess: boolean;
}

export function capabilitiesOf(state: AuthState): Capabilities {
  const isAdmin = state.authType === "admin";
  const isUser = state.authType === "user";
  const isApiKey = state.authType === "apikey";
  const isScoped = isUser || isApiKey;
  const mask = isAdmin ? ALL_PERMISSIONS : isScoped ? state.permissions : 0;
  const text = hasAnyPermission(mask, Permission.TEXT);
  const file = hasAnyPermission(mask, Permission.FILE_SHARE);
  const mount = hasAnyPermission(mask, MOUNT_ANY);
  const basicPath = isApiKey ? state.keyInfo?.basic_path : isUser ? state.userInfo?.basicPath : "/";
  return {
    isAuthenticated: isAdmin || isScoped,
    isAdmin,
    isApiKey,
    isAccount: isAdmin || isUser,
    isScoped,
    mask,
    text,
    file,
    mount,
    mountView: hasAnyPermission(mask, Permission.MOUNT_VIEW),
    basicPath: normalizeBasePath(basicPath),
    hasPanelAccess: isAdmin || isUser || (isApiKey && (text || file || mount)),
  };
}
