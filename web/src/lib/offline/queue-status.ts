import { useSyncExternalStore } from "react";
import type { QueueEntry } from "./offline-db";

/**
 * What the page knows about the offline queue, for the indicator and panel.
 * Tiny and free of the local database: the lazily loaded offline layer (offline-sync.ts)
 * fills it in after reading the local database.
 */
export type QueueItem = Pick<QueueEntry, "type" | "status" | "error" | "httpStatus" | "timestamp"> & {
  id: number;
};

/** Window event carrying a ReplayReport (e.g. the file page picks up a queued password check). */
export const QUEUE_REPLAYED_EVENT = "clipshare:queue-replayed";

let items: QueueItem[] = [];
const listeners = new Set<() => void>();

export const queueStatus = {
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  getSnapshot: (): QueueItem[] => items,
  set(next: QueueItem[]) {
    items = next;
    for (const l of listeners) l();
  },
};

export function useOfflineQueue(): QueueItem[] {
  return useSyncExternalStore(queueStatus.subscribe, queueStatus.getSnapshot, queueStatus.getSnapshot);
}
