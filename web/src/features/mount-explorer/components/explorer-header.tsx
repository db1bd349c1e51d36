import { ChevronRight, History, Home, Search } from "lucide-react";
import { Link } from "react-router";
import { Button } from "../../../components/ui/button";
import { Input, Select } from "../../../components/ui/form";
import { useTranslation } from "../../../i18n";
import type { ExplorerController, SearchScope, SearchType } from "../hooks/use-explorer";
import { breadcrumbs, explorerHref } from "../model/paths";

/**
 * The path as breadcrumbs, and the search form (query with history, scope). Below 1024 px
 * the breadcrumbs take a row of their own, so a deep path is not squeezed by the form; on a
 * phone the two scope selects share a second row, so neither cuts its label.
 */
export function ExplorerHeader({ x }: { x: ExplorerController }) {
  const { t } = useTranslation();
  const { search, history } = x;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <nav
        aria-label={t("explorer.breadcrumbs")}
        className="flex min-w-0 basis-full flex-wrap items-center gap-0.5 text-sm lg:basis-0 lg:flex-1"
      >
        {breadcrumbs(x.path).map((c, i, all) => (
          <span key={c.path} className="flex min-w-0 items-center gap-0.5">
            {i > 0 ? <ChevronRight className="h-3.5 w-3.5 shrink-0 text-slate-400" aria-hidden /> : null}
            <Link
              to={explorerHref(c.path)}
              aria-current={i === all.length - 1 ? "page" : undefined}
              className="truncate rounded px-1.5 py-1 text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800"
            >
              {c.name || (
                <>
                  <Home className="inline h-4 w-4" aria-hidden />
                  <span className="sr-only">{t("explorer.root")}</span>
                </>
              )}
            </Link>
          </span>
        ))}
      </nav>
      <form
        onSubmit={search.submitSearch}
        role="search"
        className="flex w-full flex-wrap items-center gap-1 sm:flex-nowrap lg:w-auto"
      >
        <Input
          type="search"
          value={search.query}
          onChange={(e) => search.changeQuery(e.target.value)}
          placeholder={t("explorer.searchPlaceholder")}
          aria-label={t("explorer.search")}
          className="h-9 min-w-0 flex-1 lg:w-56 lg:flex-none"
          list="explorer-search-history"
        />
        <datalist id="explorer-search-history">
          {history.items.map((q) => (
            <option key={q} value={q} />
          ))}
        </datalist>
        <div className="flex gap-1 max-sm:order-last max-sm:basis-full sm:shrink-0">
          <Select
            value={search.scope}
            onChange={(e) => search.setScope(e.target.value as SearchScope)}
            aria-label={t("explorer.searchScope")}
            className="h-9 max-sm:flex-1 sm:w-auto"
          >
            <option value="directory">{t("explorer.scope.directory")}</option>
            <option value="mount" disabled={!x.listing?.mount_id}>
              {t("explorer.scope.mount")}
            </option>
            <option value="global">{t("explorer.scope.global")}</option>
          </Select>
          <Select
            value={search.searchType}
            onChange={(e) => search.setSearchType(e.target.value as SearchType)}
            aria-label={t("explorer.searchType")}
            className="h-9 max-sm:flex-1 sm:w-auto"
          >
            <option value="">{t("explorer.searchTypes.any")}</option>
            <option value="file">{t("explorer.searchTypes.file")}</option>
            <option value="directory">{t("explorer.searchTypes.directory")}</option>
          </Select>
        </div>
        <Button type="submit" size="icon" variant="outline" aria-label={t("explorer.search")}>
          <Search className="h-4 w-4" aria-hidden />
        </Button>
        {history.items.length > 0 ? (
          <Button
            size="icon"
            variant="ghost"
            onClick={() => void history.clear()}
            aria-label={t("offlineApp.searchHistory.clear")}
            title={t("offlineApp.searchHistory.clear")}
          >
            <History className="h-4 w-4" aria-hidden />
          </Button>
        ) : null}
      </form>
    </div>
  );
}
