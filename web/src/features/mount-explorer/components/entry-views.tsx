import { useVirtualizer } from "@tanstack/react-virtual";
import { ArrowDown, ArrowUp } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "../../../i18n";
import { cn } from "../../../lib/cn";
import { formatDateTime } from "../../../lib/format";
import { useWidth } from "../hooks/use-width";
import { entryShortcut, nextEntryIndex } from "../model/grid-keys";
import { EntryIcon, EntryItem, EntrySize, GalleryTile, NameButton } from "./entry-parts";
import { EntryThumbnail } from "./entry-thumbnail";
import type { EntryViewProps } from "./entry-view-props";

const ROW_HEIGHT = 44;

/**
 * List, grid or masonry gallery, as an ARIA grid: rows (or, in the grid view,
 * tiles) carry the selection, and the name button is each entry's one control.
 * Arrow keys, Home and End move between entries (selecting like a click; with
 * shift a range, with ctrl only the focus), space toggles, ctrl+A selects all.
 * Only the visible part is in the DOM.
 */
export function EntryView(props: EntryViewProps) {
  const { t, i18n } = useTranslation();
  const scrollRef = useRef<HTMLDivElement>(null);
  const width = useWidth(scrollRef);
  const { view, entries } = props;
  const columns =
    view === "list" ? 1 : Math.max(1, Math.floor((width || 320) / (view === "grid" ? 150 : 220)));
  const gridRows = view === "grid" ? Math.ceil(entries.length / columns) : entries.length;
  const count = view === "gallery" ? entries.length : gridRows;
  // The entry that holds the grid's one tab stop, and the one to focus once it is rendered.
  const [active, setActive] = useState(0);
  const pendingFocus = useRef<number | null>(null);

  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => (view === "list" ? ROW_HEIGHT : view === "grid" ? 150 : 200),
    overscan: view === "list" ? 10 : 4,
    lanes: view === "gallery" ? columns : 1,
  });
  const items = virtualizer.getVirtualItems();
  const last = items[items.length - 1];

  // More pages as the end comes into view.
  const lastIndex = last?.index ?? -1;
  const lastEntryIndex = view === "grid" ? (lastIndex + 1) * columns : lastIndex;
  useEffect(() => {
    if (props.hasMore && !props.loadingMore && lastEntryIndex >= entries.length - 60) props.onLoadMore();
  }, [props.hasMore, props.loadingMore, lastEntryIndex, entries.length, props.onLoadMore]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: re-measure when the layout changes
  useEffect(() => {
    virtualizer.measure();
  }, [view, columns, virtualizer]);

  const nameButton = (index: number) =>
    scrollRef.current?.querySelector<HTMLElement>(`[data-index="${index}"] [data-name]`) ?? null;
  // A key move to an entry outside the rendered window focuses it once the scroll has rendered it.
  useEffect(() => {
    if (pendingFocus.current === null) return;
    const button = nameButton(pendingFocus.current);
    if (!button) return;
    pendingFocus.current = null;
    button.focus();
  });

  const firstRendered = (items[0]?.index ?? 0) * (view === "grid" ? columns : 1);
  const renderedActive = items.some((vi) =>
    view === "grid" ? Math.floor(active / columns) === vi.index : vi.index === active,
  );
  const tabStop = active < entries.length && renderedActive ? active : firstRendered;

  const focusEntry = (index: number) => {
    setActive(index);
    const button = nameButton(index);
    if (button) {
      button.focus();
      return;
    }
    pendingFocus.current = index;
    virtualizer.scrollToIndex(view === "grid" ? Math.floor(index / columns) : index);
  };

  const onKeyDown = (e: React.KeyboardEvent) => {
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

  const header =
    view === "list" ? (
      <div
        role="row"
        aria-rowindex={1}
        className="sticky top-0 z-10 hidden grid-cols-[minmax(0,1fr)_7rem_11rem] gap-3 border-b border-slate-200 bg-white px-3 py-2 text-xs font-medium text-slate-500 sm:grid dark:border-slate-800 dark:bg-slate-900 dark:text-slate-400"
      >
        {(["name", "size", "modified"] as const).map((key) => (
          <span
            key={key}
            role="columnheader"
            aria-sort={
              props.sort.key === key ? (props.sort.dir === "asc" ? "ascending" : "descending") : undefined
            }
            className={cn("flex", key !== "name" && "justify-end")}
          >
            <button
              type="button"
              onClick={() => props.onSort(key)}
              className="flex items-center gap-1 text-left hover:text-slate-900 dark:hover:text-slate-100"
              aria-label={t("explorer.sortBy", { key: t(`explorer.sort.${key}`) })}
              title={t("explorer.sortBy", { key: t(`explorer.sort.${key}`) })}
            >
              {t(`explorer.sort.${key}`)}
              {props.sort.key === key ? (
                props.sort.dir === "asc" ? (
                  <ArrowUp className="h-3 w-3" aria-hidden />
                ) : (
                  <ArrowDown className="h-3 w-3" aria-hidden />
                )
              ) : null}
            </button>
          </span>
        ))}
      </div>
    ) : null;

  return (
    <>
      <div
        ref={scrollRef}
        role="grid"
        aria-multiselectable
        aria-label={props.label}
        aria-rowcount={props.hasMore ? -1 : (view === "grid" ? gridRows : entries.length) + (header ? 1 : 0)}
        data-view={view}
        data-testid="entry-scroll"
        className="relative h-[max(20rem,calc(100dvh-17rem))] overflow-auto rounded-xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900"
        onKeyDown={onKeyDown}
        onFocus={(e) => {
          const item = (e.target as HTMLElement).closest<HTMLElement>("[data-index]");
          if (item) setActive(Number(item.dataset.index));
        }}
        onContextMenu={(e) => {
          e.preventDefault();
          props.onMenu(null, { x: e.clientX, y: e.clientY });
        }}
      >
        {header}
        <div role="rowgroup" style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
          {items.map((vi) => {
            if (view === "list") {
              const entry = entries[vi.index]!;
              return (
                <EntryItem
                  key={entry.path}
                  entry={entry}
                  props={props}
                  role="row"
                  index={vi.index}
                  style={{
                    position: "absolute",
                    top: 0,
                    left: 0,
                    right: 0,
                    height: ROW_HEIGHT,
                    transform: `translateY(${vi.start}px)`,
                  }}
                  className="grid grid-cols-[minmax(0,1fr)_auto] items-center gap-3 border-b border-slate-100 px-3 text-sm sm:grid-cols-[minmax(0,1fr)_7rem_11rem] dark:border-slate-800"
                >
                  <span role="gridcell" className="flex min-w-0 items-center gap-2">
                    <EntryIcon entry={entry} className="h-4 w-4 shrink-0" />
                    <NameButton entry={entry} onOpen={props.onOpen} focusable={vi.index === tabStop} />
                  </span>
                  {/* Slate-600, not 500: the details must stay readable on a selected (tinted) row. */}
                  <EntrySize
                    entry={entry}
                    role="gridcell"
                    className="text-right text-xs text-slate-600 tabular-nums dark:text-slate-400"
                  />
                  <span
                    role="gridcell"
                    className="hidden text-right text-xs text-slate-600 tabular-nums sm:block dark:text-slate-400"
                  >
                    {entry.modified ? formatDateTime(entry.modified, i18n.language) : ""}
                  </span>
                </EntryItem>
              );
            }
            if (view === "grid") {
              const row = entries.slice(vi.index * columns, vi.index * columns + columns);
              return (
                <div
                  key={vi.key}
                  role="row"
                  aria-rowindex={vi.index + 1}
                  className="absolute left-0 grid w-full gap-2 p-1"
                  style={{
                    top: 0,
                    height: 150,
                    transform: `translateY(${vi.start}px)`,
                    gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`,
                  }}
                >
                  {row.map((entry, i) => {
                    const index = vi.index * columns + i;
                    return (
                      <EntryItem
                        key={entry.path}
                        entry={entry}
                        props={props}
                        role="gridcell"
                        index={index}
                        className="flex flex-col items-center justify-center gap-2 rounded-lg p-2 text-center text-xs"
                      >
                        <EntryThumbnail entry={entry} className="h-16 w-full object-contain">
                          <EntryIcon entry={entry} className="h-12 w-12" />
                        </EntryThumbnail>
                        <NameButton entry={entry} onOpen={props.onOpen} focusable={index === tabStop} />
                        <EntrySize entry={entry} className="text-slate-600 dark:text-slate-400" />
                      </EntryItem>
                    );
                  })}
                </div>
              );
            }
            const entry = entries[vi.index]!;
            const laneWidth = (width || 320) / columns;
            return (
              <EntryItem
                key={entry.path}
                entry={entry}
                props={props}
                role="row"
                index={vi.index}
                measure={virtualizer.measureElement}
                style={{
                  position: "absolute",
                  top: 0,
                  left: vi.lane * laneWidth,
                  width: laneWidth,
                  transform: `translateY(${vi.start}px)`,
                }}
                className="p-1"
              >
                <div role="gridcell">
                  <GalleryTile entry={entry} onOpen={props.onOpen} focusable={vi.index === tabStop} />
                </div>
              </EntryItem>
            );
          })}
        </div>
      </div>
      {props.loadingMore ? (
        <p className="p-3 text-center text-xs text-slate-600 dark:text-slate-400" role="status">
          {t("common.loading")}
        </p>
      ) : null}
    </>
  );
}
