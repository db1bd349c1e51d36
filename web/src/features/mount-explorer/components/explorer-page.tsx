import {
  ChevronRight,
  ClipboardList,
  Copy,
  Download,
  Eye,
  FolderInput,
  FolderOpen,
  FolderPlus,
  FolderUp,
  Grid3x3,
  History,
  Home,
  Images,
  Link2,
  List,
  LogIn,
  Pencil,
  RefreshCw,
  Search,
  Share2,
  ShieldAlert,
  ShoppingBasket,
  SquarePen,
  Trash2,
  Upload,
} from "lucide-react";
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useParams, useSearchParams } from "react-router";
import { Alert } from "../../../components/ui/alert";
import { Button, buttonClasses } from "../../../components/ui/button";
import { Input, Select } from "../../../components/ui/form";
import { Spinner } from "../../../components/ui/spinner";
import { toast } from "../../../components/ui/toast";
import { useCapabilities } from "../../../lib/auth-store";
import { cn } from "../../../lib/cn";
import { formatBytes } from "../../../lib/file-size";
import { useErrorText } from "../../../lib/use-error-text";
import { OfflineCopyMark } from "../../offline/components/offline-copy-mark";
import { type FsEntry, fsApi, type SearchResult } from "../api/fs";
import { useBasket, useExplorerPrefs, type ViewMode } from "../hooks/use-explorer-state";
import { useExplorerUploads } from "../hooks/use-explorer-uploads";
import { useDirectory, useRefreshFs } from "../hooks/use-fs";
import { useSearchHistory } from "../hooks/use-search-history";
import type { Point } from "../model/gesture";
import {
  baseName,
  breadcrumbs,
  explorerHref,
  fileKind,
  isEditable,
  joinPath,
  normalizePath,
  parentPath,
} from "../model/paths";
import {
  clickSelect,
  contextSelect,
  EMPTY_SELECTION,
  pruneSelection,
  type Selection,
  selectAll,
} from "../model/selection";
import { nextSort, type SortKey, sortEntries } from "../model/sort";
import { collectDrop, type DroppedFile } from "../model/upload-walk";
import { DeleteDialog, FolderPickerDialog, LinkDialog, NameDialog, ShareDialog } from "./action-dialogs";
import { ContextMenu, type MenuItem } from "./context-menu";
import { EntryView } from "./entry-views";
import { BasketPanel, TaskPanel, UploadPanel } from "./side-panels";

const EditDialog = lazy(() => import("./edit-dialog"));
const PreviewOverlay = lazy(() => import("./preview-overlay"));

type DialogState =
  | { kind: "mkdir" }
  | { kind: "rename"; entry: FsEntry }
  | { kind: "delete"; entries: FsEntry[] }
  | { kind: "copy" | "move"; entries: FsEntry[] }
  | { kind: "link"; entry: FsEntry }
  | { kind: "share"; entry: FsEntry }
  | { kind: "edit"; path: string }
  | null;

const SEARCH_MIN = 2;

/** Spec §1/§2: the mount browser at /mount-explorer/{path...}, with `?preview=<file>`. */
/**
 * The route: signed-out visitors and keys without mount permission get a
 * prompt (no listing request is made); everyone else gets the explorer.
 */
