import {
  Files,
  FileText,
  FolderCog,
  HardDrive,
  KeyRound,
  LayoutDashboard,
  type LucideIcon,
  Settings,
} from "lucide-react";
import { type ComponentType, type LazyExoticComponent, lazy } from "react";
import type { AdminModuleId } from "./module-ids";

export interface AdminModuleView {
  icon: LucideIcon;
  Component: LazyExoticComponent<ComponentType>;
}

/**
 * Where each admin module's screen comes from. A feature replaces its entry
 * (features/<area>/components/<area>-module.tsx) when it lands.
 */
export const ADMIN_MODULE_VIEWS: Record<AdminModuleId, AdminModuleView> = {
  dashboard: {
    icon: LayoutDashboard,
    Component: lazy(() =>
      import("../../dashboard/components/dashboard-module").then((m) => ({ default: m.DashboardModule })),
    ),
  },
  "text-management": {
    icon: FileText,
    Component: lazy(() =>
      import("../../text-management/components/text-management-module").then((m) => ({
        default: m.TextManagementModule,
      })),
    ),
  },
  "file-management": {
    icon: Files,
    Component: lazy(() =>
      import("../../file-management/components/file-management-module").then((m) => ({
        default: m.FileManagementModule,
      })),
    ),
  },
  "storage-config": {
    icon: HardDrive,
    Component: lazy(() =>
      import("../../storage-config/components/storage-config-module").then((m) => ({
        default: m.StorageConfigModule,
      })),
    ),
  },
  "mount-management": {
    icon: FolderCog,
    Component: lazy(() =>
      import("../../mount-management/components/mount-management-module").then((m) => ({
        default: m.MountManagementModule,
      })),
    ),
  },
  "key-management": {
    icon: KeyRound,
    Component: lazy(() =>
      import("../../api-keys/components/key-management-module").then((m) => ({
        default: m.KeyManagementModule,
      })),
    ),
  },
  settings: {
    icon: Settings,
    Component: lazy(() =>
      import("../../settings/components/settings-module").then((m) => ({ default: m.SettingsModule })),
    ),
  },
};
