import { useState } from "react";
import type { FsEntry } from "../api/fs";
import type { Point } from "../model/gesture";

export type DialogState =
  | { kind: "mkdir" }
  | { kind: "rename"; entry: FsEntry }
  | { kind: "delete"; entries: FsEntry[] }
  | { kind: "copy" | "move"; entries: FsEntry[] }
  | { kind: "link"; entry: FsEntry }
  | { kind: "share"; entry: FsEntry }
  | { kind: "collection"; entries: FsEntry[] }
  | { kind: "edit"; path: string }
  | { kind: "details"; path: string; name: string }
  | null;

export type SidePanel = "tasks" | "basket" | "uploads" | null;

export interface OpenMenu {
  at: Point;
  /** The entry the menu is about, or null for the folder's own menu. */
  entry: FsEntry | null;
}

/** What floats over the listing or beside it: the context menu, one dialog, one side panel. */
export function useExplorerDialogs() {
  const [menu, setMenu] = useState<OpenMenu | null>(null);
  const [dialog, setDialog] = useState<DialogState>(null);
  const [panel, setPanel] = useState<SidePanel>(null);
  return {
    menu,
    openMenu: setMenu,
    closeMenu: () => setMenu(null),
    dialog,
    setDialog,
    panel,
    setPanel,
  };
}
