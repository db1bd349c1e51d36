/**
 * Accounts: the roles and the grant rule, shared by the server (which enforces them) and the
 * web app (which shows them). A grant is what an API key has always carried: permission bits
 * and the base path they apply under. An administrator gives one to each user; a user's API
 * keys hold grants of their own, and what a key may do is the narrower of the two.
 */
import { ALL_PERMISSIONS, isPathWithinBase, MOUNT_ANY, normalizeBasePath, Permission } from "./permissions";

export const ROLES = ["admin", "user", "guest"] as const;
export type Role = (typeof ROLES)[number];

/**
 * The bits each role may hold. Administrators hold every bit everywhere; a guest only looks
 * (the explorer and WebDAV, read-only), owns nothing and has no keys.
 */
export const ROLE_PERMISSIONS: Record<Role, number> = {
  admin: ALL_PERMISSIONS,
  user: ALL_PERMISSIONS,
  guest: Permission.MOUNT_VIEW | Permission.WEBDAV_READ,
};

/** What a new user gets unless the administrator chooses otherwise: their own pastes and file shares. */
export const DEFAULT_USER_PERMISSIONS = Permission.TEXT | Permission.FILE_SHARE;

/** The bits that act on paths of the explorer tree (and so depend on the base path). */
export const PATH_PERMISSIONS = MOUNT_ANY | Permission.WEBDAV_READ | Permission.WEBDAV_MANAGE;

export interface Grant {
  permissions: number;
  basePath: string;
}

/** A role's grant with the bits it may not hold taken away. */
export function grantOfRole(role: Role, grant: Grant): Grant {
  return {
    permissions: grant.permissions & ROLE_PERMISSIONS[role],
    basePath: normalizeBasePath(grant.basePath),
  };
}

/**
 * What `inner` (an API key) may do inside `outer` (its user): the bits both hold, under the
 * deeper of the two base paths. Base paths that do not nest leave no path at all, so the path
 * bits go.
 */
export function narrowGrant(outer: Grant, inner: Grant): Grant {
  const permissions = outer.permissions & inner.permissions;
  const o = normalizeBasePath(outer.basePath);
  const i = normalizeBasePath(inner.basePath);
  if (isPathWithinBase(o, i)) return { permissions, basePath: i };
  if (isPathWithinBase(i, o)) return { permissions, basePath: o };
  return { permissions: permissions & ~PATH_PERMISSIONS, basePath: i };
}

/** True when `inner` asks for nothing `outer` lacks: its bits are a subset, its base path inside. */
export function grantFitsWithin(outer: Grant, inner: Grant): boolean {
  const bitsFit = (inner.permissions & ~outer.permissions) === 0;
  const pathBits = (inner.permissions & PATH_PERMISSIONS) !== 0;
  return bitsFit && (!pathBits || isPathWithinBase(outer.basePath, inner.basePath));
}

export const USERNAME_PATTERN = /^[A-Za-z0-9_.@-]{1,64}$/;
export const DISPLAY_NAME_MAX = 100;
/** Invitation links live 3 days unless the administrator says otherwise (at most 30 days). */
export const INVITATION_DEFAULT_HOURS = 72;
export const INVITATION_MAX_HOURS = 30 * 24;
