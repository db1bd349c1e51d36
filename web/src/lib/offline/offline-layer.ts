import { bindOfflineQueue } from "../api";
import { OFFLINE_DB_NAME } from "./sw-protocol";

/** The offline layer (local database, queue, replay): loaded after the first paint or on first use. */
export const loadOfflineLayer = () => import("./offline-sync");

// Writes made without a network wait in the local database.
bindOfflineQueue(async (write) => (await loadOfflineLayer()).queueWrite(write));

/**
 * When the page loads the offline layer (local database, expiry sweep, sign-out clearing, queue
 * replay): at start-up only if this browser already holds the local database, otherwise
 * the first time the page opens it. A visitor who has stored nothing downloads none of it,
 * and a database created during the visit is still swept and cleared like any other.
 */

/** Starts the offline layer once per page; callers need not wait for it. */
export function startOfflineLayer(): void {
  void loadOfflineLayer()
    .then((layer) => layer.startOfflineLayer())
    .catch(() => undefined);
}

/** Whether this browser holds the app's local database (true when it cannot tell). */
export async function hasLocalDatabase(): Promise<boolean> {
  if (typeof indexedDB === "undefined") return false;
  if (typeof indexedDB.databases !== "function") return true;
  try {
    return (await indexedDB.databases()).some((db) => db.name === OFFLINE_DB_NAME);
  } catch {
    return true;
  }
}

/** At start-up: the layer runs when there is something stored to sweep, clear or send. */
export async function startOfflineLayerIfStored(): Promise<void> {
  if (await hasLocalDatabase()) startOfflineLayer();
}

/** The local database and its cache helpers, for page code; opening it starts the layer. */
export function loadLocalStore() {
  startOfflineLayer();
  return Promise.all([import("./offline-cache"), import("./offline-db")]);
}
