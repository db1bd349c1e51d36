import { ChevronLeft, ChevronRight, type LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "../../i18n";
import { useErrorText } from "../../lib/use-error-text";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { Select } from "../ui/form";
import { Spinner } from "../ui/spinner";
import { DataList, type DataListProps } from "./data-list";
import { pageCount, pageRange } from "./list-model";
import type { ListState } from "./use-list-state";

/** The list's rows, or what stands in their place while loading, after an error or with none. */
export function ListBody({
  query,
  rowCount,
  icon: Icon,
  emptyText,
  children,
}: {
  query: { isPending: boolean; isError: boolean; error: unknown };
  rowCount: number;
  icon: LucideIcon;
  emptyText: string;
  children: ReactNode;
}) {
  const errorText = useErrorText();
  if (query.isPending) return <Spinner />;
  if (query.isError) return <Alert>{errorText(query.error)}</Alert>;
  if (rowCount === 0) {
    return (
      <div className="flex flex-col items-center py-10 text-center text-sm text-slate-500 dark:text-slate-400">
        <Icon className="mb-2 h-8 w-8" aria-hidden />
        {emptyText}
      </div>
    );
  }
  return <>{children}</>;
}

/** A list's rows as a table or cards (DataList), or ListBody's stand-ins while there are none to show. */
export function ListRows<T extends { id: string | number }>({
  query,
  icon,
  emptyText,
  ...list
}: DataListProps<T> & Pick<Parameters<typeof ListBody>[0], "query" | "icon" | "emptyText">) {
  return (
    <ListBody query={query} rowCount={list.rows.length} icon={icon} emptyText={emptyText}>
      <DataList {...list} />
    </ListBody>
  );
}

/** "11–20 of 45", the page size (when there is a choice) and previous / next page. */
export function ListPager({
  list,
  total,
  rowCount,
  pageSizes,
  busy = false,
}: {
  list: ListState;
  total: number;
  rowCount: number;
  /** Page sizes to choose from; without them the size is fixed. */
  pageSizes?: number[];
  /** Paging waits while a page is being fetched. */
  busy?: boolean;
}) {
  const { t } = useTranslation();
  if (total === 0) return null;
  const { page, limit, setPage } = list;
  const pages = pageCount(total, limit);
  const range = pageRange(page, limit, rowCount);
  return (
    <nav
      aria-label={t("listKit.pagination")}
      className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-200 pt-4 text-sm dark:border-slate-800"
    >
      <span className="text-slate-600 dark:text-slate-400" aria-live="polite">
        {t("listKit.range", { from: range.from, to: range.to, total })}
      </span>
      <div className="flex flex-wrap items-center gap-2">
        {pageSizes ? (
          // Wide enough for "100 / page" and "100 条/页" beside the select's arrow.
          <div className="w-36">
            <Select
              aria-label={t("listKit.pageSize")}
              value={String(limit)}
              className="h-8"
              onChange={(e) => list.setLimit(Number(e.target.value))}
            >
              {pageSizes.map((size) => (
                <option key={size} value={size}>
                  {t("listKit.perPage", { count: size })}
                </option>
              ))}
            </Select>
          </div>
        ) : null}
        <Button
          variant="outline"
          size="sm"
          disabled={page <= 1 || busy}
          onClick={() => setPage(Math.max(1, page - 1))}
          aria-label={t("listKit.previousPage")}
          title={t("listKit.previousPage")}
        >
          <ChevronLeft className="h-4 w-4" aria-hidden />
        </Button>
        <span className="whitespace-nowrap tabular-nums">{t("listKit.pageOf", { page, total: pages })}</span>
        <Button
          variant="outline"
          size="sm"
          disabled={page >= pages || busy}
          onClick={() => setPage(Math.min(pages, page + 1))}
          aria-label={t("listKit.nextPage")}
          title={t("listKit.nextPage")}
        >
          <ChevronRight className="h-4 w-4" aria-hidden />
        </Button>
      </div>
    </nav>
  );
}
