import {
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
import type { ReactNode } from "react";
import { cn } from "../../../lib/cn";
import { formatBytes } from "../../../lib/file-size";
import type { FsEntry } from "../api/fs";
import { useFolderContents } from "../hooks/use-folder-contents";
import { useLongPress } from "../hooks/use-long-press";
import { extensionOf, fileKind } from "../model/paths";
import { EntryThumbnail } from "./entry-thumbnail";
import type { EntryViewProps } from "./entry-view-props";

/**
 * A file's size; a folder's is known only where its mount has a search index (the listing then
 * carries the bytes and counts below it), else left blank.
 */
export function EntrySize({
  entry,
  role,
  className,
}: {
  entry: FsEntry;
  role?: "gridcell";
  className?: string;
}) {
  const contents = useFolderContents();
  const folder = entry.isDirectory && entry.folderSize !== undefined;
  return (
    <span
      role={role}
      className={className}
      data-folder-size={folder ? entry.folderSize : undefined}
      title={folder ? contents(entry) : undefined}
    >
      {entry.isDirectory ? (folder ? formatBytes(entry.folderSize) : "") : formatBytes(entry.size)}
    </span>
  );
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
                : kind === "archive" || ["gz", "7z", "rar"].includes(ext)
                  ? FileArchive
                  : File;
  return <Icon className={cn("text-slate-500 dark:text-slate-400", className)} aria-hidden />;
}

/**
 * One entry: a grid row (list and gallery) or a grid cell (a tile of the grid
 * view), selected by click, ctrl/shift-click or long-press. Its only control
 * is the name button, so nothing interactive sits inside another.
 */
export function EntryItem({
  props,
  role = "row",
  className,
  style,
  children,
  measure,
  index,
}: {
  props: EntryViewProps;
  /** A row of the list and gallery views, or a cell of a grid row. */
  role?: "row" | "gridcell";
  className: string;
  style?: React.CSSProperties;
  children: ReactNode;
  measure?: (el: HTMLElement | null) => void;
  /** The entry's place in `props.entries`. */
  index: number;
}) {
  const entry = props.entries[index]!;
  const selected = props.selected.has(entry.path);
  const press = useLongPress((at) => props.onMenu(entry, at));
  return (
    <div
      ref={measure}
      data-index={index}
      role={role}
      aria-selected={selected}
      aria-rowindex={role === "row" ? index + 2 : undefined}
      data-entry={entry.name}
      style={style}
      className={cn(
        "cursor-default select-none",
        selected
          ? "bg-indigo-50 ring-1 ring-indigo-300 ring-inset dark:bg-indigo-950/60 dark:ring-indigo-700"
          : "hover:bg-slate-50 dark:hover:bg-slate-800/60",
        className,
      )}
      onClickCapture={(e) => {
        // A phone in selection mode: a tap adds or removes the entry (as in phone file
        // managers), never opens it or drops the rest of the selection.
        if ((e.nativeEvent as PointerEvent).pointerType !== "touch" || props.selected.size === 0) return;
        e.stopPropagation();
        e.preventDefault();
        if (!press.consumeFired()) props.onSelect(entry, { shift: false, toggle: true });
      }}
      onClick={(e) => {
        if (press.consumeFired()) return;
        props.onSelect(entry, { shift: e.shiftKey, toggle: e.ctrlKey || e.metaKey });
        // Arrow keys continue from the entry just clicked.
        e.currentTarget.querySelector<HTMLElement>("[data-name]")?.focus({ preventScroll: true });
      }}
      onDoubleClick={() => props.onOpen(entry)}
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

interface EntryNameProps {
  entry: FsEntry;
  onOpen: (entry: FsEntry) => void;
  /** Holds the grid's one tab stop. */
  focusable: boolean;
}

/** The entry's name, which opens it. */
export function NameButton({ entry, onOpen, focusable }: EntryNameProps) {
  return (
    <button
      type="button"
      data-name
      tabIndex={focusable ? 0 : -1}
      className="min-w-0 truncate rounded text-left font-medium text-slate-900 hover:text-indigo-600 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-slate-100 dark:hover:text-indigo-300"
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

/** A masonry tile: images show themselves at their own aspect ratio, others an icon card. */
export function GalleryTile({ entry, onOpen, focusable }: EntryNameProps) {
  return (
    <div className="overflow-hidden rounded-lg border border-slate-200 bg-slate-50 dark:border-slate-800 dark:bg-slate-800/50">
      <EntryThumbnail entry={entry} className="block w-full">
        <div className="flex h-28 items-center justify-center">
          <EntryIcon entry={entry} className="h-10 w-10" />
        </div>
      </EntryThumbnail>
      <div className="flex items-center gap-1 px-2 py-1.5 text-xs">
        <NameButton entry={entry} onOpen={onOpen} focusable={focusable} />
      </div>
    </div>
  );
}
