import { Link } from "react-router";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { Spinner } from "../../../components/ui/spinner";
import { useTranslation } from "../../../i18n";
import { cn } from "../../../lib/cn";
import { formatBytes } from "../../../lib/file-size";
import { useErrorText } from "../../../lib/use-error-text";
import type { SearchResult } from "../api/fs";
import type { ExplorerController } from "../hooks/use-explorer";
import { useExplorerDrop } from "../hooks/use-explorer-drop";
import { useExplorerMenu } from "../hooks/use-explorer-menu";
import { baseName, explorerHref, parentPath } from "../model/paths";
import { EntryView } from "./entry-view";
import { lockedFolderOf } from "./folder-settings";
import { BasketPanel, TaskPanel, UploadPanel } from "./side-panels";

function SearchResults({
  results,
  onClose,
}: {
  results: { q: string; items: SearchResult[] };
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <section
      aria-label={t("explorer.searchResults")}
      className="rounded-xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex items-center justify-between border-b border-slate-200 px-3 py-2 text-sm dark:border-slate-800">
        <span>{t("explorer.resultsFor", { q: results.q, count: results.items.length })}</span>
        <Button size="sm" variant="ghost" onClick={onClose}>
          {t("common.close")}
        </Button>
      </div>
      <ul>
        {results.items.map((r) => (
          <li
            key={r.path}
            className="border-b border-slate-100 px-3 py-2 text-sm last:border-0 dark:border-slate-800"
          >
            <Link
              className="font-medium text-indigo-600 hover:underline dark:text-indigo-300"
              to={
                r.isDirectory
                  ? explorerHref(r.path)
                  : `${explorerHref(parentPath(r.path))}?preview=${encodeURIComponent(baseName(r.path))}`
              }
            >
              {r.name}
            </Link>
            <span className="ml-2 font-mono text-xs text-slate-500">{r.path}</span>
            {r.size ? <span className="ml-2 text-xs text-slate-500">{formatBytes(r.size)}</span> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The folder's entries (or search results), which take dropped files and
 * folders as uploads, and the open side panel (uploads, tasks, basket).
 */
export function ExplorerBody({ x }: { x: ExplorerController }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const { dragging, dropHandlers } = useExplorerDrop({
    canUpload: x.can.upload,
    isVirtual: Boolean(x.listing?.isVirtual),
    upload: x.upload,
  });
  const menuItems = useExplorerMenu(x);
  const { dir, listing, entries, panel, setPanel } = x;
  const results = x.search.results;

  return (
    <div className={cn("grid gap-3", panel && "lg:grid-cols-[minmax(0,1fr)_20rem]")}>
      <div
        className={cn("relative min-w-0", dragging && "rounded-xl ring-2 ring-indigo-500")}
        data-testid="drop-zone"
        {...dropHandlers}
      >
        {x.previewMissing !== null ? (
          <Alert tone="info" className="mb-3">
            {t("previewLink.missing", { name: x.previewMissing })}
          </Alert>
        ) : null}
        {results ? (
          <SearchResults results={results} onClose={x.search.closeResults} />
        ) : dir.isError ? (
          // A locked folder's password prompt stands above (explorer-page.tsx).
          lockedFolderOf(dir.error) ? null : (
            <Alert>{errorText(dir.error)}</Alert>
          )
        ) : dir.isLoading ? (
          <Spinner />
        ) : entries.length === 0 ? (
          <div
            className="flex h-64 items-center justify-center rounded-xl border border-dashed border-slate-300 px-4 text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-400"
            onContextMenu={(e) => {
              e.preventDefault();
              x.openMenu({ at: { x: e.clientX, y: e.clientY }, entry: null });
            }}
          >
            {listing?.isRoot ? t("explorer.noMounts") : t("explorer.empty")}
          </div>
        ) : (
          <EntryView
            view={x.prefs.view}
            entries={entries}
            selected={x.selection.selected}
            hasMore={dir.hasNextPage}
            loadingMore={dir.isFetchingNextPage}
            onLoadMore={x.loadMore}
            onSelect={x.onSelect}
            onSelectAll={x.selectAll}
            onOpen={x.open}
            onMenu={x.onMenu}
            onShortcut={(entry, shortcut, at) => {
              if (shortcut === "menu") return x.onMenu(entry, at);
              menuItems(entry)
                .find((item) => item.id === shortcut && !item.disabled)
                ?.onSelect();
            }}
            sort={x.prefs.sort}
            onSort={x.onSort}
            label={t("explorer.entriesOf", { path: x.path })}
          />
        )}
        {results ? null : (
          // Search results replace the listing, so the folder's item count would describe something not shown.
          <p className="mt-1 text-xs text-slate-500 dark:text-slate-400" data-testid="entry-count">
            {t("explorer.count", { count: entries.length })}
            {dir.hasNextPage ? ` ${t("explorer.moreToLoad")}` : ""}
          </p>
        )}
      </div>
      {panel ? (
        <aside className="space-y-3">
          {panel === "uploads" ? (
            <UploadPanel queue={x.uploads.queue} onClose={() => setPanel(null)} />
          ) : null}
          {panel === "tasks" ? <TaskPanel onClose={() => setPanel(null)} /> : null}
          {panel === "basket" ? <BasketPanel onClose={() => setPanel(null)} /> : null}
        </aside>
      ) : null}
    </div>
  );
}