export function ExplorerPage() {
  const caps = useCapabilities();
  const { t } = useTranslation();
  if (caps.mount) return <Explorer />;
  return (
    <div className="mx-auto w-full max-w-3xl space-y-4 px-3 py-8 sm:px-6">
      <h1 className="text-2xl font-semibold tracking-tight">{t("explorer.title")}</h1>
      <section
        aria-labelledby="explorer-sign-in-title"
        className="flex flex-col gap-3 rounded-2xl border border-amber-200 bg-amber-50 p-4 text-amber-900 sm:flex-row sm:items-center dark:border-amber-900/60 dark:bg-amber-950/30 dark:text-amber-100"
      >
        <ShieldAlert className="h-6 w-6 shrink-0 text-amber-600 dark:text-amber-400" aria-hidden />
        <div className="min-w-0 flex-1">
          <h2 id="explorer-sign-in-title" className="text-sm font-semibold">
            {t("explorer.signIn.title")}
          </h2>
          <p className="mt-0.5 text-sm text-amber-800 dark:text-amber-200/90">
            {t("explorer.signIn.description")}
          </p>
        </div>
        <Link to="/admin" className={buttonClasses("primary", "md", "self-start sm:self-auto")}>
          <LogIn className="h-4 w-4" aria-hidden />
          {t("explorer.signIn.action")}
        </Link>
      </section>
    </div>
  );
}

