import { hasAnyPermission, MOUNT_ANY, Permission, type PermissionName } from "@clipshare/shared";
import type { TranslationKey } from "../../../i18n";
import type { Capabilities } from "../../../lib/auth-state";

/** The admin panel's modules, in sidebar order. Dashboard is the default. */
export const ADMIN_MODULE_IDS = [
  "dashboard",
  "text-management",
  "file-management",
  "file-requests",
  "collections",
  "storage-config",
  "mount-management",
  "index-management",
  "key-management",
  "settings",
] as const;

export type AdminModuleId = (typeof ADMIN_MODULE_IDS)[number];

export const ADMIN_MODULE_TITLES: Record<AdminModuleId, TranslationKey> = {
  dashboard: "admin.modules.dashboard",
  "text-management": "admin.modules.textManagement",
  "file-management": "admin.modules.fileManagement",
  "file-requests": "admin.modules.fileRequests",
  collections: "admin.modules.collections",
  "storage-config": "admin.modules.storageConfig",
  "mount-management": "admin.modules.mountManagement",
  "index-management": "admin.modules.indexes",
  "key-management": "admin.modules.keyManagement",
  settings: "admin.modules.settings",
};

/**
 * The permission bit an API key needs for a module (any one of the bits for
 * mount management, which a key sees read-only); modules without an entry are
 * the administrator's alone.
 */
const MODULE_PERMISSION: Partial<Record<AdminModuleId, { bits: number; name: PermissionName }>> = {
  "text-management": { bits: Permission.TEXT, name: "TEXT" },
  "file-management": { bits: Permission.FILE_SHARE, name: "FILE_SHARE" },
  "file-requests": { bits: Permission.FILE_SHARE, name: "FILE_SHARE" },
  collections: { bits: Permission.FILE_SHARE, name: "FILE_SHARE" },
  "mount-management": { bits: MOUNT_ANY, name: "MOUNT_VIEW" },
};

/** What an API key lacks for a module: the permission to name, or null when only the administrator may open it. */
export function modulePermission(id: AdminModuleId): PermissionName | null {
  return MODULE_PERMISSION[id]?.name ?? null;
}

/** Who sees which module: an admin sees all; an API-key user the modules its permission bits open. */
export function canUseModule(id: AdminModuleId, caps: Capabilities): boolean {
  if (caps.isAdmin) return true;
  if (!caps.isApiKey) return false;
  const needed = MODULE_PERMISSION[id];
  return needed !== undefined && hasAnyPermission(caps.mask, needed.bits);
}

export function isAdminModuleId(value: string | undefined): value is AdminModuleId {
  return value !== undefined && (ADMIN_MODULE_IDS as readonly string[]).includes(value);
}

export function allowedModules(caps: Capabilities): AdminModuleId[] {
  return ADMIN_MODULE_IDS.filter((id) => canUseModule(id, caps));
}

export function defaultModule(caps: Capabilities): AdminModuleId | null {
  return allowedModules(caps)[0] ?? null;
}
