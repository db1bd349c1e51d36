import { OFFLINE_CACHE_EXPIRY_MS } from "@clipshare/shared";
import type { OfflineDb } from "./offline-db";

/**
 * Read-offline copies in the local database: pastes and file shares a visitor
 * opened, explorer directories a signed-in user listed. Every copy carries the
 * time it was made; copies older than seven days are never shown and are swept.
 * Passwords and access tokens are stripped before anything is written.
 */

/** What a page shows instead of the live answer, with the time of the copy. */
export type OfflineCopy<T> = T & { offlineCopyAt: number };

export const SEARCH_HISTORY_LIMIT = 20;

const isFresh = (cachedAt: number, now: number) => now - cachedAt < OFFLINE_CACHE_EXPIRY_MS;

/** True when a share's own expiry (ISO time or null) has passed. */
function shareExpired(expiresAt: unknown, now: number): boolean {
  if (typeof expiresAt !== "string") return false;
  const at = Date.parse(expiresAt);
  return Number.isFinite(at) && at <= now;
}

/** Fields that open a share without its password: they stay in memory only. */
const SECRET_FIELDS = ["access_token", "accessToken", "previewUrl", "downloadUrl", "password", "token"];

function withoutSecrets<T extends object>(value: T): T {
  const copy = { ...value } as Record<string, unknown>;
  for (const field of SECRET_FIELDS) delete copy[field];
  return copy as T;
}

interface ShareLike {
  slug: string;
  content?: string;
  requiresPassword?: boolean;
  requires_password?: boolean;
  createdAt?: string;
  created_at?: string;
  [field: string]: unknown;
}

/** Keeps a paste or file share the visitor could read; a locked one (still behind its password) is not kept. */
export async function saveShare(
  db: OfflineDb,
  kind: "pastes" | "files",
  share: ShareLike,
  now = Date.now(),
): Promise<void> {
  if (share.requiresPassword || share.requires_password) return;
  if (kind === "pastes" && typeof share.content !== "string") return;
  await db[kind].put({
    slug: share.slug,
    createdAt: share.createdAt ?? share.created_at ?? "",
    cachedAt: now,
    data: withoutSecrets(share),
  });
}

/**
 * Copies saved by earlier releases hold the camelCase answers of that time
 * (expiresAt, hasPassword, …); the app reads the snake_case spelling, added
 * here where a copy lacks it.
 */
function withSnakeCaseFields(data: Record<string, unknown>): Record<string, unknown> {
  const out = { ...data };
  for (const [key, value] of Object.entries(data)) {
    const snake = key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    if (snake !== key && !(snake in out)) out[snake] = value;
  }
  return out;
}

export async function readShare<T>(
  db: OfflineDb,
  kind: "pastes" | "files",
  slug: string,
  now = Date.now(),
): Promise<OfflineCopy<T> | null> {
  const row = await db[kind].get(slug);
  if (!row || !isFresh(row.cachedAt, now)) return null;
  const data = withSnakeCaseFields(row.data as Record<string, unknown>);
  if (shareExpired(data.expires_at, now)) return null;
  return { ...(data as T), offlineCopyAt: row.cachedAt };
}

/** The server said the share is gone (deleted, expired, used up): its copy goes too. */
export async function dropShare(db: OfflineDb, kind: "pastes" | "files", slug: string): Promise<void> {
  await db[kind].delete(slug);
}

export async function saveDirectory(
  db: OfflineDb,
  owner: string,
  path: string,
  listing: object,
  now = Date.now(),
): Promise<void> {
  const modified = (listing as { modified?: unknown }).modified;
  await db.directories.put({
    path,
    owner,
    lastModified: typeof modified === "string" ? modified : null,
    cachedAt: now,
    data: listing,
  });
}

/** A directory copy, only for the principal that listed it. */
export async function readDirectory<T>(
  db: OfflineDb,
  owner: string,
  path: string,
  now = Date.now(),
): Promise<OfflineCopy<T> | null> {
  const row = await db.directories.get(path);
  if (!row || row.owner !== owner || !isFresh(row.cachedAt, now)) return null;
  return { ...(row.data as T), offlineCopyAt: row.cachedAt };
}

/** The server refused or no longer has the directory: its copy goes too. */
export async function dropDirectory(db: OfflineDb, path: string): Promise<void> {
  await db.directories.delete(path);
}

/** Deletes every copy older than the expiry; returns how many went. */
export async function sweepExpired(db: OfflineDb, now = Date.now()): Promise<number> {
  const cutoff = now - OFFLINE_CACHE_EXPIRY_MS;
  const counts = await Promise.all(
    [db.pastes, db.files, db.directories].map((store) => store.deleteAll({ index: "cachedAt", to: cutoff })),
  );
  return counts.reduce((a, b) => a + b, 0);
}

/** Sign-out: what only a signed-in user could see leaves the device. */
export async function clearSignedInData(db: OfflineDb): Promise<void> {
  await db.transaction(["directories", "searchHistory"], async (stores) => {
    await stores.directories.clear();
    await stores.searchHistory.clear();
  });
}

/** Newest first, each query once. */
export async function searchHistory(db: OfflineDb): Promise<string[]> {
  const rows = await db.searchHistory.all({ index: "timestamp", reverse: true });
  return [...new Set(rows.map((r) => r.query))].slice(0, SEARCH_HISTORY_LIMIT);
}

export async function rememberSearch(db: OfflineDb, query: string, now = Date.now()): Promise<void> {
  await db.transaction(["searchHistory"], async ({ searchHistory: history }) => {
    await history.deleteAll({ index: "query", only: query });
    await history.add({ query, timestamp: now });
    const excess = (await history.count()) - SEARCH_HISTORY_LIMIT;
    if (excess > 0) await history.bulkDelete(await history.keys({ index: "timestamp", limit: excess }));
  });
}

export async function clearSearchHistory(db: OfflineDb): Promise<void> {
  await db.searchHistory.clear();
}
