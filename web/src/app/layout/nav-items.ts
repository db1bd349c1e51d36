import { FolderTree, Home, LayoutDashboard, type LucideIcon, Upload } from "lucide-react";
import type { TranslationKey } from "../../i18n";
import type { Capabilities } from "../../lib/auth-state";

export interface NavItem {
  to: string;
  label: TranslationKey;
  icon: LucideIcon;
  end?: boolean;
  /** The permission a signed-in principal needs for the page to be of use. */
  needs?: "file" | "mount";
}

/** The top navigation links. */
export const NAV_ITEMS: NavItem[] = [
  { to: "/", label: "nav.home", icon: Home, end: true },
  { to: "/upload", label: "nav.upload", icon: Upload, needs: "file" },
  { to: "/mount-explorer", label: "nav.mountExplorer", icon: FolderTree, needs: "mount" },
  { to: "/admin", label: "nav.admin", icon: LayoutDashboard },
];

/**
 * The links worth showing: a signed-in principal does not see pages it has no
 * permission for; a visitor sees them all (they ask to sign in).
 */
export function navItemsFor(caps: Capabilities): NavItem[] {
  return NAV_ITEMS.filter((item) => !caps.isAuthenticated || !item.needs || caps[item.needs]);
}
