import { useCallback, useEffect, useMemo, useState } from "react";
import type { FsEntry } from "../api/fs";
import {
  clickSelect,
  contextSelect,
  EMPTY_SELECTION,
  pruneSelection,
  type Selection,
  selectAll,
} from "../model/selection";

/**
 * Which entries of the folder are selected (rules in model/selection.ts). A
 * new folder starts with none; entries that leave the listing leave the
 * selection.
 */
export function useExplorerSelection(path: string, entries: FsEntry[]) {
  const [selection, setSelection] = useState<Selection>(EMPTY_SELECTION);
  const order = useMemo(() => entries.map((e) => e.path), [entries]);
  const byPath = useMemo(() => new Map(entries.map((e) => [e.path, e])), [entries]);
  const selectedEntries = useMemo(
    () => [...selection.selected].map((p) => byPath.get(p)).filter((e): e is FsEntry => e !== undefined),
    [selection, byPath],
  );

  useEffect(() => setSelection((s) => pruneSelection(s, order)), [order]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new folder starts without a selection
  useEffect(() => setSelection(EMPTY_SELECTION), [path]);

  const onSelect = useCallback(
    (entry: FsEntry, mods: { shift: boolean; toggle: boolean }) =>
      setSelection((s) => clickSelect(s, order, entry.path, mods)),
    [order],
  );
  /** The entry a menu opens on joins the selection unless it is already part of it. */
  const selectForMenu = useCallback(
    (entry: FsEntry) => setSelection((s) => contextSelect(s, entry.path)),
    [],
  );

  return {
    selection,
    selectedEntries,
    onSelect,
    selectForMenu,
    selectAll: () => setSelection(selectAll(order)),
    clearSelection: () => setSelection(EMPTY_SELECTION),
  };
}
