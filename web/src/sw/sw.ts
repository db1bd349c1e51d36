/**
 * ClipShare's service worker. It serves the precached app shell and the app's
 * own code and styles (cached when first used) and nothing else from a cache:
 * API calls, raw and download links, proxied files and WebDAV always go to the
 * network, so no credentialed answer and no other user's share content is ever
 * stored by it. It also receives the Web Share Target POST and replays the
 * offline queue on Background Sync.
 */
import { clientsClaim } from "workbox-core";
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  PrecacheFallbackPlugin,
  precacheAndRoute,
} from "workbox-precaching";
import { NavigationRoute, registerRoute } from "workbox-routing";
import { NetworkFirst, NetworkOnly } from "workbox-strategies";
import { offlineDb } from "../lib/offline/offline-db";
import { entrySender, replayQueue, withQueueLock } from "../lib/offline/offline-queue";
import { receiveShare } from "../lib/offline/share-target";
import { QUEUE_REPLAYED_MESSAGE, QUEUE_SYNC_TAG, SHARE_TARGET_PATH } from "../lib/offline/sw-protocol";
import { installEncryptedDownloads } from "./e2e-download";
import { installPageCaching } from "./page-cache";

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: (string | { url: string; revision: string | null })[];
};

interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
}

/** Paths the server answers itself; the app shell never stands in for them. */
const SERVER_PATHS = [/^\/api\//, /^\/dav(\/|$)/, /^\/config\.js$/, /^\/offline\.html$/];

// First: its downloads are navigations that the app shell route below would otherwise answer.
installEncryptedDownloads();
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
// The first install takes over the open page, so the page chunks it loads next are cached.
clientsClaim();
installPageCaching();

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
