import { useCallback, useSyncExternalStore } from "react";
import type { AuthState } from "../../../lib/auth-state";
import { useAuth } from "../../../lib/auth-store";
import { readJson, writeJson } from "../../../lib/storage";
import { addToBasket, type BasketItem, removeFromBasket } from "../model/basket";
import type { SortDir, SortKey } from "../model/sort";

export type ViewMode = "list" | "grid" | "gallery";

export interface ExplorerPrefs {
  view: ViewMode;
  sort: { key: SortKey; dir: SortDir };
}

const DEFAULT_PREFS: ExplorerPrefs = { view: "list", sort: { key: "name", dir: "asc" } };

/** Who the preferences and the basket belong to: an account, or one API key. */
export function userScope(auth: AuthState): string {
  if (auth.authType === "admin") return `admin:${auth.userInfo?.name ?? "admin"}`;
  if (auth.authType === "user") return `user:${auth.userInfo?.id ?? auth.userInfo?.name ?? "user"}`;
  if (auth.authType === "apikey") return `key:${auth.keyInfo?.id ?? auth.keyInfo?.name ?? "key"}`;
  return "anonymous";
}

/** A tiny localStorage-backed store per key, shared by every component that reads it. */
function createPersisted<T>(fallback: T) {
  const cache = new Map<string, T>();
  const listeners = new Set<() => void>();
  return {
    get(key: string): T {
      if (!cache.has(key)) cache.set(key, readJson<T>(key) ?? fallback);
      return cache.get(key)!;
    },
    set(key: string, value: T) {
      cache.set(key, value);
      writeJson(key, value);
      for (const l of listeners) l();
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

const prefsStore = createPersisted<ExplorerPrefs>(DEFAULT_PREFS);
const basketStore = createPersisted<BasketItem[]>([]);

export function useExplorerPrefs(): [ExplorerPrefs, (patch: Partial<ExplorerPrefs>) => void] {
  const key = `clipshare.explorer.prefs.${userScope(useAuth())}`;
  const prefs = useSyncExternalStore(prefsStore.subscribe, () => prefsStore.get(key));
  const update = useCallback(
    (patch: Partial<ExplorerPrefs>) => prefsStore.set(key, { ...prefsStore.get(key), ...patch }),
    [key],
  );
  return [{ ...DEFAULT_PREFS, ...prefs }, update];
}

export function useBasket() {
  const key = `clipshare.explorer.basket.${userScope(useAuth())}`;
  const items = useSyncExternalStore(basketStore.subscribe, () => basketStore.get(key));
  return {
    items,
    add: useCallback(
      (added: BasketItem[]) => basketStore.set(key, addToBasket(basketStore.get(key), added)),
      [key],
    ),
    remove: useCallback(
      (paths: string[]) => basketStore.set(key, removeFromBasket(basketStore.get(key), paths)),
      [key],
    ),
    clear: useCallback(() => basketStore.set(key, []), [key]),
  };
}
