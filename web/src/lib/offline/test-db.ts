import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { type OfflineDb, openOfflineDb } from "./offline-db";

/** A fresh local database for one unit test (an in-memory IndexedDB implementation in Node). */
export function testDb(
  name = `ClipShare-test-${crypto.randomUUID()}`,
  indexedDB = new IDBFactory(),
): OfflineDb {
  return openOfflineDb(name, { indexedDB, IDBKeyRange });
}

export { IDBFactory, IDBKeyRange };

/**
 * The stores as the Dexie-based builds (up to 0.7.3) created them at IndexedDB version 7030:
 * `[store, key path, auto-increment, indexes]`, each index named after its property. Written
 * out here, not taken from the app's schema, so tests check the app against it.
 */
export const DEXIE_LAYOUT: [string, string, boolean, string[]][] = [
  ["pastes", "slug", false, ["createdAt", "cachedAt"]],
  ["files", "slug", false, ["createdAt", "cachedAt"]],
  ["directories", "path", false, ["lastModified", "cachedAt"]],
  ["settings", "key", false, []],
  ["offlineQueue", "id", true, ["timestamp", "type"]],
  ["searchHistory", "id", true, ["query", "timestamp"]],
];
