import { FolderTree, Home, LayoutDashboard, type LucideIcon, Upload } from "lucide-react";
import type { TranslationKey } from "../../i18n";

export interface NavItem {
  to: string;
  label: TranslationKey;
  icon: LucideIcon;
  end?: boolean;
}

/** The top navigation links. */
export const NAV_ITEMS: NavItem[] = [
  { to: "/", label: "nav.home", icon: Home, end: true },
  { to: "/upload", label: "nav.upload", icon: Upload },
  { to: "/mount-explorer", label: "nav.mountExplorer", icon: FolderTree },
  { to: "/admin", label: "nav.admin", icon: LayoutDashboard },
];
