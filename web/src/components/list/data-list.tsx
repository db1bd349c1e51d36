import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { useTranslation } from "../../i18n";
import { cn } from "../../lib/cn";
import { Button, buttonClasses } from "../ui/button";
import { SelectCheckbox } from "./select-checkbox";
import type { RowSelection } from "./use-list-state";

export type DataListProps<T extends { id: string | number }> = Parameters<typeof DataList<T>>[0];

export interface ListColumn<T> {
  id: string;
  header: ReactNode;
  cell: (row: T) => ReactNode;
  /** Classes of the table cell (widths, wrapping). */
  className?: string;
  /** The column that names the row: a row header in the table, the title of a card. */
  primary?: boolean;
  /** Left out of the card (the card's title already shows it). */
  cardHidden?: boolean;
}

export interface RowAction {
  id: string;
  /** Accessible name, naming the row ("Delete notes.txt"). */
  label: string;
  /** Tooltip: the bare verb. */
  title: string;
  icon: LucideIcon;
  /** What it does; or, with `to`, nothing but follow that link (it stays a link: new tab, copy). */
  onClick?: () => void;
  to?: string;
  danger?: boolean;
  /** Shown but not usable for this row (say why in the row, e.g. with a badge). */
  disabled?: boolean;
}

/** A row's actions as icon buttons; they wrap rather than push the row wider. */
export function RowActions({ actions }: { actions: RowAction[] }) {
  return (
    <div className="flex flex-wrap justify-end gap-0.5">
      {actions.map((action) =>
        action.to ? (
          <Link
            key={action.id}
            to={action.to}
            className={buttonClasses("ghost", "icon")}
            aria-label={action.label}
            title={action.title}
          >
            <action.icon className="h-4 w-4" aria-hidden />
          </Link>
        ) : (
          <Button
            key={action.id}
            variant={action.danger ? "dangerGhost" : "ghost"}
            size="icon"
            aria-label={action.label}
            title={action.title}
            disabled={action.disabled}
            onClick={action.onClick}
          >
            <action.icon className="h-4 w-4" aria-hidden />
          </Button>
        ),
      )}
    </div>
  );
}

/**
 * The rows of an admin list: a table from 900 px up, cards below it, so that
 * no column or row action is cut off on a tablet or a phone. Both show the
 * same cells, the selection checkbox and the row actions.
 */
export function DataList<T extends { id: string | number }>({
  rows,
  rowKey = (row) => String(row.id),
  columns,
  actions,
  caption,
  selection,
  rowData,
}: {
  rows: T[];
  /** The row's key; its `id` unless given. */
  rowKey?: (row: T) => string;
  columns: ListColumn<T>[];
  actions: (row: T) => RowAction[];
  /** Names the table and the card list for screen readers. */
  caption: string;
  /** Rows can be selected (for batch actions) when given; `rowLabel` names a row's checkbox. */
  selection?: { rows: RowSelection; rowLabel: (row: T) => string };
  /** A `data-row` value on the row (table row or card) that names it, e.g. a mount's path. */
  rowData?: (row: T) => string;
}) {
  const { t } = useTranslation();
  const keys = rows.map(rowKey);
  const selected = selection?.rows;
  const selectedOnPage = selected ? keys.filter((k) => selected.has(k)).length : 0;
  const headerChecked =
    rows.length > 0 && selectedOnPage === rows.length ? true : selectedOnPage > 0 ? "indeterminate" : false;
  const checkbox = (row: T, className: string) =>
    selection ? (
      <SelectCheckbox
        label={selection.rowLabel(row)}
        checked={selection.rows.has(rowKey(row))}
        onCheckedChange={(on) => selection.rows.toggle(rowKey(row), on)}
        className={className}
      />
    ) : null;
  const primary = columns.find((c) => c.primary) ?? columns[0];
  const details = columns.filter((c) => c !== primary && !c.cardHidden);

  return (
    <>
      <div className="hidden overflow-x-auto min-[900px]:block">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">{caption}</caption>
          <thead className="text-xs text-slate-500 dark:text-slate-400">
            <tr className="border-b border-slate-200 dark:border-slate-800">
              {selection ? (
                <th scope="col" className="w-8 py-2 pr-3">
                  <SelectCheckbox
                    label={t("listKit.selectPage")}
                    checked={headerChecked}
                    onCheckedChange={(on) => (on ? selection.rows.set(keys) : selection.rows.clear())}
                  />
                </th>
              ) : null}
              {columns.map((column) => (
                <th key={column.id} scope="col" className="py-2 pr-3 font-medium">
                  {column.header}
                </th>
              ))}
              <th scope="col" className="py-2 text-right font-medium">
                <span className="sr-only">{t("common.actions")}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr
                key={rowKey(row)}
                data-row={rowData?.(row)}
                className="border-b border-slate-100 align-top last:border-0 dark:border-slate-800/70"
              >
                {selection ? <td className="py-3 pr-3">{checkbox(row, "mt-0.5")}</td> : null}
                {columns.map((column) =>
                  column === primary ? (
                    <th key={column.id} scope="row" className={cn("py-3 pr-3 font-normal", column.className)}>
                      {column.cell(row)}
                    </th>
                  ) : (
                    <td key={column.id} className={cn("py-3 pr-3", column.className)}>
                      {column.cell(row)}
                    </td>
                  ),
                )}
                <td className="py-2">
                  <RowActions actions={actions(row)} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <ul className="space-y-3 min-[900px]:hidden" aria-label={caption}>
        {rows.map((row) => (
          <li
            key={rowKey(row)}
            data-row={rowData?.(row)}
            className="rounded-xl border border-slate-200 p-4 dark:border-slate-800"
          >
            <div className="flex items-start gap-3">
              {checkbox(row, "mt-1")}
              <div className="min-w-0 flex-1 break-words">{primary?.cell(row)}</div>
            </div>
            <dl className="mt-3 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-xs text-slate-600 dark:text-slate-300">
              {details.map((column) => (
                <div key={column.id} className="contents">
                  <dt className="text-slate-500 dark:text-slate-400">{column.header}</dt>
                  <dd className="min-w-0 break-words">{column.cell(row)}</dd>
                </div>
              ))}
            </dl>
            <div className="mt-2 border-t border-slate-100 pt-2 dark:border-slate-800">
              <RowActions actions={actions(row)} />
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}
