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
  "users",
  "settings",
  "profile",
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
  users: "admin.modules.users",
  settings: "admin.modules.settings",
  profile: "admin.modules.profile",
};

/**
 * The permission bit a user or API key needs for a module (any one of the bits for
 * mount management, which they see read-only); modules without an entry are the
 * administrator's alone, but for the account modules below.
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

/** What every signed-in account has, whatever its grant: its own page and its own keys (not an API key). */
const ACCOUNT_MODULES: readonly AdminModuleId[] = ["profile", "key-management"];

/** Who sees which module: an admin sees all; a user or key the modules its permission bits open. */
export function canUseModule(id: AdminModuleId, caps: Capabilities): boolean {
  if (caps.isAdmin) return true;
  if (caps.isAccount && ACCOUNT_MODULES.includes(id)) return true;
  if (!caps.isScoped) return false;
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
