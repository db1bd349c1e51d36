import {
  Copy,
  Download,
  Eye,
  FolderInput,
  FolderOpen,
  FolderPlus,
  Info,
  Link2,
  Pencil,
  RefreshCw,
  Share2,
  ShoppingBasket,
  SquarePen,
  Trash2,
  Upload,
} from "lucide-react";
import { useTranslation } from "../../../i18n";
import type { FsEntry } from "../api/fs";
import type { MenuItem } from "../components/context-menu";
import { isEditable, normalizePath } from "../model/paths";
import type { ExplorerController } from "./use-explorer";

/**
 * The context menu of an entry (or, for `null`, of the folder's empty space).
 * On an entry that is part of a multiple selection it acts on the whole
 * selection; mounts and virtual folders cannot be renamed, moved or deleted.
 * Actions the principal's permission bits do not allow are left out (the
 * keyboard shortcuts run these same items, so they follow the same rule).
 */
export function useExplorerMenu(x: ExplorerController): (entry: FsEntry | null) => MenuItem[] {
  const { t } = useTranslation();
  const { can } = x;
  return (entry) => {
    if (!entry) {
      const folderItems: MenuItem[] = [];
      if (can.upload)
        folderItems.push(
          {
            id: "mkdir",
            label: t("explorer.newFolder"),
            icon: FolderPlus,
            onSelect: () => x.setDialog({ kind: "mkdir" }),
            disabled: x.listing?.isVirtual,
          },
          {
            id: "upload",
            label: t("explorer.upload"),
            icon: Upload,
            onSelect: () => x.fileInput.current?.click(),
            disabled: x.listing?.isVirtual,
          },
        );
      folderItems.push({
        id: "refresh",
        label: t("common.refresh"),
        icon: RefreshCw,
        onSelect: () => void x.dir.refetch(),
      });
      if (x.listing && !x.listing.isVirtual)
        folderItems.push({
          id: "details",
          label: t("explorer.details.openFolder"),
          icon: Info,
          onSelect: () => x.setDialog({ kind: "details", path: x.path, name: x.listing?.name || x.path }),
        });
      return folderItems;
    }
    const { selected } = x.selection;
    const many = selected.size > 1 && selected.has(entry.path) ? x.selectedEntries : [entry];
    const locked = entry.isMount || entry.isVirtual;
    const items: MenuItem[] = [];
    if (many.length === 1) {
      items.push({
        id: "open",
        label: entry.isDirectory ? t("explorer.open") : t("explorer.preview"),
        icon: entry.isDirectory ? FolderOpen : Eye,
        onSelect: () => x.open(entry),
      });
      if (entry.isDirectory && !locked)
        items.push({
          id: "download",
          label: t("explorer.downloadZip"),
          icon: Download,
          onSelect: () => void x.download(entry),
        });
      if (!entry.isDirectory) {
        items.push({
          id: "download",
          label: t("explorer.download"),
          icon: Download,
          onSelect: () => void x.download(entry),
        });
        if (can.upload && isEditable(entry.name, entry.size, entry.mimetype))
          items.push({
            id: "edit",
            label: t("common.edit"),
            icon: SquarePen,
            onSelect: () => x.setDialog({ kind: "edit", path: normalizePath(entry.path) }),
          });
        items.push({
          id: "link",
          label: t("explorer.getLink"),
          icon: Link2,
          onSelect: () => x.setDialog({ kind: "link", entry }),
        });
        if (can.share)
          items.push({
            id: "share",
            label: t("explorer.share"),
            icon: Share2,
            onSelect: () => x.setDialog({ kind: "share", entry }),
          });
      }
      if (can.share && entry.isDirectory && !locked)
        items.push({
          id: "collection",
          label: t("explorer.shareAsOneLink"),
          icon: Share2,
          onSelect: () => x.setDialog({ kind: "collection", entries: [entry] }),
        });
      items.push({
        id: "details",
        label: t("explorer.details.open"),
        icon: Info,
        onSelect: () => x.setDialog({ kind: "details", path: normalizePath(entry.path), name: entry.name }),
      });
      if (can.rename)
        items.push({
          id: "rename",
          label: t("explorer.rename"),
          icon: Pencil,
          onSelect: () => x.setDialog({ kind: "rename", entry }),
          disabled: locked,
        });
    }
    if (can.share && many.length > 1)
      items.push({
        id: "collection",
        label: t("explorer.shareAsOneLink"),
        icon: Share2,
        onSelect: () => x.setDialog({ kind: "collection", entries: many }),
      });
    if (many.some((e) => !e.isDirectory))
      items.push({
        id: "basket",
        label: t("explorer.addToBasket"),
        icon: ShoppingBasket,
        onSelect: () => x.addToBasket(many),
      });
    if (can.copy)
      items.push({
        id: "copy",
        label: t("explorer.copyTo"),
        icon: Copy,
        onSelect: () => x.setDialog({ kind: "copy", entries: many }),
        disabled: entry.isVirtual,
      });
    if (can.rename)
      items.push({
        id: "move",
        label: t("explorer.moveTo"),
        icon: FolderInput,
        onSelect: () => x.setDialog({ kind: "move", entries: many }),
        disabled: locked,
      });
    if (can.delete)
      items.push({
        id: "delete",
        label: t("common.delete"),
        icon: Trash2,
        danger: true,
        onSelect: () => x.setDialog({ kind: "delete", entries: many }),
        disabled: locked,
      });
    return items;
  };
}
