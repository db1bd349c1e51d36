// First-visit page weight: opens a page in a fresh browser context (no cache, service
// worker blocked) and sums the JavaScript it received, as it came over the wire (encoded
// body and headers), until the page is drawn and the network is quiet. Used by
// scripts/bundle-size.mjs (prints the figures) and web/e2e/page-weight.spec.ts (fails when
// a page is over its budget).

/** JavaScript a first visit may receive, in KB (1024 bytes) as sent. */
export const PAGE_BUDGETS_KB = {
  /** A shared plain-text paste, as a visitor opens it. */
  paste: 200,
  /** Home, signed out (the editor for a draft, and the sign-in offer). */
  home: 320,
  /** Home signed in, with its editor. */
  homeSignedIn: 320,
};

/**
 * What the tests hold a first visit to (KB as sent): no page may grow past these. Measured
 * on React: paste 184.9, Home signed out and signed in 308.4 (the same files).
 */
export const PAGE_CEILINGS_KB = {
  paste: 200,
  home: 320,
  homeSignedIn: 320,
};

/**
 * What the service worker may fetch itself on a first visit (KB as sent): the app shell
 * it installs with, then the files of the page being visited (its dialogs and on-demand
 * views), so that page opens offline in full. Installing every page used to take ~850 KB.
 */
export const WORKER_FIRST_VISIT_KB = 350;

const isScript = (request, response) => {
  const type = response?.headers()["content-type"] ?? "";
  return request.resourceType() === "script" || /javascript/.test(type);
};

/**
 * Opens `path` in a fresh context and returns the same-origin JavaScript it received
 * until `ready(page)` resolves and the network has been idle: per file and in total,
 * the bytes as sent (the encoded body, compressed as the server sends it, and the headers).
 */
export async function measurePage(browser, baseUrl, path, ready, contextOptions = {}) {
  const context = await browser.newContext({ baseURL: baseUrl, serviceWorkers: "block", ...contextOptions });
  const files = new Map();
  const pending = [];
  context.on("requestfinished", (request) => {
    if (!request.url().startsWith(baseUrl)) return;
    pending.push(
      request.response().then(async (response) => {
        if (!isScript(request, response)) return;
        const sizes = await request.sizes();
        files.set(new URL(request.url()).pathname, sizes.responseBodySize + sizes.responseHeadersSize);
      }),
    );
  });
  try {
    const page = await context.newPage();
    await page.goto(path);
    await ready(page);
    await page.waitForLoadState("networkidle");
    await Promise.all(pending);
  } finally {
    await context.close();
  }
  const list = [...files].map(([file, bytes]) => ({ file, bytes })).sort((a, b) => b.bytes - a.bytes);
  return { files: list, total: list.reduce((sum, f) => sum + f.bytes, 0) };
}

/**
 * Visits `path` with the service worker allowed and returns what the worker itself
 * fetched (its precache, then the files of the page it caches) until it has been
 * quiet for a second: count and bytes as received.
 */
export async function measurePrecache(browser, baseUrl, path = "/") {
  const context = await browser.newContext({ baseURL: baseUrl });
  const fetched = [];
  context.on("requestfinished", (request) => {
    if (!request.serviceWorker()) return;
    fetched.push(
      request.sizes().then(
        (sizes) => ({ url: request.url(), bytes: sizes.responseBodySize + sizes.responseHeadersSize }),
        () => ({ url: request.url(), bytes: 0 }),
      ),
    );
  });
  try {
    const page = await context.newPage();
    await page.goto(path);
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    for (let seen = -1; seen !== fetched.length; ) {
      seen = fetched.length;
      await page.waitForTimeout(1000);
    }
    const files = await Promise.all(fetched);
    return { files, total: files.reduce((sum, f) => sum + f.bytes, 0) };
  } finally {
    await context.close();
  }
}

export const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
