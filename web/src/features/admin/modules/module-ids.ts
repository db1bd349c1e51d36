import type { TranslationKey } from "../../../i18n";
import type { Capabilities } from "../../../lib/auth-store";

/** The admin panel's modules, in sidebar order. Dashboard is the default. */
export const ADMIN_MODULE_IDS = [
  "dashboard",
  "text-management",
  "file-management",
  "storage-config",
  "mount-management",
  "key-management",
  "settings",
] as const;

export type AdminModuleId = (typeof ADMIN_MODULE_IDS)[number];

export const ADMIN_MODULE_TITLES: Record<AdminModuleId, TranslationKey> = {
  dashboard: "admin.modules.dashboard",
  "text-management": "admin.modules.textManagement",
  "file-management": "admin.modules.fileManagement",
  "storage-config": "admin.modules.storageConfig",
  "mount-management": "admin.modules.mountManagement",
  "key-management": "admin.modules.keyManagement",
  settings: "admin.modules.settings",
};

/**
 * Who sees which module: an admin sees all; an API-key user sees text management
 * with TEXT, file management with FILE_SHARE and (read-only) mount management with
 * any mount bit.
 */
export function canUseModule(id: AdminModuleId, caps: Capabilities): boolean {
  if (caps.isAdmin) return true;
  if (!caps.isApiKey) return false;
  switch (id) {
    case "text-management":
      return caps.text;
    case "file-management":
      return caps.file;
    case "mount-management":
      return caps.mount;
    default:
      return false;
  }
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
