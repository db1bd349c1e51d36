import type { FsEntry } from "../api/fs";
import type { ViewMode } from "../hooks/use-explorer-state";
import type { Point } from "../model/gesture";
import type { EntryShortcut } from "../model/grid-keys";
import type { SortDir, SortKey } from "../model/sort";

/** What the list, grid and gallery views take (entry-view.tsx), shared with their parts. */
export interface EntryViewProps {
  view: ViewMode;
  entries: FsEntry[];
  selected: ReadonlySet<string>;
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
  onSelect: (entry: FsEntry, mods: { shift: boolean; toggle: boolean }) => void;
  onSelectAll: () => void;
  onOpen: (entry: FsEntry) => void;
  onMenu: (entry: FsEntry | null, at: Point) => void;
  /** Delete, F2 and the menu key on the focused entry. */
  onShortcut: (entry: FsEntry, shortcut: EntryShortcut, at: Point) => void;
  sort: { key: SortKey; dir: SortDir };
  onSort: (key: SortKey) => void;
  label: string;
}
