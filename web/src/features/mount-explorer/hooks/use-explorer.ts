import { type FormEvent, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useNavigate, useParams, useSearchParams } from "react-router";
import { toast } from "../../../components/ui/toast";
import { useTranslation } from "../../../i18n";
import { useCapabilities } from "../../../lib/auth-store";
import { saveLink } from "../../../lib/save-link";
import { useErrorText } from "../../../lib/use-error-text";
import { type FsEntry, fsApi, type SearchResult, saveZip } from "../api/fs";
import { copyOutcome } from "../model/copy-outcome";
import type { Point } from "../model/gesture";
import { explorerHref, fileKind, joinPath, normalizePath, parentPath } from "../model/paths";
import { explorerPermissions } from "../model/permissions";
import {
  clickSelect,
  contextSelect,
  EMPTY_SELECTION,
  pruneSelection,
  type Selection,
  selectAll,
} from "../model/selection";
import { nextSort, type SortKey, sortEntries } from "../model/sort";
import type { DroppedFile } from "../model/upload-walk";
import { useBasket, useExplorerPrefs } from "./use-explorer-state";
import { useExplorerUploads } from "./use-explorer-uploads";
import { useDirectory, useRefreshFs } from "./use-fs";
import { useSearchHistory } from "./use-search-history";

export type DialogState =
  | { kind: "mkdir" }
  | { kind: "rename"; entry: FsEntry }
  | { kind: "delete"; entries: FsEntry[] }
  | { kind: "copy" | "move"; entries: FsEntry[] }
  | { kind: "link"; entry: FsEntry }
  | { kind: "share"; entry: FsEntry }
  | { kind: "collection"; entries: FsEntry[] }
  | { kind: "edit"; path: string }
  | null;

export type SidePanel = "tasks" | "basket" | "uploads" | null;
export type SearchScope = "global" | "mount" | "directory";
/** What a search looks for: "" for files and folders. */
export type SearchType = "" | "file" | "directory";

const SEARCH_MIN = 2;

/**
 * The explorer's controller: the folder in the URL and its listing, the
 * selection, the open menu, dialog and side panel, search, and every action
 * that calls the file system API. The views only read this and call it.
 */
