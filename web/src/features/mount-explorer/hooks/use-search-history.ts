import { SEARCH_MIN_LENGTH } from "@clipshare/shared";
import { useCallback, useEffect, useState } from "react";
import { loadLocalStore as load } from "../../../lib/offline/offline-layer";

/** Explorer searches kept in the local database: suggestions, newest first, and "clear all". */
export function useSearchHistory() {
  const [items, setItems] = useState<string[]>([]);

  const reload = useCallback(async () => {
    try {
      const [cache, db] = await load();
      setItems(await cache.searchHistory(db.offlineDb()));
    } catch {
      setItems([]);
    }
  }, []);

  useEffect(() => {
    void reload();
  }, [reload]);

  const remember = useCallback(
    async (query: string) => {
      if (query.length < SEARCH_MIN_LENGTH) return;
      try {
        const [cache, db] = await load();
        await cache.rememberSearch(db.offlineDb(), query);
      } catch {
        return;
      }
      await reload();
    },
    [reload],
  );

  const clear = useCallback(async () => {
    try {
      const [cache, db] = await load();
      await cache.clearSearchHistory(db.offlineDb());
    } finally {
      await reload();
    }
  }, [reload]);

  return { items, remember, clear };
}
