/**
 * The service worker's cache of the app's own files beyond the precached shell
 * (see "The shell and page files" in docs/offline.md).
 */
import { ExpirationPlugin } from "workbox-expiration";
import { matchPrecache } from "workbox-precaching";
import { registerRoute } from "workbox-routing";
import { CacheFirst } from "workbox-strategies";
import { PAGE_ASSETS_FILE } from "../lib/offline/sw-protocol";

declare const self: ServiceWorkerGlobalScope;

/** Build output: content-hashed names, so a cached copy never goes stale. */
const ASSET_PATH = /^\/assets\//;
/** Enough for every chunk of a build or two; older builds' files drop out first. */
const MAX_CACHED_ASSETS = 400;

/**
 * For each page chunk, the files that page may load later (written by the build, see
 * web/scripts/app-shell.mjs), read from the precache once.
 */
let pageAssets: Promise<{ pages?: Record<string, string[]> }> | null = null;
function pageAssetsOf(path: string): Promise<string[]> {
  pageAssets ??= matchPrecache(`/${PAGE_ASSETS_FILE}`)
    .then((res) => (res ? (res.json() as Promise<{ pages?: Record<string, string[]> }>) : {}))
    .catch(() => ({}));
  return pageAssets.then((split) => split.pages?.[path.slice(1)] ?? []);
}

/** Files this worker has asked for on a page's behalf. */
const requested = new Set<string>();

const assetStrategy = new CacheFirst({
  cacheName: "clipshare-assets",
  plugins: [
    new ExpirationPlugin({ maxEntries: MAX_CACHED_ASSETS, purgeOnQuotaError: true }),
    {
      // A page's chunk was just cached: cache what that page loads later too (a dialog,
      // the Markdown view), so the whole page works offline, not only what was on screen.
      cacheDidUpdate: async ({ request, event }) => {
        for (const file of await pageAssetsOf(new URL(request.url).pathname)) {
          // Pages share files: each is fetched once however many pages name it.
          if (requested.has(file)) continue;
          requested.add(file);
          await assetStrategy.handle({ request: new Request(`/${file}`), event }).catch(() => {
            requested.delete(file);
          });
        }
      },
    },
  ],
});

/**
 * Page chunks and their styles: cached on first use (the page also sends what it loaded
 * before the worker took over), with the files that page loads later, so a page opened
 * once opens offline. Registered after the precache route, which serves the shell.
 */
export function installPageCaching(): void {
  registerRoute(
    ({ url, request }) =>
      url.origin === self.location.origin && ASSET_PATH.test(url.pathname) && request.method === "GET",
    assetStrategy,
  );
}
