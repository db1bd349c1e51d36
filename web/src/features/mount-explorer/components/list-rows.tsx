import type { VirtualItem } from "@tanstack/react-virtual";
import { ArrowDown, ArrowUp } from "lucide-react";
import { useTranslation } from "../../../i18n";
import { cn } from "../../../lib/cn";
import { formatDateTime } from "../../../lib/format";
import { EntryIcon, EntryItem, EntrySize, NameButton } from "./entry-parts";
import type { EntryViewProps } from "./entry-view-props";

export const LIST_ROW_HEIGHT = 44;

/** The list view's column headers, each a button that sorts by its column. */
export function ListHeader({ props }: { props: EntryViewProps }) {
  const { t } = useTranslation();
  return (
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
  );
}

/** One entry of the list view: icon and name, size, modification time. */
export function ListRow({ props, vi, tabStop }: { props: EntryViewProps; vi: VirtualItem; tabStop: number }) {
  const { i18n } = useTranslation();
  const entry = props.entries[vi.index]!;
  return (
    <EntryItem
      props={props}
      index={vi.index}
      style={{
        position: "absolute",
        top: 0,
        left: 0,
        right: 0,
        height: LIST_ROW_HEIGHT,
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
