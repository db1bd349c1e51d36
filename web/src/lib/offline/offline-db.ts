import { APP_VERSION } from "@clipshare/shared";
import Dexie, { type EntityTable } from "dexie";
import { OFFLINE_DB_NAME } from "./sw-protocol";

/**
 * The web app's local database (IndexedDB through Dexie). Only the lazily loaded
 * offline modules and the service worker import this file, so Dexie never
 * weighs on the first page.
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

export class OfflineDb extends Dexie {
  pastes!: EntityTable<CachedPaste, "slug">;
  files!: EntityTable<CachedFile, "slug">;
  directories!: EntityTable<CachedDirectory, "path">;
  settings!: EntityTable<LocalSetting, "key">;
  offlineQueue!: EntityTable<QueueEntry, "id">;
  searchHistory!: EntityTable<SearchHistoryEntry, "id">;

  constructor(name = OFFLINE_DB_NAME, options?: ConstructorParameters<typeof Dexie>[1]) {
    super(name, options);
    // A later schema adds a new `this.version(dbVersionOf(next)).stores({...})` below this one
    // (with an `upgrade()` where rows change shape) and keeps this declaration, so existing
    // data is carried over instead of dropped.
    this.version(OFFLINE_DB_VERSION).stores({
      pastes: "slug, createdAt, cachedAt",
      files: "slug, createdAt, cachedAt",
      directories: "path, lastModified, cachedAt",
      settings: "key",
      offlineQueue: "++id, timestamp, type",
      searchHistory: "++id, query, timestamp",
    });
  }
}

let shared: OfflineDb | null = null;

/** The app's one connection (page or service worker). */
export function offlineDb(): OfflineDb {
  shared ??= new OfflineDb();
  return shared;
}
