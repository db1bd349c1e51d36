import type { VirtualItem } from "@tanstack/react-virtual";
import { EntryIcon, EntryItem, EntrySize, GalleryTile, NameButton } from "./entry-parts";
import { EntryThumbnail } from "./entry-thumbnail";
import type { EntryViewProps } from "./entry-view-props";

export const GRID_ROW_HEIGHT = 150;

/** One row of the grid view: `columns` tiles of thumbnail (or icon), name and size. */
export function GridRow({
  props,
  vi,
  tabStop,
  columns,
}: {
  props: EntryViewProps;
  vi: VirtualItem;
  tabStop: number;
  columns: number;
}) {
  const row = props.entries.slice(vi.index * columns, vi.index * columns + columns);
  return (
    <div
      role="row"
      aria-rowindex={vi.index + 1}
      className="absolute left-0 grid w-full gap-2 p-1"
      style={{
        top: 0,
        height: GRID_ROW_HEIGHT,
        transform: `translateY(${vi.start}px)`,
        gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`,
      }}
    >
      {row.map((entry, i) => {
        const index = vi.index * columns + i;
        return (
          <EntryItem
            key={entry.path}
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

/** One tile of the masonry gallery, in its lane; its height is measured once drawn. */
export function GalleryItem({
  props,
  vi,
  tabStop,
  laneWidth,
  measure,
}: {
  props: EntryViewProps;
  vi: VirtualItem;
  tabStop: number;
  laneWidth: number;
  measure: (el: Element | null) => void;
}) {
  const entry = props.entries[vi.index]!;
  return (
    <EntryItem
      props={props}
      index={vi.index}
      measure={measure}
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
}
