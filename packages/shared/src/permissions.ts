/**
 * API-key permission bits. The values are part of the wire contract:
 * existing clients store and send these numbers. Keep below bit 30 so JS
 * bitwise operators (32-bit signed) stay safe.
 */
import type { z } from "zod";
import type { permissionFlagsResponse } from "./responses/auth";

export const Permission = {
  TEXT: 1,
  FILE_SHARE: 2,
  MOUNT_VIEW: 256,
  MOUNT_UPLOAD: 512,
  MOUNT_COPY: 1024,
  MOUNT_RENAME: 2048,
  MOUNT_DELETE: 4096,
  WEBDAV_READ: 65536,
  WEBDAV_MANAGE: 131072,
} as const;

export type PermissionName = keyof typeof Permission;

/** Every defined bit together (204547). */
export const ALL_PERMISSIONS = Object.values(Permission).reduce((a, b) => a | b, 0);

/** Any of the mount bits: "mount permission in general". */
export const MOUNT_ANY =
  Permission.MOUNT_VIEW |
  Permission.MOUNT_UPLOAD |
  Permission.MOUNT_COPY |
  Permission.MOUNT_RENAME |
  Permission.MOUNT_DELETE;

/** The flag object, as returned by GET /api/test/api-key. */
/** Permission bits as named flags, as the API answers them. */
export type PermissionFlags = z.infer<typeof permissionFlagsResponse>;

export function hasPermission(mask: number, required: number): boolean {
  return (mask & required) === required;
}

export function hasAnyPermission(mask: number, anyOf: number): boolean {
  return (mask & anyOf) !== 0;
}

export function isValidPermissionMask(value: unknown): value is number {
  return (
    typeof value === "number" && Number.isInteger(value) && value >= 0 && (value & ~ALL_PERMISSIONS) === 0
  );
}

export function permissionFlags(mask: number): PermissionFlags {
  const has = (bit: number) => hasPermission(mask, bit);
  return {
    text: has(Permission.TEXT),
    file_share: has(Permission.FILE_SHARE),
    file: has(Permission.FILE_SHARE),
    mount_view: has(Permission.MOUNT_VIEW),
    mount_upload: has(Permission.MOUNT_UPLOAD),
    mount_copy: has(Permission.MOUNT_COPY),
    mount_rename: has(Permission.MOUNT_RENAME),
    mount_delete: has(Permission.MOUNT_DELETE),
    webdav_read: has(Permission.WEBDAV_READ),
    webdav_manage: has(Permission.WEBDAV_MANAGE),
  };
}

/** Inverse of permissionFlags; accepts either file_share or file. */
export function maskFromFlags(flags: Partial<PermissionFlags>): number {
  let mask = 0;
  if (flags.text) mask |= Permission.TEXT;
  if (flags.file_share || flags.file) mask |= Permission.FILE_SHARE;
  if (flags.mount_view) mask |= Permission.MOUNT_VIEW;
  if (flags.mount_upload) mask |= Permission.MOUNT_UPLOAD;
  if (flags.mount_copy) mask |= Permission.MOUNT_COPY;
  if (flags.mount_rename) mask |= Permission.MOUNT_RENAME;
  if (flags.mount_delete) mask |= Permission.MOUNT_DELETE;
  if (flags.webdav_read) mask |= Permission.WEBDAV_READ;
  if (flags.webdav_manage) mask |= Permission.WEBDAV_MANAGE;
  return mask;
}

/** Names of the set bits, in table order (for labels and error messages). */
export function permissionNames(mask: number): PermissionName[] {
  return (Object.keys(Permission) as PermissionName[]).filter((name) =>
    hasPermission(mask, Permission[name]),
  );
}

/** Human label per bit; used in 403 messages ("The following permissions are required: …"). */
export const PERMISSION_LABELS: Record<PermissionName, string> = {
  TEXT: "Text",
  FILE_SHARE: "File sharing",
  MOUNT_VIEW: "Mount view",
  MOUNT_UPLOAD: "Upload",
  MOUNT_COPY: "Copy",
  MOUNT_RENAME: "Rename",
  MOUNT_DELETE: "Delete",
  WEBDAV_READ: "WebDAV read",
  WEBDAV_MANAGE: "WebDAV manage",
};

/** Normalize a base path: leading slash, no trailing slash (except "/"), no empty segments. */
export function normalizeBasePath(path: string | null | undefined): string {
  if (!path) return "/";
  const parts = path.split("/").filter((p) => p.length > 0);
  return `/${parts.join("/")}`;
}

/**
 * The path must equal the key's base path or lie under it;
 * base path "/" allows everything. "/ab" is NOT under "/a".
 */
export function isPathWithinBase(basePath: string, path: string): boolean {
  const base = normalizeBasePath(basePath);
  if (base === "/") return true;
  const target = normalizeBasePath(path);
  return target === base || target.startsWith(`${base}/`);
}

/** True when `path` is an ancestor of the base path (used for navigating down to it). */
export function isAncestorOfBase(basePath: string, path: string): boolean {
  const base = normalizeBasePath(basePath);
  const target = normalizeBasePath(path);
  if (target === "/") return true;
  return base.startsWith(`${target}/`);
}
