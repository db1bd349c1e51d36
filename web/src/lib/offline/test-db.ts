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
