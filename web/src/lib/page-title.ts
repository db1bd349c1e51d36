import { useEffect, useSyncExternalStore } from "react";

/**
 * A title a page names itself (a paste's own title), which the browser tab shows
 * instead of its route's title while the page is open.
 */
let current: string | null = null;
const listeners = new Set<() => void>();

function set(next: string | null): void {
  current = next;
  for (const l of listeners) l();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const snapshot = () => current;

export function usePageOwnTitle(): string | null {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}

/** While the calling page is shown, the tab reads `title`. */
export function useOwnTitle(title: string | null): void {
  useEffect(() => {
    set(title);
    return () => set(null);
  }, [title]);
}