export function useExplorer() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const navigate = useNavigate();
  const params = useParams();
  const path = normalizePath(params["*"] ?? "");
  const [searchParams, setSearchParams] = useSearchParams();
  const previewParam = searchParams.get("preview");
  const [prefs, setPrefs] = useExplorerPrefs();
  const { mask } = useCapabilities();
  const can = useMemo(() => explorerPermissions(mask), [mask]);
  const basket = useBasket();
  const refresh = useRefreshFs();
  const dir = useDirectory(path);
  const uploads = useExplorerUploads();
  const history = useSearchHistory();
  const [selection, setSelection] = useState<Selection>(EMPTY_SELECTION);
  const [menu, setMenu] = useState<{ at: Point; entry: FsEntry | null } | null>(null);
  const [dialog, setDialog] = useState<DialogState>(null);
  const [panel, setPanel] = useState<SidePanel>(null);
  const [query, setQuery] = useState("");
  const [scope, setScope] = useState<SearchScope>("directory");
  const [searchType, setSearchType] = useState<SearchType>("");
  const [results, setResults] = useState<{ q: string; items: SearchResult[] } | null>(null);
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
    previewParam !== null && previewEntry === null && dir.isSuccess && !dir.hasNextPage && !dir.isFetching
      ? previewParam
      : null;

  const setPreview = useCallback(
    (entry: FsEntry | null) => {
      const next = new URLSearchParams(searchParams);
      if (entry) next.set("preview", entry.name);
      else next.delete("preview");
      // A preview opens over the folder: the page keeps its scroll position.
      setSearchParams(next, { replace: entry !== null && previewParam !== null, preventScrollReset: true });
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

  /** A file as itself, a folder as a ZIP of its tree. */
  const download = async (entry: FsEntry) => {
    try {
      if (entry.isDirectory) return await saveZip([entry.path], `${entry.name}.zip`);
      const link = await fsApi.fileLink(entry.path, true, 3600);
      saveLink(link.presignedUrl, entry.name);
    } catch (err) {
      toast(errorText(err), "error");
    }
  };

  /** Uploads into the current folder (folders first), showing the upload panel. */
  const upload = async (files: DroppedFile[], dirs: string[]) => {
    if (files.length === 0 && dirs.length === 0) return;
    setPanel("uploads");
    await uploads.upload(path, files, dirs);
  };

  /** Reads the listing again, from storage rather than the server's cache. */
  const reload = () => void fsApi.list(path, null, undefined, true).then(() => refresh());

  const copyOrMove = async (mode: "copy" | "move", list: FsEntry[], dest: string, skipExisting: boolean) => {
    if (mode === "copy") {
      const result =
        list.length > 0
          ? await fsApi.batchCopy(
              list.map((e) => ({
                sourcePath: e.path,
                targetPath: e.isDirectory ? `${joinPath(dest, e.name)}/` : joinPath(dest, e.name),
              })),
              skipExisting,
            )
          : null;
      const outcome = copyOutcome(list.length, result);
      if (outcome.key === "explorer.copyQueued") setPanel("tasks");
      toast("params" in outcome ? t(outcome.key, outcome.params) : t(outcome.key), outcome.tone);
    } else {
      for (const e of list) await fsApi.rename(normalizePath(e.path), joinPath(dest, e.name));
      toast(t("explorer.moveDone", { count: list.length }), "success");
    }
    await refresh();
  };

  const makeFolder = async (name: string) => {
    await fsApi.mkdir(joinPath(path, name));
    await refresh();
  };

  const rename = async (entry: FsEntry, name: string) => {
    const from = normalizePath(entry.path);
    await fsApi.rename(from, joinPath(parentPath(from), name));
    await refresh();
  };

  const remove = async (list: FsEntry[]) => {
    const result = await fsApi.remove(list.map((e) => e.path));
    if (result.queued > 0) setPanel("tasks");
    await refresh();
    toast(t("explorer.deleted", { count: result.success }), "success");
  };

  const submitSearch = async (e: FormEvent) => {
    e.preventDefault();
    const q = query.trim();
    if (q.length < SEARCH_MIN) {
      toast(t("explorer.searchMin", { count: SEARCH_MIN }), "info");
      return;
    }
    void history.remember(q);
    try {
      const data = await fsApi.search(
        q,
        scope,
        { path, mountId: listing?.mount_id },
        { type: searchType || undefined },
      );
      setResults({ q, items: data.results });
    } catch (err) {
      toast(errorText(err), "error");
    }
  };

  const changeQuery = (value: string) => {
    setQuery(value);
    if (!value) setResults(null);
  };

  return {
    path,
    can,
    dir,
    listing,
    entries,
    images,
    prefs,
    setPrefs,
    basket,
    uploads,
    history,
    selection,
    selectedEntries,
    selectAll: () => setSelection(selectAll(order)),
    clearSelection: () => setSelection(EMPTY_SELECTION),
    menu,
    openMenu: setMenu,
    closeMenu: () => setMenu(null),
    dialog,
    setDialog,
    panel,
    setPanel,
    search: {
      query,
      changeQuery,
      scope,
      setScope,
      searchType,
      setSearchType,
      results,
      closeResults: () => setResults(null),
      submitSearch,
    },
    fileInput,
    folderInput,
    previewEntry,
    previewMissing,
    setPreview,
    open,
    onSelect,
    onMenu,
    onSort,
    loadMore,
    addToBasket,
    download,
    upload,
    reload,
    refresh,
    copyOrMove,
    makeFolder,
    rename,
    remove,
  };
}

export type ExplorerController = ReturnType<typeof useExplorer>;
