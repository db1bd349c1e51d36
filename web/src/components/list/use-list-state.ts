import { useCallback, useEffect, useMemo, useState } from "react";
import { effectiveSearch, pageCount } from "./list-model";

/** Typing pauses this long before a search is sent. */
export const SEARCH_DELAY_MS = 300;

/** `value`, once it has stopped changing for `delayMs`. */
export function useDebounced<T>(value: T, delayMs: number): T {
  const [current, setCurrent] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setCurrent(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return current;
}

export interface RowSelection {
  ids: ReadonlySet<string>;
  has: (id: string) => boolean;
  toggle: (id: string, on: boolean) => void;
  set: (ids: Iterable<string>) => void;
  clear: () => void;
  /** Drops ids that no longer exist (after a delete). */
  remove: (ids: Iterable<string>) => void;
}

/** A set of selected row ids. */
export function useRowSelection(): RowSelection {
  const [ids, setIds] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = useCallback(
    (id: string, on: boolean) =>
      setIds((prev) => {
        const next = new Set(prev);
        if (on) next.add(id);
        else next.delete(id);
        return next;
      }),
    [],
  );
  const set = useCallback((list: Iterable<string>) => setIds(new Set(list)), []);
  const clear = useCallback(() => setIds(new Set()), []);
  const remove = useCallback(
    (list: Iterable<string>) =>
      setIds((prev) => {
        const next = new Set(prev);
        for (const id of list) next.delete(id);
        return next;
      }),
    [],
  );
  return useMemo(
    () => ({ ids, has: (id) => ids.has(id), toggle, set, clear, remove }),
    [ids, toggle, set, clear, remove],
  );
}

/**
 * State of an admin list: the search box (sent once typing pauses, from two
 * characters), module filters, page and page size, and the row selection.
 * A new search, filter or page size starts on page 1; the selection is per
 * page, so any of these (or another page) clears it.
 */
export function useListState<F extends Record<string, string>>({
  filters: initialFilters,
  pageSize,
}: {
  filters: F;
  pageSize: number;
}) {
  const [searchInput, setSearchInput] = useState("");
  const search = effectiveSearch(useDebounced(searchInput, SEARCH_DELAY_MS));
  const [filters, setFilters] = useState<F>(initialFilters);
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState(pageSize);
  const selection = useRowSelection();
  const { clear } = selection;

  const setFilter = useCallback(
    <K extends keyof F>(key: K, value: F[K]) => setFilters((prev) => ({ ...prev, [key]: value })),
    [],
  );

  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when these inputs change
  useEffect(() => {
    setPage(1);
  }, [search, filters, limit]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the selection is per page
  useEffect(() => {
    clear();
  }, [page, search, filters, limit]);

  const filtered = search !== undefined || Object.entries(filters).some(([k, v]) => v !== initialFilters[k]);

  return {
    searchInput,
    setSearchInput,
    search,
    filters,
    setFilter,
    /** True while a search or a non-default filter narrows the list ("no matches" rather than "empty"). */
    filtered,
    page,
    setPage,
    limit,
    setLimit,
    offset: (page - 1) * limit,
    selection,
  };
}

export type ListState = ReturnType<typeof useListState>;

/**
 * After a deletion emptied the last page, steps back to the new last page.
 * `total` is undefined until the list has loaded.
 */
export function usePageInRange(list: ListState, rowCount: number, total: number | undefined) {
  const { page, limit, setPage } = list;
  useEffect(() => {
    if (total === undefined || page === 1 || rowCount > 0) return;
    const last = pageCount(total, limit);
    if (page > last) setPage(last);
  }, [total, page, limit, rowCount, setPage]);
}

/**
 * What a confirmation dialog asks about (`null` while closed) and the error of
 * its last attempt; asking again clears that error.
 */
export function useConfirm<T>() {
  const [target, setTarget] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const ask = useCallback((next: T) => {
    setError(null);
    setTarget(next);
  }, []);
  const close = useCallback(() => setTarget(null), []);
  return { target, error, setError, ask, close };
}
