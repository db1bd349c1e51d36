import { useSyncExternalStore } from "react";

/** Service-worker update state (spec §4: update prompt; accept → skip waiting → reload after 1 s). */
let needRefresh = false;
let applyUpdate: (() => Promise<void>) | null = null;
const listeners = new Set<() => void>();

function notify() {
  for (const l of listeners) l();
}

export async function registerServiceWorker(): Promise<void> {
  if (!("serviceWorker" in navigator) || import.meta.env.DEV) return;
  const { registerSW } = await import("virtual:pwa-register");
  const update = registerSW({
    immediate: true,
    onNeedRefresh() {
      needRefresh = true;
      notify();
    },
  });
  applyUpdate = async () => {
    await update(false);
    setTimeout(() => window.location.reload(), 1000);
  };
}

export const pwaStore = {
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  getSnapshot: () => needRefresh,
  dismiss() {
    needRefresh = false;
    notify();
  },
  async update() {
    needRefresh = false;
    notify();
    await applyUpdate?.();
  },
};

export function useUpdateAvailable(): boolean {
  return useSyncExternalStore(pwaStore.subscribe, pwaStore.getSnapshot, pwaStore.getSnapshot);
}
