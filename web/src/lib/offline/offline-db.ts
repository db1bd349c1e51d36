import { APP_VERSION } from "@clipshare/shared";
import { type Database, type IdbDeps, openDatabase, type Store, type StoreSchema } from "./idb";
import { OFFLINE_DB_NAME } from "./sw-protocol";

/**
 * The web app's local database (IndexedDB through ./idb). Only the lazily loaded
 * offline modules and the service worker import this file, so it never weighs on
 * the first page.
 */

/** A paste a visitor opened (content included, never its password or access token). */
export interface CachedPaste {
  slug: string;
  createdAt: string;
  cachedAt: number;
  data: unknown;
}

/** A file share's details a visitor opened (without the token-bearing URLs). */
export interface CachedFile {
  slug: string;
  createdAt: string;
  cachedAt: number;
  data: unknown;
}

/** The first page of an explorer listing, visible only to the principal that listed it. */
export interface CachedDirectory {
  path: string;
  lastModified: string | null;
  cachedAt: number;
  owner: string;
  data: unknown;
}

export interface LocalSetting {
  key: string;
  value: unknown;
  updatedAt: number;
}

export type QueuedWriteType =
  | "paste-create"
  | "paste-update"
  | "paste-batch-delete"
  | "paste-clear-expired"
  | "settings-system"
  | "cache-clear"
  | "file-verify";

export type QueueStatus = "pending" | "failed" | "auth_required";

/** A write made while offline, sent again when the network is back. */
export interface QueueEntry {
  id?: number;
  type: QueuedWriteType;
  /** API path below `/api`, e.g. `/paste`. */
  endpoint: string;
  method: string;
  data: unknown;
  /** The admin token or API key of the moment; null for anonymous calls and after a sign-out. */
  authToken: string | null;
  authType: "admin" | "apikey" | "none";
  /** Backend the call was meant for ("" = this origin). */
  baseUrl: string;
  /** Epoch ms when it was queued; replay goes in this order. */
  timestamp: number;
  status: QueueStatus;
  httpStatus: number | null;
  error: string | null;
  attempts: number;
}

export interface SearchHistoryEntry {
  id?: number;
  query: string;
  timestamp: number;
}

/** "0.7.3" → 703: every app release that changes the schema bumps the database version with it. */
export function dbVersionOf(appVersion: string): number {
  const [major = 0, minor = 0, patch = 0] = appVersion
    .split(".")
    .map((part) => Number.parseInt(part, 10) || 0);
  return major * 10_000 + minor * 100 + patch;
}

export { OFFLINE_DB_NAME };
export const OFFLINE_DB_VERSION = dbVersionOf(APP_VERSION);

/**
 * IndexedDB version of the database: earlier builds opened it through Dexie, which
 * numbers version v as v × 10; keeping that numbering opens their databases as they are.
 */
export const OFFLINE_IDB_VERSION = OFFLINE_DB_VERSION * 10;

/**
 * Stores, key paths and indexes, laid out as Dexie laid them out (indexes named after their
 * property). A later release adds stores or indexes here and they are created on upgrade,
 * keeping the rows; a change to the shape of rows would need a migration step of its own.
 */
export const OFFLINE_SCHEMA = {
  pastes: { key: "slug", indexes: ["createdAt", "cachedAt"] },
  files: { key: "slug", indexes: ["createdAt", "cachedAt"] },
  directories: { key: "path", indexes: ["lastModified", "cachedAt"] },
  settings: { key: "key" },
  offlineQueue: { key: "id", autoIncrement: true, indexes: ["timestamp", "type"] },
  searchHistory: { key: "id", autoIncrement: true, indexes: ["query", "timestamp"] },
} satisfies Record<string, StoreSchema>;

export interface OfflineStores {
  pastes: Store<CachedPaste, string>;
  files: Store<CachedFile, string>;
  directories: Store<CachedDirectory, string>;
  settings: Store<LocalSetting, string>;
  offlineQueue: Store<QueueEntry, number>;
  searchHistory: Store<SearchHistoryEntry, number>;
}

export type OfflineDb = Database<OfflineStores>;

export function openOfflineDb(
  name = OFFLINE_DB_NAME,
  deps?: IdbDeps,
  version = OFFLINE_IDB_VERSION,
  schema: Record<keyof OfflineStores, StoreSchema> = OFFLINE_SCHEMA,
): OfflineDb {
  return openDatabase<OfflineStores>(name, version, schema, deps);
}

let shared: OfflineDb | null = null;

/** The app's one connection (page or service worker). */
export function offlineDb(): OfflineDb {
  shared ??= openOfflineDb();
  return shared;
}
