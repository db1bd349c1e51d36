import type { Virtualizer } from "@tanstack/react-virtual";
import { type KeyboardEvent, type RefObject, useEffect, useRef, useState } from "react";
import type { EntryViewProps } from "../components/entry-view-props";
import { entryShortcut, nextEntryIndex } from "../model/grid-keys";

/**
 * The keyboard of the entry grid: one tab stop (the active entry, or the first
 * rendered one), arrow keys, Home and End moving between entries (selecting
 * like a click; with shift a range, with ctrl only the focus), space toggling,
 * ctrl+A selecting all, and the entry shortcuts (Delete, F2, the menu key).
 * A move to an entry outside the rendered window focuses it once the scroll has
 * rendered it.
 */
export function useEntryGridKeys(
  props: EntryViewProps,
  scrollRef: RefObject<HTMLDivElement | null>,
  virtualizer: Virtualizer<HTMLDivElement, Element>,
  columns: number,
) {
  const { view, entries } = props;
  const [active, setActive] = useState(0);
  const pendingFocus = useRef<number | null>(null);
  const rowOf = (index: number) => (view === "grid" ? Math.floor(index / columns) : index);

  const nameButton = (index: number) =>
    scrollRef.current?.querySelector<HTMLElement>(`[data-index="${index}"] [data-name]`) ?? null;
  useEffect(() => {
    if (pendingFocus.current === null) return;
    const button = nameButton(pendingFocus.current);
    if (!button) return;
    pendingFocus.current = null;
    button.focus();
  });

  const items = virtualizer.getVirtualItems();
  const firstRendered = (items[0]?.index ?? 0) * (view === "grid" ? columns : 1);
  const renderedActive = items.some((vi) => rowOf(active) === vi.index);
  const tabStop = active < entries.length && renderedActive ? active : firstRendered;

  const focusEntry = (index: number) => {
    setActive(index);
    const button = nameButton(index);
    if (button) {
      button.focus();
      return;
    }
    pendingFocus.current = index;
    virtualizer.scrollToIndex(rowOf(index));
  };

  const onKeyDown = (e: KeyboardEvent) => {
    const item = (e.target as HTMLElement).closest<HTMLElement>("[data-index]");
    if (!item) return;
    const index = Number(item.dataset.index);
    const entry = entries[index];
    if (!entry) return;
    const toggle = e.ctrlKey || e.metaKey;
    const next = nextEntryIndex(e.key, index, entries.length, view, columns);
    if (next !== null) {
      e.preventDefault();
      focusEntry(next);
      if (!toggle || e.shiftKey) props.onSelect(entries[next]!, { shift: e.shiftKey, toggle: false });
      return;
    }
    if (e.key === " ") {
      // Space selects rather than pressing the name button.
      e.preventDefault();
      props.onSelect(entry, { shift: e.shiftKey, toggle: true });
      return;
    }
    if (toggle && e.key.toLowerCase() === "a") {
      e.preventDefault();
      props.onSelectAll();
      return;
    }
    const shortcut = entryShortcut(e);
    if (shortcut) {
      e.preventDefault();
      const box = item.getBoundingClientRect();
      props.onShortcut(entry, shortcut, { x: box.left + 24, y: box.top + box.height / 2 });
    }
  };

  const onFocus = (e: React.FocusEvent) => {
    const item = (e.target as HTMLElement).closest<HTMLElement>("[data-index]");
    if (item) setActive(Number(item.dataset.index));
  };

  return { tabStop, onKeyDown, onFocus };
}
