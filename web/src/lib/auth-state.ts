import {
  ALL_PERMISSIONS,
  type CredentialCheck,
  hasAnyPermission,
  MOUNT_ANY,
  maskFromFlags,
  normalizeBasePath,
  Permission,
  type PermissionFlags,
} from "@clipshare/shared";

/**
 * Who is signed in and what that principal may do: the auth state's shape,
 * the verification answer read into it, and the capabilities derived from it.
 * Pure, so route guards and tests use it without the store.
 */

export type AuthType = "none" | "admin" | "apikey";

export interface KeyInfo {
  id: string | number | null;
  name: string;
  basic_path: string;
}

export interface UserInfo {
  id: string | number | null;
  name: string;
  basicPath: string;
}

export interface AuthState {
  authType: AuthType;
  adminToken: string | null;
  apiKey: string | null;
  keyInfo: KeyInfo | null;
  /** Permission bitmask; every bit for an admin. */
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
  /** The effective permission bits: every bit for an admin, none when signed out. */
  mask: number;
  text: boolean;
  file: boolean;
  /** Any mount bit. */
  mount: boolean;
  mountView: boolean;
  basicPath: string;
  /** Admin, or a key with text, file or mount permission. */
  hasPanelAccess: boolean;
}

export function capabilitiesOf(state: AuthState): Capabilities {
  const isAdmin = state.authType === "admin";
  const isApiKey = state.authType === "apikey";
  const mask = isAdmin ? ALL_PERMISSIONS : isApiKey ? state.permissions : 0;
  const text = hasAnyPermission(mask, Permission.TEXT);
  const file = hasAnyPermission(mask, Permission.FILE_SHARE);
  const mount = hasAnyPermission(mask, MOUNT_ANY);
  return {
    isAuthenticated: isAdmin || isApiKey,
    isAdmin,
    isApiKey,
    mask,
    text,
    file,
    mount,
    mountView: hasAnyPermission(mask, Permission.MOUNT_VIEW),
    basicPath: isApiKey ? normalizeBasePath(state.keyInfo?.basic_path) : "/",
    hasPanelAccess: isAdmin || (isApiKey && (text || file || mount)),
  };
}
