import type { APIRequestContext, Page } from "@playwright/test";
import { DEXIE_LAYOUT } from "../src/lib/offline/test-db";
import { adminToken, createPaste } from "./support/factories";
import { expect, test, unique } from "./support/fixtures";
import { OFFLINE_NOISE, pasteBySlug, queueEntries } from "./support/offline";

/**
 * A browser that used an earlier build keeps its local data: builds up to 0.7.3 wrote the
 * database through Dexie 4 (IndexedDB version 7030, one index per property, named after it).
 * The database is laid out here in Chromium's real IndexedDB exactly as Dexie laid it out.
 */

interface DexieRows {
  paste: { slug: string; createdAt: string; cachedAt: number; data: unknown };
  queued: Record<string, unknown>;
}

/** Creates the database at 7030 as Dexie laid it out (without the store `skip`), holding `rows`. */
async function writeLikeDexie(page: Page, rows: DexieRows, token: string, skip = "") {
  // A page of the origin that does not start the app.
  await page.goto("/api/health");
  await page.evaluate(
    ({ rows, token, skip, layout }) =>
      new Promise<void>((resolve, reject) => {
        localStorage.setItem("admin_token", token);
        const open = indexedDB.open("ClipShare", 7030);
        open.onupgradeneeded = () => {
          const db = open.result;
          for (const [name, keyPath, autoIncrement, indexes] of layout) {
            if (name === skip) continue;
            const store = db.createObjectStore(name, { keyPath, autoIncrement });
            for (const index of indexes)
              store.createIndex(index, index, { unique: false, multiEntry: false });
          }
        };
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const tx = db.transaction(["pastes", "offlineQueue"], "readwrite");
          tx.objectStore("pastes").put(rows.paste);
          tx.objectStore("offlineQueue").add(rows.queued);
          tx.oncomplete = () => {
            db.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
    { rows, token, skip, layout: DEXIE_LAYOUT },
  );
}

/** A paste the server has, a copy of it and a queued paste in the old layout. */
async function oldData(request: APIRequestContext) {
  const token = await adminToken(request);
  const paste = await createPaste(request, `Bearer ${token}`, { content: "kept across the update" });
  const live = (await (await request.get(`/api/paste/${paste.slug}`)).json()).data;
  const queuedSlug = unique("upg");
  const rows: DexieRows = {
    paste: { slug: paste.slug, createdAt: live.createdAt, cachedAt: Date.now(), data: live },
    queued: {
      type: "paste-create",
      endpoint: "/paste",
      method: "POST",
      data: { content: "queued before the update", slug: queuedSlug },
      authToken: token,
      authType: "admin",
      baseUrl: "",
      timestamp: Date.now(),
      status: "pending",
      httpStatus: null,
      error: null,
      attempts: 0,
    },
  };
  return { token, slug: paste.slug, queuedSlug, rows };
}

/** This build shows the copy when the server cannot be reached and sends the queued paste. */
async function expectKept(page: Page, request: APIRequestContext, data: Awaited<ReturnType<typeof oldData>>) {
  await page.route(`**/api/paste/${data.slug}`, (route) => route.abort("internetdisconnected"));
  await page.goto(`/paste/${data.slug}`);
  await expect(page.getByText("kept across the update")).toBeVisible();
  await expect(page.getByTestId("offline-copy-mark")).toHaveText(/^Offline copy from/);
  await expect
    .poll(() => pasteBySlug(request, data.token, data.queuedSlug), { timeout: 15_000 })
    .not.toBeNull();
  await expect.poll(() => queueEntries(page)).toEqual([]);
}

const versionIn = (page: Page) =>
  page.evaluate(async () => (await indexedDB.databases()).find((db) => db.name === "ClipShare")?.version);

test.describe("local data from the Dexie-based build", () => {
  test.beforeEach(({ consoleGuard }) => consoleGuard.allow(OFFLINE_NOISE));

  test("offline copies and queued writes are read and sent by this build, the database opened in place", async ({
    page,
    request,
  }) => {
    const data = await oldData(request);
    await writeLikeDexie(page, data.rows, data.token);
    await expectKept(page, request, data);
    expect(await versionIn(page)).toBe(7030);
  });

  test("a database lacking a store is upgraded one version up, its rows kept", async ({ page, request }) => {
    const data = await oldData(request);
    await writeLikeDexie(page, data.rows, data.token, "searchHistory");
    await expectKept(page, request, data);
    expect(await versionIn(page)).toBe(7031);
  });
});
