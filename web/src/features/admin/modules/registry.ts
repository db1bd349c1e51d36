import {
  Files,
  FileText,
  FolderCog,
  HardDrive,
  Inbox,
  KeyRound,
  Layers,
  LayoutDashboard,
  ListTree,
  type LucideIcon,
  Settings,
  UserRound,
  Users,
} from "lucide-react";
import { type ComponentType, type LazyExoticComponent, lazy } from "react";
import type { AdminModuleId } from "./module-ids";

export interface AdminModuleView {
  icon: LucideIcon;
  Component: LazyExoticComponent<ComponentType>;
}

/**
 * Where each admin module's screen comes from: the module a feature exports
 * from its index, each in a chunk of its own.
 */
export const ADMIN_MODULE_VIEWS: Record<AdminModuleId, AdminModuleView> = {
  dashboard: {
    icon: LayoutDashboard,
    Component: lazy(() => import("../../dashboard").then((m) => ({ default: m.DashboardModule }))),
  },
  "text-management": {
    icon: FileText,
    Component: lazy(() =>
      import("../../text-management").then((m) => ({
        default: m.TextManagementModule,
      })),
    ),
  },
  "file-management": {
    icon: Files,
    Component: lazy(() =>
      import("../../file-management").then((m) => ({
        default: m.FileManagementModule,
      })),
    ),
  },
  "file-requests": {
    icon: Inbox,
    Component: lazy(() =>
      import("../../file-requests").then((m) => ({
        default: m.FileRequestsModule,
      })),
    ),
  },
  collections: {
    icon: Layers,
    Component: lazy(() =>
      import("../../collections").then((m) => ({
        default: m.CollectionsModule,
      })),
    ),
  },
  "storage-config": {
    icon: HardDrive,
    Component: lazy(() =>
      import("../../storage-config").then((m) => ({
        default: m.StorageConfigModule,
      })),
    ),
  },
  "index-management": {
    icon: ListTree,
    Component: lazy(() =>
      import("../../index-management").then((m) => ({
        default: m.IndexManagementModule,
      })),
    ),
  },
  "mount-management": {
    icon: FolderCog,
    Component: lazy(() =>
      import("../../mount-management").then((m) => ({
        default: m.MountManagementModule,
      })),
    ),
  },
  "key-management": {
    icon: KeyRound,
    Component: lazy(() =>
      import("../../api-keys").then((m) => ({
        default: m.KeyManagementModule,
      })),
    ),
  },
  users: {
    icon: Users,
    Component: lazy(() => import("../../users").then((m) => ({ default: m.UsersModule }))),
  },
  settings: {
    icon: Settings,
    Component: lazy(() => import("../../settings").then((m) => ({ default: m.SettingsModule }))),
  },
  profile: {
    icon: UserRound,
    Component: lazy(() => import("../../account").then((m) => ({ default: m.ProfileModule }))),
  },
};
