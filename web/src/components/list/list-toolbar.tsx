import { Search, Trash2 } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "../../i18n";
import { Button } from "../ui/button";
import { Input } from "../ui/form";
import { searchTooShort } from "./list-model";
import type { ListState } from "./use-list-state";

/**
 * The search box with the list's filters beside it, the "type two characters"
 * hint, and, while rows are selected, a bar to clear or delete the selection.
 */
export function ListToolbar({
  list,
  searchLabel,
  searchPlaceholder,
  filters,
  onDeleteSelected,
}: {
  list: ListState;
  searchLabel: string;
  searchPlaceholder: string;
  /** Filter controls (selects) shown after the search box. */
  filters?: ReactNode;
  onDeleteSelected: () => void;
}) {
  const { t } = useTranslation();
  const count = list.selection.ids.size;
  return (
    <>
      <div className="flex flex-wrap items-center gap-2">
        <div className="relative min-w-0 flex-1 basis-56">
          <Search
            className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-slate-400"
            aria-hidden
          />
          <Input
            type="search"
            aria-label={searchLabel}
            placeholder={searchPlaceholder}
            value={list.searchInput}
            className="pl-9"
            onChange={(e) => list.setSearchInput(e.target.value)}
          />
        </div>
        {filters}
      </div>
      {searchTooShort(list.searchInput) ? (
        <p className="text-xs text-slate-500 dark:text-slate-400">{t("listKit.searchTooShort")}</p>
      ) : null}
      {count > 0 ? (
        <div className="flex flex-wrap items-center justify-between gap-2 rounded-xl bg-indigo-50 px-4 py-2 text-sm dark:bg-indigo-950/40">
          <span>{t("listKit.selectedCount", { count })}</span>
          <span className="flex flex-wrap gap-2">
            <Button variant="ghost" size="sm" onClick={list.selection.clear}>
              {t("listKit.clearSelection")}
            </Button>
            <Button variant="danger" size="sm" onClick={onDeleteSelected}>
              <Trash2 className="h-4 w-4" aria-hidden />
              {t("listKit.deleteSelected", { count })}
            </Button>
          </span>
        </div>
      ) : null}
    </>
  );
}
