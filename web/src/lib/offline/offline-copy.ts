import { isApiError } from "../api-error";
import { authStore } from "../auth-store";
import type { OfflineCopy } from "./offline-cache";
import { loadLocalStore } from "./offline-layer";

/**
 * Read-through for pages: answer from the server and keep a copy; when the
 * server cannot be reached, answer from the copy (marked with its time).
 * The local database loads only when a copy is written or needed.
 */

export type { OfflineCopy };
export type MaybeOffline<T> = T & { offlineCopyAt?: number };

const unreachable = (error: unknown) => isApiError(error) && error.kind === "network";

/** The server answered that this is gone or not for this user any more. */
const gone = (error: unknown) =>
  isApiError(error) && error.kind === "http" && [403, 404, 410].includes(error.status);

/** Best effort: the local database may be unavailable. */
function withDb(
  work: (cache: typeof import("./offline-cache"), db: import("./offline-db").OfflineDb) => Promise<unknown>,
) {
  void loadLocalStore()
    .then(([cache, dbModule]) => work(cache, dbModule.offlineDb()))
    .catch(() => undefined);
}

/** Who may see a directory copy: the signed-in principal, or nobody. */
function owner(): string | null {
  const s = authStore.getState();
  if (s.authType === "admin") return "admin";
  if (s.authType === "user") return `user:${s.userInfo?.id ?? s.userInfo?.name ?? ""}`;
  if (s.authType === "apikey") return `apikey:${s.keyInfo?.id ?? s.keyInfo?.name ?? ""}`;
  return null;
}

type ShareKind = "pastes" | "files";

/**
 * Runs `work` once the browser is idle, so the local database loads after
 * the page has drawn what it fetched, not on the way to it.
 */
function whenIdle(work: () => void): void {
  if (typeof requestIdleCallback === "function") requestIdleCallback(work, { timeout: 2000 });
  else setTimeout(work, 0);
}

/** Keeps a share the visitor can read (best effort: no IndexedDB, no copy), once the page is drawn. */
export function keepShare(kind: ShareKind, share: { slug: string }): void {
  whenIdle(() => withDb((cache, db) => cache.saveShare(db, kind, share)));
}

async function readCopy<T>(read: () => Promise<OfflineCopy<T> | null>): Promise<OfflineCopy<T> | null> {
  try {
    return await read();
  } catch {
    return null;
  }
}

export async function withOfflineShare<T extends { slug: string }>(
  kind: ShareKind,
  slug: string,
  fetchLive: () => Promise<T>,
): Promise<MaybeOffline<T>> {
  try {
    const live = await fetchLive();
    keepShare(kind, live);
    return live;
  } catch (error) {
    if (unreachable(error)) {
      const copy = await readCopy(async () => {
        const [cache, db] = await loadLocalStore();
        return cache.readShare<T>(db.offlineDb(), kind, slug);
      });
      if (copy) return copy;
    }
    if (gone(error)) withDb((cache, db) => cache.dropShare(db, kind, slug));
    throw error;
  }
}

export async function withOfflineDirectory<T extends object>(
  path: string,
  fetchLive: () => Promise<T>,
): Promise<MaybeOffline<T>> {
  const who = owner();
  try {
    const live = await fetchLive();
    if (who) withDb((cache, db) => cache.saveDirectory(db, who, path, live));
    return live;
  } catch (error) {
    if (who && unreachable(error)) {
      const copy = await readCopy(async () => {
        const [cache, db] = await loadLocalStore();
        return cache.readDirectory<T>(db.offlineDb(), who, path);
      });
      if (copy) return copy;
    }
    if (gone(error)) withDb((cache, db) => cache.dropDirectory(db, path));
    throw error;
  }
}
