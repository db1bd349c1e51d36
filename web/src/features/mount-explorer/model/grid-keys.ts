import type { ViewMode } from "../hooks/use-explorer-state";

/**
 * Where an arrow, Home or End key moves the focus in the entry grid: one step
 * in the list and the gallery (read in order), a tile sideways or a row of
 * tiles up and down in the grid view. Null when the key does not move or the
 * move would leave the list (the focus stays where it is).
 */
export function nextEntryIndex(
  key: string,
  index: number,
  count: number,
  view: ViewMode,
  columns: number,
): number | null {
  const vertical = view === "grid" ? Math.max(1, columns) : 1;
  let next: number;
  switch (key) {
    case "ArrowDown":
      next = index + vertical;
      break;
    case "ArrowUp":
      next = index - vertical;
      break;
    case "ArrowRight":
      next = index + 1;
      break;
    case "ArrowLeft":
      next = index - 1;
      break;
    case "Home":
      next = 0;
      break;
    case "End":
      next = count - 1;
      break;
    default:
      return null;
  }
  if (next < 0 || next >= count || next === index) return null;
  return next;
}

/** Keys that act on the focused entry the way its context-menu item does. */
export type EntryShortcut = "delete" | "rename" | "menu";

export function entryShortcut(e: { key: string; shiftKey: boolean }): EntryShortcut | null {
  if (e.key === "Delete") return "delete";
  if (e.key === "F2") return "rename";
  if (e.key === "ContextMenu" || (e.key === "F10" && e.shiftKey)) return "menu";
  return null;
}
