/**
 * ClipShare's service worker. It serves the precached app shell and the app's
 * own code and styles (cached when first used) and nothing else from a cache:
 * API calls, raw and download links, proxied files and WebDAV always go to the
 * network, so no credentialed answer and no other user's share content is ever
 * stored by it. It also receives the Web Share Target POST and replays the
 * offline queue on Background Sync.
 */
import { clientsClaim } from "workbox-core";
import { ExpirationPlugin } from "workbox-expiration";
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  matchPrecache,
  PrecacheFallbackPlugin,
  precacheAndRoute,
} from "workbox-precaching";
import { NavigationRoute, registerRoute } from "workbox-routing";
import { CacheFirst, NetworkFirst, NetworkOnly } from "workbox-strategies";
import { offlineDb } from "../lib/offline/offline-db";
import { entrySender, replayQueue, withQueueLock } from "../lib/offline/offline-queue";
import { receiveShare } from "../lib/offline/share-target";
import {
  PAGE_ASSETS_FILE,
  QUEUE_REPLAYED_MESSAGE,
  QUEUE_SYNC_TAG,
  SHARE_TARGET_PATH,
} from "../lib/offline/sw-protocol";

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: (string | { url: string; revision: string | null })[];
};

interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
}

/** Paths the server answers itself; the app shell never stands in for them. */
const SERVER_PATHS = [/^\/api\//, /^\/dav(\/|$)/, /^\/config\.js$/, /^\/offline\.html$/];

/** Build output: content-hashed names, so a cached copy never goes stale. */
const ASSET_PATH = /^\/assets\//;
/** Enough for every chunk of a build or two; older builds' files drop out first. */
const MAX_CACHED_ASSETS = 400;

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
// The first install takes over the open page, so the page chunks it loads next are cached.
clientsClaim();

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

// Page chunks and their styles: cached on first use (the page also sends what it loaded
// before the worker took over), so a page opened once opens offline.
registerRoute(
  ({ url, request }) =>
    url.origin === self.location.origin && ASSET_PATH.test(url.pathname) && request.method === "GET",
  assetStrategy,
);

// Client-side routes open the precached shell, online or not.
registerRoute(new NavigationRoute(createHandlerBoundToURL("/index.html"), { denylist: SERVER_PATHS }));

// Runtime config written by the server; the last copy serves offline starts.
registerRoute(
  ({ url }) => url.origin === self.location.origin && url.pathname === "/config.js",
  new NetworkFirst({ cacheName: "clipshare-config", networkTimeoutSeconds: 3 }),
);

// Other pages the server renders (WebDAV listings and the like): never cached; unreachable → the offline page.
registerRoute(
  ({ request }) => request.mode === "navigate",
  new NetworkOnly({ plugins: [new PrecacheFallbackPlugin({ fallbackURL: "/offline.html" })] }),
);

// The share sheet posts here; the page named in the redirect takes what came.
registerRoute(
  ({ url }) => url.origin === self.location.origin && url.pathname === SHARE_TARGET_PATH,
  async ({ request }) => {
    try {
      return Response.redirect(await receiveShare(await request.formData()), 303);
    } catch {
      return Response.redirect("/?share-target=failed", 303);
    }
  },
  "POST",
);

self.addEventListener("message", (event) => {
  if ((event.data as { type?: string } | null)?.type === "SKIP_WAITING") void self.skipWaiting();
});

self.addEventListener("sync", (event) => {
  const sync = event as SyncEvent;
  if (sync.tag !== QUEUE_SYNC_TAG) return;
  sync.waitUntil(
    (async () => {
      const report = await withQueueLock(() => replayQueue(offlineDb(), entrySender()));
      for (const client of await self.clients.matchAll({ type: "window" })) {
        client.postMessage({ type: QUEUE_REPLAYED_MESSAGE, report });
      }
      // Still offline: failing the event makes the browser try again later.
      if (report.interrupted) throw new Error("offline queue replay interrupted");
    })(),
  );
});
