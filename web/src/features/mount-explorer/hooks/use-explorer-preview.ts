import { useCallback, useMemo } from "react";
import { useNavigate, useSearchParams } from "react-router";
import type { FsEntry } from "../api/fs";
import { explorerHref, joinPath, normalizePath } from "../model/paths";
import type { useDirectory } from "./use-fs";

/**
 * The file shown over the folder, kept in the address (`?preview=<name>`) so
 * that a link opens it; opening a folder navigates instead.
 */
export function useExplorerPreview(path: string, entries: FsEntry[], dir: ReturnType<typeof useDirectory>) {
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const previewParam = searchParams.get("preview");

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

  return { previewEntry, previewMissing, setPreview, open };
}
