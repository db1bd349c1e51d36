import { useVirtualizer } from "@tanstack/react-virtual";
import {
  ArrowDown,
  ArrowUp,
  File,
  FileArchive,
  FileAudio,
  FileCode,
  FileImage,
  FileSpreadsheet,
  FileText,
  FileVideo,
  Folder,
  HardDrive,
} from "lucide-react";
import { type ReactNode, useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { cn } from "../../../lib/cn";
import { formatBytes } from "../../../lib/file-size";
import { formatDateTime } from "../../../lib/format";
import type { FsEntry } from "../api/fs";
import type { ViewMode } from "../hooks/use-explorer-state";
import { useLongPress } from "../hooks/use-long-press";
import { useWidth } from "../hooks/use-width";
import type { Point } from "../model/gesture";
import { extensionOf, fileKind } from "../model/paths";
import type { SortDir, SortKey } from "../model/sort";
import { EntryThumbnail } from "./entry-thumbnail";

export interface EntryViewProps {
  view: ViewMode;
  entries: FsEntry[];
  selected: ReadonlySet<string>;
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
  onSelect: (entry: FsEntry, mods: { shift: boolean; toggle: boolean }) => void;
  onOpen: (entry: FsEntry) => void;
  onMenu: (entry: FsEntry | null, at: Point) => void;
  sort: { key: SortKey; dir: SortDir };
  onSort: (key: SortKey) => void;
  label: string;
}

export function EntryIcon({ entry, className }: { entry: FsEntry; className?: string }) {
  if (entry.isDirectory) {
    const Icon = entry.isMount ? HardDrive : Folder;
    return <Icon className={cn("text-amber-500", className)} aria-hidden />;
  }
  const ext = extensionOf(entry.name);
  const kind = fileKind(entry.name, entry.mimetype);
  const Icon =
    kind === "image"
      ? FileImage
      : kind === "video"
        ? FileVideo
        : kind === "audio"
          ? FileAudio
          : kind === "markdown" || kind === "pdf"
            ? FileText
            : kind === "text"
              ? FileCode
              : kind === "office"
                ? FileSpreadsheet
                : ["zip", "gz", "tar", "7z", "rar"].includes(ext)
                  ? FileArchive
                  : File;
  return <Icon className={cn("text-slate-500 dark:text-slate-400", className)} aria-hidden />;
}

function EntryItem({
  entry,
  props,
  className,
  style,
  children,
  measure,
  index,
}: {
  entry: FsEntry;
  props: EntryViewProps;
  className: string;
  style?: React.CSSProperties;
  children: ReactNode;
  measure?: (el: HTMLElement | null) => void;
  index: number;
}) {
  const selected = props.selected.has(entry.path);
  const press = useLongPress((at) => props.onMenu(entry, at));
  return (
    <div
      ref={measure}
      data-index={index}
      role="option"
      aria-selected={selected}
      data-entry={entry.name}
      tabIndex={-1}
      style={style}
      className={cn(
        "cursor-default select-none",
        selected
          ? "bg-indigo-50 ring-1 ring-indigo-300 ring-inset dark:bg-indigo-950/60 dark:ring-indigo-700"
          : "hover:bg-slate-50 dark:hover:bg-slate-800/60",
        className,
      )}
      onClick={(e) => {
        if (press.consumeFired()) return;
        props.onSelect(entry, { shift: e.shiftKey, toggle: e.ctrlKey || e.metaKey });
      }}
      onDoubleClick={() => props.onOpen(entry)}
      onKeyDown={(e) => {
        if (e.key === "Enter") props.onOpen(entry);
      }}
      onContextMenu={(e) => {
        e.preventDefault();
        e.stopPropagation();
        props.onMenu(entry, { x: e.clientX, y: e.clientY });
      }}
      onPointerDown={press.onPointerDown}
      onPointerMove={press.onPointerMove}
      onPointerUp={press.onPointerUp}
      onPointerCancel={press.onPointerCancel}
    >
      {children}
    </div>
  );
}

function NameButton({ entry, onOpen }: { entry: FsEntry; onOpen: (entry: FsEntry) => void }) {
  return (
    <button
      type="button"
      className="min-w-0 truncate text-left font-medium text-slate-900 hover:text-indigo-600 hover:underline dark:text-slate-100 dark:hover:text-indigo-300"
      onClick={(e) => {
        if (e.shiftKey || e.ctrlKey || e.metaKey) return;
        e.stopPropagation();
        onOpen(entry);
      }}
      title={entry.name}
    >
      {entry.name}
    </button>
  );
}

const ROW_HEIGHT = 44;

/** List, grid or masonry gallery; only the visible part is in the DOM. */
export function EntryView(props: EntryViewProps) {
  const { t, i18n } = useTranslation();
  const scrollRef = useRef<HTMLDivElement>(null);
  const width = useWidth(scrollRef);
  const { view, entries } = props;
  const columns =
    view === "list" ? 1 : Math.max(1, Math.floor((width || 320) / (view === "grid" ? 150 : 220)));
  const gridRows = view === "grid" ? Math.ceil(entries.length / columns) : entries.length;
  const count = view === "gallery" ? entries.length : gridRows;

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

  const header =
    view === "list" ? (
      <div className="sticky top-0 z-10 hidden grid-cols-[minmax(0,1fr)_7rem_11rem] gap-3 border-b border-slate-200 bg-white px-3 py-2 text-xs font-medium text-slate-500 sm:grid dark:border-slate-800 dark:bg-slate-900 dark:text-slate-400">
        {(["name", "size", "modified"] as const).map((key) => (
          <button
            key={key}
            type="button"
            onClick={() => props.onSort(key)}
            className={cn(
              "flex items-center gap-1 text-left hover:text-slate-900 dark:hover:text-slate-100",
              key !== "name" && "justify-end",
            )}
            aria-label={t("explorer.sortBy", { key: t(`explorer.sort.${key}`) })}
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
        ))}
      </div>
    ) : null;

  return (
    <div
      ref={scrollRef}
      data-testid="entry-scroll"
      className="relative h-[max(20rem,calc(100dvh-17rem))] overflow-auto rounded-xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900"
      onContextMenu={(e) => {
        e.preventDefault();
        props.onMenu(null, { x: e.clientX, y: e.clientY });
      }}
    >
      {header}
      <div
        role="listbox"
        aria-multiselectable
        aria-label={props.label}
        data-view={view}
        style={{ height: virtualizer.getTotalSize(), position: "relative" }}
      >
        {items.map((vi) => {
          if (view === "list") {
            const entry = entries[vi.index]!;
            return (
              <EntryItem
                key={entry.path}
                entry={entry}
                props={props}
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
                <span className="flex min-w-0 items-center gap-2">
                  <EntryIcon entry={entry} className="h-4 w-4 shrink-0" />
                  <NameButton entry={entry} onOpen={props.onOpen} />
                </span>
                <span className="text-right text-xs text-slate-500 tabular-nums dark:text-slate-400">
                  {entry.isDirectory ? "" : formatBytes(entry.size)}
                </span>
                <span className="hidden text-right text-xs text-slate-500 tabular-nums sm:block dark:text-slate-400">
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
                className="absolute left-0 grid w-full gap-2 p-1"
                style={{
                  top: 0,
                  height: 150,
                  transform: `translateY(${vi.start}px)`,
                  gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`,
                }}
              >
                {row.map((entry, i) => (
                  <EntryItem
                    key={entry.path}
                    entry={entry}
                    props={props}
                    index={vi.index * columns + i}
                    className="flex flex-col items-center justify-center gap-2 rounded-lg p-2 text-center text-xs"
                  >
                    <EntryThumbnail entry={entry} className="h-16 w-full object-contain">
                      <EntryIcon entry={entry} className="h-12 w-12" />
                    </EntryThumbnail>
                    <NameButton entry={entry} onOpen={props.onOpen} />
                    <span className="text-slate-500">{entry.isDirectory ? "" : formatBytes(entry.size)}</span>
                  </EntryItem>
                ))}
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
              <GalleryTile entry={entry} onOpen={props.onOpen} />
            </EntryItem>
          );
        })}
      </div>
      {props.loadingMore ? (
        <p className="p-3 text-center text-xs text-slate-500" role="status">
          {t("common.loading")}
        </p>
      ) : null}
    </div>
  );
}

/** A masonry tile: images and videos show their thumbnail at its own aspect ratio, others an icon card. */
function GalleryTile({ entry, onOpen }: { entry: FsEntry; onOpen: (entry: FsEntry) => void }) {
  return (
    <div className="overflow-hidden rounded-lg border border-slate-200 bg-slate-50 dark:border-slate-800 dark:bg-slate-800/50">
      <EntryThumbnail entry={entry} className="block w-full">
        <div className="flex h-28 items-center justify-center">
          <EntryIcon entry={entry} className="h-10 w-10" />
        </div>
      </EntryThumbnail>
      <div className="flex items-center gap-1 px-2 py-1.5 text-xs">
        <NameButton entry={entry} onOpen={onOpen} />
      </div>
    </div>
  );
}
