// First-visit page weight: opens a page in a fresh browser context (no cache, no
// service worker) and sums the JavaScript it fetched, gzipped, until the page is
// drawn and the network is quiet. Used by scripts/bundle-size.mjs (prints the figures)
// and web/e2e/page-weight.spec.ts (fails when a page is over its budget).
import { gzipSync } from "node:zlib";

/** Gzipped JavaScript a first visit may fetch, in KB (1024 bytes). */
export const PAGE_BUDGETS_KB = {
  /** A shared paste, as a visitor opens it. */
  paste: 100,
  /** Home with its editor. */
  home: 193,
};

/**
 * What the tests hold a first visit to today (KB gzip): no page may grow past these.
 */
export const PAGE_CEILINGS_KB = {
  paste: 76,
  home: 193,
};

/**
 * What the service worker may fetch itself on a first visit (KB as sent): the app shell
 * it installs with, then the files of the page being visited (its dialogs and on-demand
 * views), so that page opens offline in full. Installing every page used to take ~850 KB.
 */
export const WORKER_FIRST_VISIT_KB = 350;

const isScript = (response) => {
  const type = response.headers()["content-type"] ?? "";
  return response.request().resourceType() === "script" || /javascript/.test(type);
};

/**
 * Opens `path` in a fresh context and returns the same-origin JavaScript it fetched
 * until `ready(page)` resolves and the network has been idle. Sizes are gzip of the
 * body, so the figure does not depend on how the server compresses.
 */
export async function measurePage(browser, baseUrl, path, ready, contextOptions = {}) {
  const context = await browser.newContext({ baseURL: baseUrl, serviceWorkers: "block", ...contextOptions });
  const files = new Map();
  const pending = [];
  context.on("response", (response) => {
    if (!response.url().startsWith(baseUrl) || !isScript(response)) return;
    pending.push(
      response.body().then(
        (body) => files.set(new URL(response.url()).pathname, gzipSync(body).length),
        () => undefined,
      ),
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
  const list = [...files].map(([file, gzip]) => ({ file, gzip })).sort((a, b) => b.gzip - a.gzip);
  return { files: list, total: list.reduce((sum, f) => sum + f.gzip, 0) };
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
