import { RELOAD_DELAY_MS } from "@clipshare/shared";
import { useSyncExternalStore } from "react";

/**
 * Service-worker state for the page: the update prompt (accept → skip
 * waiting → reload after 1 s) and the worker's lifecycle state, shown to admins.
 */
export type WorkerState = "unknown" | "installing" | "waiting" | "active" | "redundant";

interface PwaSnapshot {
  needRefresh: boolean;
  workerState: WorkerState;
}

let snapshot: PwaSnapshot = { needRefresh: false, workerState: "unknown" };
let applyUpdate: (() => Promise<void>) | null = null;
const listeners = new Set<() => void>();

function set(next: Partial<PwaSnapshot>) {
  snapshot = { ...snapshot, ...next };
  for (const l of listeners) l();
}

/** The newest worker decides: one installing or waiting is what comes next; else the active one. */
export function workerStateOf(registration: {
  installing: { state: string } | null;
  waiting: { state: string } | null;
  active: { state: string } | null;
}): WorkerState {
  const newest = registration.installing ?? registration.waiting ?? registration.active;
  if (!newest) return "unknown";
  switch (newest.state) {
    case "installing":
      return "installing";
    case "installed":
      return "waiting";
    case "activating":
    case "activated":
      return "active";
    case "redundant":
      return "redundant";
    default:
      return "unknown";
  }
}

function watchRegistration(registration: ServiceWorkerRegistration) {
  const update = () => set({ workerState: workerStateOf(registration) });
  const watch = (worker: ServiceWorker | null) => worker?.addEventListener("statechange", update);
  watch(registration.installing);
  watch(registration.waiting);
  watch(registration.active);
  registration.addEventListener("updatefound", () => {
    watch(registration.installing);
    update();
  });
  update();
}

/**
 * The app's own files this page fetched itself (before a worker controlled it): handed
 * to the worker, which caches them as if it had served them, so this page opens offline.
 */
function loadedAssets(): string[] {
  return performance
    .getEntriesByType("resource")
    .map((entry) => new URL(entry.name))
    .filter((url) => url.origin === window.location.origin && url.pathname.startsWith("/assets/"))
    .map((url) => url.href);
}

/** Asks the worker to cache what the page loaded (understood by the worker's router). */
async function cacheLoadedAssets(): Promise<void> {
  const registration = await navigator.serviceWorker.ready;
  registration.active?.postMessage({ type: "CACHE_URLS", payload: { urlsToCache: loadedAssets() } });
}

export async function registerServiceWorker(): Promise<void> {
  if (!("serviceWorker" in navigator) || import.meta.env.DEV) return;
  const { registerSW } = await import("virtual:pwa-register");
  const update = registerSW({
    immediate: true,
    onNeedRefresh() {
      set({ needRefresh: true });
    },
    onRegisteredSW(_url, registration) {
      if (registration) watchRegistration(registration);
      void cacheLoadedAssets();
    },
  });
  applyUpdate = async () => {
    await update(false);
    setTimeout(() => window.location.reload(), RELOAD_DELAY_MS);
  };
}

export const pwaStore = {
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  getSnapshot: () => snapshot,
  dismiss() {
    set({ needRefresh: false });
  },
  async update() {
    set({ needRefresh: false });
    await applyUpdate?.();
  },
};

function usePwa(): PwaSnapshot {
  return useSyncExternalStore(pwaStore.subscribe, pwaStore.getSnapshot, pwaStore.getSnapshot);
}

export function useUpdateAvailable(): boolean {
  return usePwa().needRefresh;
}

export function useWorkerState(): WorkerState {
  return usePwa().workerState;
}