function Explorer() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const navigate = useNavigate();
  const params = useParams();
  const path = normalizePath(params["*"] ?? "");
  const [searchParams, setSearchParams] = useSearchParams();
  const previewParam = searchParams.get("preview");
  const [prefs, setPrefs] = useExplorerPrefs();
  const basket = useBasket();
  const refresh = useRefreshFs();
  const dir = useDirectory(path);
  const [selection, setSelection] = useState<Selection>(EMPTY_SELECTION);
  const [menu, setMenu] = useState<{ at: Point; entry: FsEntry | null } | null>(null);
  const [dialog, setDialog] = useState<DialogState>(null);
  const [panel, setPanel] = useState<"tasks" | "basket" | "uploads" | null>(null);
  const uploads = useExplorerUploads();
  const [dragging, setDragging] = useState(false);
  const [query, setQuery] = useState("");
  const [scope, setScope] = useState<"global" | "mount" | "directory">("directory");
  const [results, setResults] = useState<{ q: string; items: SearchResult[] } | null>(null);
  const history = useSearchHistory();
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);

  const listing = dir.data?.pages[0];
  const entries = useMemo(
    () => sortEntries(dir.data?.pages.flatMap((p) => p.items) ?? [], prefs.sort.key, prefs.sort.dir),
    [dir.data, prefs.sort.key, prefs.sort.dir],
  );
  const order = useMemo(() => entries.map((e) => e.path), [entries]);
  const byPath = useMemo(() => new Map(entries.map((e) => [e.path, e])), [entries]);
  const selectedEntries = useMemo(
    () => [...selection.selected].map((p) => byPath.get(p)).filter((e): e is FsEntry => e !== undefined),
    [selection, byPath],
  );
  const images = useMemo(
    () => entries.filter((e) => !e.isDirectory && fileKind(e.name, e.mimetype) === "image"),
    [entries],
  );

  useEffect(() => setSelection((s) => pruneSelection(s, order)), [order]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new folder starts without selection or results
  useEffect(() => {
    setSelection(EMPTY_SELECTION);
    setResults(null);
  }, [path]);

  const previewEntry = useMemo(() => {
    if (!previewParam) return null;
    const wanted = previewParam.includes("/") ? normalizePath(previewParam) : joinPath(path, previewParam);
    return entries.find((e) => !e.isDirectory && normalizePath(e.path) === wanted) ?? null;
  }, [previewParam, entries, path]);

  // A preview link whose file is not in the (fully loaded) folder says so instead of showing nothing.
  const previewMissing =
    previewParam !== null && previewEntry === null && dir.isSuccess && !dir.hasNextPage && !dir.isFetching;

  const setPreview = useCallback(
    (entry: FsEntry | null) => {
      const next = new URLSearchParams(searchParams);
      if (entry) next.set("preview", entry.name);
      else next.delete("preview");
      setSearchParams(next, { replace: entry !== null && previewParam !== null });
    },
    [searchParams, setSearchParams, previewParam],
  );

  const open = useCallback(
    (entry: FsEntry) => {
      if (entry.isDirectory) navigate(explorerHref(entry.path));
      else setPreview(entry);
    },
    [navigate, setPreview],
  );

  const onSelect = useCallback(
    (entry: FsEntry, mods: { shift: boolean; toggle: boolean }) =>
      setSelection((s) => clickSelect(s, order, entry.path, mods)),
    [order],
  );
  const onMenu = useCallback((entry: FsEntry | null, at: Point) => {
    if (entry) setSelection((s) => contextSelect(s, entry.path));
    setMenu({ at, entry });
  }, []);
  const onSort = useCallback(
    (key: SortKey) => setPrefs({ sort: nextSort(prefs.sort, key) }),
    [prefs.sort, setPrefs],
  );
  const loadMore = useCallback(() => {
    if (dir.hasNextPage && !dir.isFetchingNextPage) void dir.fetchNextPage();
  }, [dir]);

  const addToBasket = (list: FsEntry[]) => {
    const files = list.filter((e) => !e.isDirectory);
    basket.add(files.map((e) => ({ path: normalizePath(e.path), name: e.name, size: e.size })));
    toast(t("explorer.basketAdded", { count: files.length }), "success");
  };

  const download = async (entry: FsEntry) => {
    try {
      const link = await fsApi.fileLink(entry.path, true, 3600);
      const a = document.createElement("a");
      a.href = link.presignedUrl;
      a.download = entry.name;
      document.body.append(a);
      a.click();
      a.remove();
    } catch (err) {
      toast(errorText(err), "error");
    }
  };

  const runUpload = async (files: DroppedFile[], dirs: string[]) => {
    if (files.length === 0 && dirs.length === 0) return;
    setPanel("uploads");
    await uploads.upload(path, files, dirs);
  };

  const runCopyMove = async (mode: "copy" | "move", list: FsEntry[], dest: string, skipExisting: boolean) => {
    if (mode === "copy") {
      const result = await fsApi.batchCopy(
        list.map((e) => ({
          sourcePath: e.path,
          targetPath: e.isDirectory ? `${joinPath(dest, e.name)}/` : joinPath(dest, e.name),
        })),
        skipExisting,
      );
      if (result.queued > 0) {
        setPanel("tasks");
        toast(t("explorer.copyQueued"), "info");
      } else {
        toast(
          t("explorer.copyDone", { success: result.success, skipped: result.skipped, failed: result.failed }),
          result.failed ? "error" : "success",
        );
      }
    } else {
      for (const e of list) await fsApi.rename(normalizePath(e.path), joinPath(dest, e.name));
      toast(t("explorer.moveDone", { count: list.length }), "success");
    }
    await refresh();
  };

  const menuItems = (entry: FsEntry | null): MenuItem[] => {
    if (!entry) {
      return [
        {
          id: "mkdir",
          label: t("explorer.newFolder"),
          icon: FolderPlus,
          onSelect: () => setDialog({ kind: "mkdir" }),
          disabled: listing?.isVirtual,
        },
        {
          id: "upload",
          label: t("explorer.upload"),
          icon: Upload,
          onSelect: () => fileInput.current?.click(),
          disabled: listing?.isVirtual,
        },
        { id: "refresh", label: t("common.refresh"), icon: RefreshCw, onSelect: () => void dir.refetch() },
      ];
    }
    const many =
      selection.selected.size > 1 && selection.selected.has(entry.path) ? selectedEntries : [entry];
    const single = many.length === 1;
    const locked = entry.isMount || entry.isVirtual;
    const items: MenuItem[] = [];
    if (single) {
      items.push({
        id: "open",
        label: entry.isDirectory ? t("explorer.open") : t("explorer.preview"),
        icon: entry.isDirectory ? FolderOpen : Eye,
        onSelect: () => open(entry),
      });
      if (!entry.isDirectory) {
        items.push({
          id: "download",
          label: t("explorer.download"),
          icon: Download,
          onSelect: () => void download(entry),
        });
        if (isEditable(entry.name, entry.size, entry.mimetype))
          items.push({
            id: "edit",
            label: t("common.edit"),
            icon: SquarePen,
            onSelect: () => setDialog({ kind: "edit", path: normalizePath(entry.path) }),
          });
        items.push({
          id: "link",
          label: t("explorer.getLink"),
          icon: Link2,
          onSelect: () => setDialog({ kind: "link", entry }),
        });
        items.push({
          id: "share",
          label: t("explorer.share"),
          icon: Share2,
          onSelect: () => setDialog({ kind: "share", entry }),
        });
      }
      items.push({
        id: "rename",
        label: t("explorer.rename"),
        icon: Pencil,
        onSelect: () => setDialog({ kind: "rename", entry }),
        disabled: locked,
      });
    }
    if (many.some((e) => !e.isDirectory))
      items.push({
        id: "basket",
        label: t("explorer.addToBasket"),
        icon: ShoppingBasket,
        onSelect: () => addToBasket(many),
      });
    items.push({
      id: "copy",
      label: t("explorer.copyTo"),
      icon: Copy,
      onSelect: () => setDialog({ kind: "copy", entries: many }),
      disabled: entry.isVirtual,
    });
    items.push({
      id: "move",
      label: t("explorer.moveTo"),
      icon: FolderInput,
      onSelect: () => setDialog({ kind: "move", entries: many }),
      disabled: locked,
    });
    items.push({
      id: "delete",
      label: t("common.delete"),
      icon: Trash2,
      danger: true,
      onSelect: () => setDialog({ kind: "delete", entries: many }),
      disabled: locked,
    });
    return items;
  };

  const submitSearch = async (e: React.FormEvent) => {
    e.preventDefault();
    const q = query.trim();
    if (q.length < SEARCH_MIN) {
      toast(t("explorer.searchMin", { count: SEARCH_MIN }), "info");
      return;
    }
    void history.remember(q);
    try {
      const data = await fsApi.search(q, scope, { path, mountId: listing?.mount_id });
      setResults({ q, items: data.results });
    } catch (err) {
      toast(errorText(err), "error");
    }
  };

  const viewButtons: { id: ViewMode; icon: typeof List; label: string }[] = [
    { id: "list", icon: List, label: t("explorer.view.list") },
    { id: "grid", icon: Grid3x3, label: t("explorer.view.grid") },
    { id: "gallery", icon: Images, label: t("explorer.view.gallery") },
  ];

  return (
    <div className="mx-auto w-full max-w-7xl space-y-3 px-3 py-4 sm:px-6">
      <h1 className="sr-only">{t("explorer.title")}</h1>
      <div className="flex flex-wrap items-center gap-2">
        <nav
          aria-label={t("explorer.breadcrumbs")}
          className="flex min-w-0 flex-1 flex-wrap items-center gap-0.5 text-sm"
        >
          {breadcrumbs(path).map((c, i, all) => (
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
        <form onSubmit={submitSearch} role="search" className="flex items-center gap-1">
          <Input
            type="search"
            value={query}
            onChange={(e) => {
              setQuery(e.target.value);
              if (!e.target.value) setResults(null);
            }}
            placeholder={t("explorer.searchPlaceholder")}
            aria-label={t("explorer.search")}
            className="h-9 w-40 sm:w-56"
            list="explorer-search-history"
          />
          <datalist id="explorer-search-history">
            {history.items.map((q) => (
              <option key={q} value={q} />
            ))}
          </datalist>
          <Select
            value={scope}
            onChange={(e) => setScope(e.target.value as typeof scope)}
            aria-label={t("explorer.searchScope")}
            className="h-9 w-auto"
          >
            <option value="directory">{t("explorer.scope.directory")}</option>
            <option value="mount" disabled={!listing?.mount_id}>
              {t("explorer.scope.mount")}
            </option>
            <option value="global">{t("explorer.scope.global")}</option>
          </Select>
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
      <OfflineCopyMark at={listing?.offlineCopyAt} />

      <div className="flex flex-wrap items-center gap-2" role="toolbar" aria-label={t("explorer.toolbar")}>
        <Button
          size="sm"
          variant="outline"
          onClick={() => setDialog({ kind: "mkdir" })}
          disabled={!listing || listing.isVirtual}
        >
          <FolderPlus className="h-4 w-4" aria-hidden />
          {t("explorer.newFolder")}
        </Button>
        <Button
          size="sm"
          variant="outline"
          onClick={() => fileInput.current?.click()}
          disabled={!listing || listing.isVirtual}
        >
          <Upload className="h-4 w-4" aria-hidden />
          {t("explorer.upload")}
        </Button>
        <Button
          size="sm"
          variant="outline"
          onClick={() => folderInput.current?.click()}
          disabled={!listing || listing.isVirtual}
        >
          <FolderUp className="h-4 w-4" aria-hidden />
          {t("explorer.uploadFolder")}
        </Button>
        <Button
          size="icon"
          variant="ghost"
          onClick={() => void fsApi.list(path, null, undefined, true).then(() => refresh())}
          aria-label={t("common.refresh")}
        >
          <RefreshCw className={cn("h-4 w-4", dir.isFetching && "animate-spin")} aria-hidden />
        </Button>
        <div className="ml-auto flex items-center gap-1">
          <Select
            value={`${prefs.sort.key}:${prefs.sort.dir}`}
            onChange={(e) => {
              const [key, d] = e.target.value.split(":") as [SortKey, "asc" | "desc"];
              setPrefs({ sort: { key, dir: d } });
            }}
            aria-label={t("explorer.sortLabel")}
            className="h-9 w-auto"
          >
            {(["name", "size", "modified"] as const).flatMap((k) =>
              (["asc", "desc"] as const).map((d) => (
                <option key={`${k}:${d}`} value={`${k}:${d}`}>
                  {`${t(`explorer.sort.${k}`)} ${d === "asc" ? "↑" : "↓"}`}
                </option>
              )),
            )}
          </Select>
          <div
            className="flex rounded-lg border border-slate-200 p-0.5 dark:border-slate-700"
            role="group"
            aria-label={t("explorer.viewLabel")}
          >
            {viewButtons.map((v) => (
              <Button
                key={v.id}
                size="icon"
                variant={prefs.view === v.id ? "secondary" : "ghost"}
                className="h-8 w-8"
                aria-pressed={prefs.view === v.id}
                aria-label={v.label}
                title={v.label}
                onClick={() => setPrefs({ view: v.id })}
              >
                <v.icon className="h-4 w-4" aria-hidden />
              </Button>
            ))}
          </div>
          <Button
            size="sm"
            variant={panel === "basket" ? "secondary" : "ghost"}
            onClick={() => setPanel(panel === "basket" ? null : "basket")}
            aria-label={t("explorer.basketButton", { count: basket.items.length })}
          >
            <ShoppingBasket className="h-4 w-4" aria-hidden />
            <span className="tabular-nums">{basket.items.length}</span>
          </Button>
          <Button
            size="sm"
            variant={panel === "tasks" ? "secondary" : "ghost"}
            onClick={() => setPanel(panel === "tasks" ? null : "tasks")}
            aria-label={t("explorer.tasks")}
          >
            <ClipboardList className="h-4 w-4" aria-hidden />
          </Button>
        </div>
      </div>

      {selection.selected.size > 0 ? (
        <div
          className="flex flex-wrap items-center gap-2 rounded-lg bg-indigo-50 px-3 py-2 text-sm dark:bg-indigo-950/50"
          data-testid="selection-bar"
        >
          <span className="font-medium">{t("explorer.selected", { count: selection.selected.size })}</span>
          <Button
            size="sm"
            variant="ghost"
            onClick={() => addToBasket(selectedEntries)}
            disabled={!selectedEntries.some((e) => !e.isDirectory)}
          >
            <ShoppingBasket className="h-4 w-4" aria-hidden />
            {t("explorer.addToBasket")}
          </Button>
          <Button
            size="sm"
            variant="ghost"
            onClick={() => setDialog({ kind: "copy", entries: selectedEntries })}
          >
            <Copy className="h-4 w-4" aria-hidden />
            {t("explorer.copyTo")}
          </Button>
          <Button
            size="sm"
            variant="ghost"
            onClick={() => setDialog({ kind: "move", entries: selectedEntries })}
          >
            <FolderInput className="h-4 w-4" aria-hidden />
            {t("explorer.moveTo")}
          </Button>
          <Button
            size="sm"
            variant="ghost"
            onClick={() => setDialog({ kind: "delete", entries: selectedEntries })}
          >
            <Trash2 className="h-4 w-4" aria-hidden />
            {t("common.delete")}
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setSelection(selectAll(order))}>
            {t("explorer.selectAll")}
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setSelection(EMPTY_SELECTION)}>
            {t("explorer.clearSelection")}
          </Button>
        </div>
      ) : null}

      <div className={cn("grid gap-3", panel && "lg:grid-cols-[minmax(0,1fr)_20rem]")}>
        <div
          className={cn("relative min-w-0", dragging && "rounded-xl ring-2 ring-indigo-500")}
          data-testid="drop-zone"
          onDragOver={(e) => {
            if (listing?.isVirtual) return;
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={(e) => {
            e.preventDefault();
            setDragging(false);
            if (listing?.isVirtual) {
              toast(t("explorer.dropNotHere"), "error");
              return;
            }
            void collectDrop(e.dataTransfer.items, e.dataTransfer.files).then(({ files, dirs }) =>
              runUpload(files, dirs),
            );
          }}
        >
          {previewMissing ? (
            <Alert tone="info" className="mb-3">
              {t("previewLink.missing", { name: previewParam })}
            </Alert>
          ) : null}
          {results ? (
            <section
              aria-label={t("explorer.searchResults")}
              className="rounded-xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900"
            >
              <div className="flex items-center justify-between border-b border-slate-200 px-3 py-2 text-sm dark:border-slate-800">
                <span>{t("explorer.resultsFor", { q: results.q, count: results.items.length })}</span>
                <Button size="sm" variant="ghost" onClick={() => setResults(null)}>
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
                    {r.size ? (
                      <span className="ml-2 text-xs text-slate-500">{formatBytes(r.size)}</span>
                    ) : null}
                  </li>
                ))}
              </ul>
            </section>
          ) : dir.isError ? (
            <Alert>{errorText(dir.error)}</Alert>
          ) : dir.isLoading ? (
            <Spinner />
          ) : entries.length === 0 ? (
            <div
              className="flex h-64 items-center justify-center rounded-xl border border-dashed border-slate-300 text-sm text-slate-500 dark:border-slate-700"
              onContextMenu={(e) => {
                e.preventDefault();
                setMenu({ at: { x: e.clientX, y: e.clientY }, entry: null });
              }}
            >
              {listing?.isRoot ? t("explorer.noMounts") : t("explorer.empty")}
            </div>
          ) : (
            <EntryView
              view={prefs.view}
              entries={entries}
              selected={selection.selected}
              hasMore={dir.hasNextPage}
              loadingMore={dir.isFetchingNextPage}
              onLoadMore={loadMore}
              onSelect={onSelect}
              onOpen={open}
              onMenu={onMenu}
              sort={prefs.sort}
              onSort={onSort}
              label={t("explorer.entriesOf", { path })}
            />
          )}
          <p className="mt-1 text-xs text-slate-500 dark:text-slate-400" data-testid="entry-count">
            {t("explorer.count", { count: entries.length })}
            {dir.hasNextPage ? ` ${t("explorer.moreToLoad")}` : ""}
          </p>
        </div>
        {panel ? (
          <aside className="space-y-3">
            {panel === "uploads" ? (
              <UploadPanel queue={uploads.queue} onClose={() => setPanel(null)} />
            ) : null}
            {panel === "tasks" ? <TaskPanel onClose={() => setPanel(null)} /> : null}
            {panel === "basket" ? <BasketPanel onClose={() => setPanel(null)} /> : null}
          </aside>
        ) : null}
      </div>

      <input
        ref={fileInput}
        type="file"
        multiple
        hidden
        data-testid="file-input"
        onChange={(e) => {
          const files = [...(e.target.files ?? [])].map((f) => ({ relativePath: f.name, file: f }));
          e.target.value = "";
          void runUpload(files, []);
        }}
      />
      <input
        ref={folderInput}
        type="file"
        hidden
        multiple
        {...({ webkitdirectory: "" } as Record<string, string>)}
        onChange={(e) => {
          const files = [...(e.target.files ?? [])].map((f) => ({
            relativePath: f.webkitRelativePath || f.name,
            file: f,
          }));
          const dirs = new Set<string>();
          for (const f of files) {
            const parts = f.relativePath.split("/").slice(0, -1);
            for (let i = 1; i <= parts.length; i++) dirs.add(parts.slice(0, i).join("/"));
          }
          e.target.value = "";
          void runUpload(
            files,
            [...dirs].sort((a, b) => a.split("/").length - b.split("/").length),
          );
        }}
      />

      {menu ? (
        <ContextMenu
          at={menu.at}
          items={menuItems(menu.entry)}
          label={menu.entry ? menu.entry.name : t("explorer.folderMenu")}
          onClose={() => setMenu(null)}
        />
      ) : null}

      {dialog?.kind === "mkdir" ? (
        <NameDialog
          title={t("explorer.newFolder")}
          initial=""
          submitLabel={t("explorer.create")}
          onSubmit={async (name) => {
            await fsApi.mkdir(joinPath(path, name));
            await refresh();
          }}
          onClose={() => setDialog(null)}
        />
      ) : null}
      {dialog?.kind === "rename" ? (
        <NameDialog
          title={t("explorer.rename")}
          initial={dialog.entry.name}
          submitLabel={t("explorer.rename")}
          onSubmit={async (name) => {
            const from = normalizePath(dialog.entry.path);
            await fsApi.rename(from, joinPath(parentPath(from), name));
            await refresh();
          }}
          onClose={() => setDialog(null)}
        />
      ) : null}
      {dialog?.kind === "delete" ? (
        <DeleteDialog
          entries={dialog.entries}
          onConfirm={async () => {
            const result = await fsApi.remove(dialog.entries.map((e) => e.path));
            if (result.queued > 0) setPanel("tasks");
            await refresh();
            toast(t("explorer.deleted", { count: result.success }), "success");
          }}
          onClose={() => setDialog(null)}
        />
      ) : null}
      {dialog?.kind === "copy" || dialog?.kind === "move" ? (
        <FolderPickerDialog
          mode={dialog.kind}
          start={path}
          count={dialog.entries.length}
          onPick={(dest, skip) => runCopyMove(dialog.kind as "copy" | "move", dialog.entries, dest, skip)}
          onClose={() => setDialog(null)}
        />
      ) : null}
      {dialog?.kind === "link" ? <LinkDialog entry={dialog.entry} onClose={() => setDialog(null)} /> : null}
      {dialog?.kind === "share" ? <ShareDialog entry={dialog.entry} onClose={() => setDialog(null)} /> : null}
      {dialog?.kind === "edit" ? (
        <Suspense fallback={null}>
          <EditDialog path={dialog.path} onClose={() => setDialog(null)} onSaved={() => void refresh()} />
        </Suspense>
      ) : null}
      {previewEntry ? (
        <Suspense fallback={null}>
          <PreviewOverlay
            entry={previewEntry}
            siblings={images}
            onNavigate={(e) => setPreview(e)}
            onClose={() => setPreview(null)}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
