import { useCallback, useMemo, useRef } from "react";
import { useParams } from "react-router";
import { useCapabilities } from "../../../lib/auth-store";
import type { FsEntry } from "../api/fs";
import type { Point } from "../model/gesture";
import { fileKind, normalizePath } from "../model/paths";
import { explorerPermissions } from "../model/permissions";
import { nextSort, type SortKey, sortEntries } from "../model/sort";
import type { DroppedFile } from "../model/upload-walk";
import { useExplorerClipboard } from "./use-explorer-clipboard";
import { useExplorerDialogs } from "./use-explorer-dialogs";
import { useExplorerOperations } from "./use-explorer-operations";
import { useExplorerPreview } from "./use-explorer-preview";
import { useExplorerSearch } from "./use-explorer-search";
import { useExplorerSelection } from "./use-explorer-selection";
import { useExplorerPrefs } from "./use-explorer-state";
import { useExplorerUploads } from "./use-explorer-uploads";
import { useDirectory, useRefreshFs } from "./use-fs";

export type { DialogState, SidePanel } from "./use-explorer-dialogs";
export type { SearchScope, SearchType } from "./use-explorer-search";

/**
 * The explorer's controller: the folder in the URL and its listing, put
 * together with the hooks for the selection, dialogs, search, preview,
 * clipboard and folder operations. The views only read this and call it.
 */
export function useExplorer() {
  const params = useParams();
  const path = normalizePath(params["*"] ?? "");
  const [prefs, setPrefs] = useExplorerPrefs();
  const { mask } = useCapabilities();
  const can = useMemo(() => explorerPermissions(mask), [mask]);
  const refresh = useRefreshFs();
  const dir = useDirectory(path);
  const uploads = useExplorerUploads();
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);

  const listing = dir.data?.pages[0];
  const entries = useMemo(
    () => sortEntries(dir.data?.pages.flatMap((p) => p.items) ?? [], prefs.sort.key, prefs.sort.dir),
    [dir.data, prefs.sort.key, prefs.sort.dir],
  );
  const images = useMemo(
    () => entries.filter((e) => !e.isDirectory && fileKind(e.name, e.mimetype) === "image"),
    [entries],
  );

  const selection = useExplorerSelection(path, entries);
  const dialogs = useExplorerDialogs();
  const { history, search } = useExplorerSearch(path, listing?.mount_id);
  const preview = useExplorerPreview(path, entries, dir);
  const clipboard = useExplorerClipboard(refresh, dialogs.setPanel);
  const operations = useExplorerOperations(path, refresh, dialogs.setPanel);

  const { selectForMenu } = selection;
  const { openMenu } = dialogs;
  const onMenu = useCallback(
    (entry: FsEntry | null, at: Point) => {
      if (entry) selectForMenu(entry);
      openMenu({ at, entry });
    },
    [selectForMenu, openMenu],
  );
  const onSort = useCallback(
    (key: SortKey) => setPrefs({ sort: nextSort(prefs.sort, key) }),
    [prefs.sort, setPrefs],
  );
  const loadMore = useCallback(() => {
    if (dir.hasNextPage && !dir.isFetchingNextPage) void dir.fetchNextPage();
  }, [dir]);

  /** Uploads into the current folder (folders first), showing the upload panel. */
  const upload = async (files: DroppedFile[], dirs: string[]) => {
    if (files.length === 0 && dirs.length === 0) return;
    dialogs.setPanel("uploads");
    await uploads.upload(path, files, dirs);
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
    uploads,
    history,
    search,
    fileInput,
    folderInput,
    ...selection,
    ...dialogs,
    ...preview,
    ...clipboard,
    onMenu,
    onSort,
    loadMore,
    ...operations,
    upload,
    refresh,
  };
}

export type ExplorerController = ReturnType<typeof useExplorer>;
