/** Names the page and the service worker agree on. */

/** The app's IndexedDB database (schema in offline-db.ts). */
export const OFFLINE_DB_NAME = "ClipShare";

/** Background Sync tag for sending the offline queue. */
export const QUEUE_SYNC_TAG = "clipshare-offline-queue";
/** Message the service worker posts to its pages after a replay: `{ type, report }`. */
export const QUEUE_REPLAYED_MESSAGE = "clipshare:queue-replayed";
/** Web Lock held while the queue is replayed, so a page and the worker never send an entry twice. */
export const QUEUE_LOCK = "clipshare-offline-queue";

/** Where the installed app receives shares (manifest `share_target.action`). */
export const SHARE_TARGET_PATH = "/share-target";
/** Query parameter naming a received share on `/` and `/upload`. */
export const SHARE_PARAM = "share-target";
/** Cache Storage bucket holding a received share until its page takes it. */
export const SHARE_CACHE = "clipshare-share-target";

/** Build output next to index.html: for each page chunk, the files that page loads later. */
export const PAGE_ASSETS_FILE = "page-assets.json";
