import type { APIRequestContext, Page } from "@playwright/test";
import { PAGE_ASSETS_FILE } from "../../src/lib/offline/sw-protocol";
import { createLocalMount, putFile } from "./factories";
import { expect, unique } from "./fixtures";

/** Helpers for the offline web app specs. */

/** Browser log lines of requests that fail while the context is offline. */
export const OFFLINE_NOISE =
  /net::ERR_INTERNET_DISCONNECTED|Failed to fetch|ERR_FAILED|Failed to load resource/;

/**
 * Loads the page until the service worker controls it (precache complete) and has
 * cached the files of the page (what it shows and what it may load later).
 */
export async function controlledBy(page: Page, path = "/") {
  await page.goto(path);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
  await expect.poll(() => pageFilesMissing(page), { timeout: 20_000 }).toEqual([]);
}

/** Files of the page chunks this page loaded that the worker has not cached yet. */
function pageFilesMissing(page: Page): Promise<string[]> {
  return page.evaluate(async (splitFile) => {
    const split = (await (await fetch(`/${splitFile}`)).json()) as { pages: Record<string, string[]> };
    const loaded = performance
      .getEntriesByType("resource")
      .map((entry) => new URL(entry.name).pathname.slice(1))
      .filter((file) => file in split.pages);
    const cache = await caches.open("clipshare-assets");
    const missing: string[] = [];
    for (const file of new Set([...loaded, ...loaded.flatMap((chunk) => split.pages[chunk] ?? [])])) {
      if (!(await cache.match(`/${file}`))) missing.push(file);
    }
    return missing;
  }, PAGE_ASSETS_FILE);
}

/** Rows of a store of the app's local database (IndexedDB "ClipShare"), read in the page. */
export function localRows<T = Record<string, unknown>>(page: Page, store: string): Promise<T[]> {
  return page.evaluate(
    (name) =>
      new Promise<T[]>((resolve, reject) => {
        const open = indexedDB.open("ClipShare");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains(name)) {
            db.close();
            return resolve([]);
          }
          const req = db.transaction(name).objectStore(name).getAll();
          req.onsuccess = () => {
            resolve(req.result as T[]);
            db.close();
          };
          req.onerror = () => reject(req.error);
        };
      }),
    store,
  );
}

export const countRows = async (page: Page, store: string) => (await localRows(page, store)).length;

export const queueEntries = (page: Page) =>
  localRows<{ status: string; type: string; httpStatus: number | null }>(page, "offlineQueue");

export async function pasteBySlug(request: APIRequestContext, token: string, slug: string) {
  const res = await request.get(`/api/pastes?limit=50&search=${encodeURIComponent(slug)}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(res.status()).toBe(200);
  return ((await res.json()).data as { slug: string }[]).find((p) => p.slug === slug) ?? null;
}

/** A LOCAL mount of its own holding one file; returns the mount path. */
export async function mountWithFile(request: APIRequestContext, token: string, fileName: string) {
  const mountPath = `/${unique("offline")}`;
  await createLocalMount(request, token, mountPath, { storageName: unique("offcfg") });
  await putFile(request, token, `${mountPath}/${fileName}`, "hello");
  return mountPath;
}
