import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useRef } from "react";
import { useTranslation } from "../../../i18n";
import { useEntryGridKeys } from "../hooks/use-entry-grid-keys";
import { useWidth } from "../hooks/use-width";
import type { EntryViewProps } from "./entry-view-props";
import { LIST_ROW_HEIGHT, ListHeader, ListRow } from "./list-rows";
import { GalleryItem, GRID_ROW_HEIGHT, GridRow } from "./tile-rows";

/**
 * List, grid or masonry gallery, as an ARIA grid: rows (or, in the grid view,
 * tiles) carry the selection, and the name button is each entry's one control
 * (keys: use-entry-grid-keys.ts). Only the visible part is in the DOM; more
 * pages load as the end comes into view.
 */
export function EntryView(props: EntryViewProps) {
  const { t } = useTranslation();
  const scrollRef = useRef<HTMLDivElement>(null);
  const width = useWidth(scrollRef);
  const { view, entries } = props;
  const columns =
    view === "list" ? 1 : Math.max(1, Math.floor((width || 320) / (view === "grid" ? 150 : 220)));
  const gridRows = view === "grid" ? Math.ceil(entries.length / columns) : entries.length;

  const virtualizer = useVirtualizer({
    count: view === "gallery" ? entries.length : gridRows,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => (view === "list" ? LIST_ROW_HEIGHT : view === "grid" ? GRID_ROW_HEIGHT : 200),
    overscan: view === "list" ? 10 : 4,
    lanes: view === "gallery" ? columns : 1,
  });
  const keys = useEntryGridKeys(props, scrollRef, virtualizer, columns);
  const items = virtualizer.getVirtualItems();

  const lastIndex = items[items.length - 1]?.index ?? -1;
  const lastEntryIndex = view === "grid" ? (lastIndex + 1) * columns : lastIndex;
  useEffect(() => {
    if (props.hasMore && !props.loadingMore && lastEntryIndex >= entries.length - 60) props.onLoadMore();
  }, [props.hasMore, props.loadingMore, lastEntryIndex, entries.length, props.onLoadMore]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: re-measure when the layout changes
  useEffect(() => {
    virtualizer.measure();
  }, [view, columns, virtualizer]);

  const hasHeader = view === "list";
  return (
    <>
      <div
        ref={scrollRef}
        role="grid"
        aria-multiselectable
        aria-label={props.label}
        aria-rowcount={props.hasMore ? -1 : gridRows + (hasHeader ? 1 : 0)}
        data-view={view}
        data-testid="entry-scroll"
        className="relative h-[max(20rem,calc(100dvh-17rem))] overflow-auto rounded-xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900"
        onKeyDown={keys.onKeyDown}
        onFocus={keys.onFocus}
        onContextMenu={(e) => {
          e.preventDefault();
          props.onMenu(null, { x: e.clientX, y: e.clientY });
        }}
      >
        {hasHeader ? <ListHeader props={props} /> : null}
        <div role="rowgroup" style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
          {items.map((vi) =>
            view === "list" ? (
              <ListRow key={entries[vi.index]!.path} props={props} vi={vi} tabStop={keys.tabStop} />
            ) : view === "grid" ? (
              <GridRow key={vi.key} props={props} vi={vi} tabStop={keys.tabStop} columns={columns} />
            ) : (
              <GalleryItem
                key={entries[vi.index]!.path}
                props={props}
                vi={vi}
                tabStop={keys.tabStop}
                laneWidth={(width || 320) / columns}
                measure={virtualizer.measureElement}
              />
            ),
          )}
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
