import { afterEach, describe, expect, it } from "vitest";
import { request } from "./idb";
import { readShare, saveShare } from "./offline-cache";
import {
  dbVersionOf,
  OFFLINE_IDB_VERSION,
  OFFLINE_SCHEMA,
  type OfflineDb,
  openOfflineDb,
  type QueueEntry,
} from "./offline-db";
import { listQueue } from "./offline-queue";
import { DEXIE_LAYOUT, IDBFactory, IDBKeyRange } from "./test-db";

const T0 = Date.parse("2026-05-01T10:00:00Z");

const queued = (timestamp: number, content: string): QueueEntry => ({
  type: "paste-create",
  endpoint: "/paste",
  method: "POST",
  data: { content },
  authToken: null,
  authType: "none",
  baseUrl: "",
  timestamp,
  status: "pending",
  httpStatus: null,
  error: null,
  attempts: 0,
});

/**
 * The database as the 0.7.3 release left it through Dexie 4: `version(703)` opened as IndexedDB
 * version 7030; `"slug, createdAt, cachedAt"` = key path `slug` plus one index per property, named
 * after it; `"++id, …"` = auto-increment key `id`. `skip` leaves a store out.
 */
function createLikeDexie(factory: IDBFactory, name: string, skip = ""): Promise<IDBDatabase> {
  const req = factory.open(name, 7030);
  req.onupgradeneeded = () => {
    const db = req.result;
    for (const [store, keyPath, autoIncrement, indexes] of DEXIE_LAYOUT) {
      if (store === skip) continue;
      const s = db.createObjectStore(store, { keyPath, autoIncrement });
      for (const index of indexes) s.createIndex(index, index, { unique: false, multiEntry: false });
    }
  };
  return request(req);
}

async function fillLikeDexie(db: IDBDatabase): Promise<void> {
  const tx = db.transaction(["pastes", "offlineQueue"], "readwrite");
  tx.objectStore("pastes").put({
    slug: "kept",
    createdAt: "2026-04-30T00:00:00.000Z",
    cachedAt: T0,
    data: { slug: "kept", content: "written by 0.7.3", expiresAt: null },
  });
  tx.objectStore("offlineQueue").add(queued(T0 + 2, "second"));
  tx.objectStore("offlineQueue").add(queued(T0 + 1, "first"));
  await new Promise((resolve) => {
    tx.oncomplete = resolve;
  });
  db.close();
}

let db: OfflineDb | null = null;
afterEach(async () => {
  await db?.delete();
  db = null;
});

const deps = (indexedDB: IDBFactory) => ({ indexedDB, IDBKeyRange });

async function versionOf(factory: IDBFactory, name: string): Promise<number> {
  const raw = await request(factory.open(name));
  raw.close();
  return raw.version;
}

describe("local database", () => {
  it("derives the database version from the app version, numbered as Dexie numbered it", () => {
    expect(dbVersionOf("0.7.3")).toBe(703);
    expect(dbVersionOf("1.12.0")).toBe(11200);
    expect(OFFLINE_IDB_VERSION).toBe(dbVersionOf("0.7.3") * 10);
  });

  it("opens a database the Dexie-based release wrote, with its rows, ids and order kept", async () => {
    const factory = new IDBFactory();
    await fillLikeDexie(await createLikeDexie(factory, "ClipShare-dexie"));

    db = openOfflineDb("ClipShare-dexie", deps(factory));
    expect(await readShare(db, "pastes", "kept", T0)).toMatchObject({ content: "written by 0.7.3" });
    const queue = await listQueue(db);
    expect(queue.map((e) => [e.id, (e.data as { content: string }).content])).toEqual([
      [2, "first"],
      [1, "second"],
    ]);
    // New rows continue the numbering of the old ones.
    expect(await db.offlineQueue.add(queued(T0 + 3, "third"))).toBe(3);
    db.close();
    expect(await versionOf(factory, "ClipShare-dexie")).toBe(7030);
  });

  it("adds a store an existing database lacks, keeping what the others hold", async () => {
    const factory = new IDBFactory();
    await fillLikeDexie(await createLikeDexie(factory, "ClipShare-partial", "searchHistory"));

    db = openOfflineDb("ClipShare-partial", deps(factory));
    await db.searchHistory.add({ query: "report", timestamp: T0 });
    expect(await db.searchHistory.count()).toBe(1);
    expect(await db.pastes.count()).toBe(1);
    db.close();
    expect(await versionOf(factory, "ClipShare-partial")).toBe(7031);
  });

  it("keeps existing data when a later app version adds an index, and an older build still opens it", async () => {
    const factory = new IDBFactory();
    db = openOfflineDb("ClipShare-upgrade", deps(factory));
    await saveShare(db, "pastes", { slug: "kept", content: "x", expiresAt: "2026-06-01T00:00:00Z" }, T0);
    await db.offlineQueue.add(queued(T0, "queued"));

    // How a later release declares its schema: the same stores, with what it adds.
    const later = openOfflineDb("ClipShare-upgrade", deps(factory), dbVersionOf("0.7.4") * 10, {
      ...OFFLINE_SCHEMA,
      pastes: { key: "slug", indexes: ["createdAt", "cachedAt", "data.expiresAt"] },
    });
    // The open connection steps aside for the upgrade instead of blocking it.
    expect(await later.pastes.keys({ index: "data.expiresAt" })).toEqual(["kept"]);
    expect(await later.offlineQueue.count()).toBe(1);
    later.close();
    expect(await versionOf(factory, "ClipShare-upgrade")).toBe(7040);

    // The older build reopens on its next call, on the database as the later one left it.
    expect(await readShare(db, "pastes", "kept", T0)).toMatchObject({ content: "x" });
    expect(await db.offlineQueue.count()).toBe(1);
  });
});
