import { fileURLToPath } from "node:url";
import type { Page } from "@playwright/test";
import { inShell, readPageAssets } from "../scripts/app-shell.mjs";
import {
  kb,
  measurePage,
  measurePrecache,
  PAGE_CEILINGS_KB,
  WORKER_FIRST_VISIT_KB,
} from "../scripts/page-weight.mjs";
import { PAGE_ASSETS_FILE } from "../src/lib/offline/sw-protocol";
import { adminToken, createPaste } from "./support/factories";
import { expect, test } from "./support/fixtures";
import { OFFLINE_NOISE } from "./support/offline";

/** What a first visit downloads: page code within its budget, the worker's install small. */

const baseUrl = () => process.env.E2E_BASE_URL ?? "";
const dist = fileURLToPath(new URL("../dist", import.meta.url));

test.describe("first page weight", () => {
  test("a shared paste and Home, signed out and in, stay within their JavaScript budgets", async ({
    browser,
    request,
  }) => {
    const token = await adminToken(request);
    const paste = await createPaste(request, `Bearer ${token}`, {
      content: "Meeting notes\nRoom 4, 10:00",
      format: "plain",
    });
    const pastePage = await measurePage(browser, baseUrl(), `/paste/${paste.slug}`, (page) =>
      page.getByText("Room 4, 10:00").waitFor(),
    );
    const editorShown = (page: Page) => page.locator(".cm-editor").waitFor();
    const home = await measurePage(browser, baseUrl(), "/", editorShown);
    const homeSignedIn = await measurePage(browser, baseUrl(), "/", editorShown, {
      storageState: {
        cookies: [],
        origins: [{ origin: baseUrl(), localStorage: [{ name: "admin_token", value: token }] }],
      },
    });
    // The page's own chunk was among what was measured, so the figure is the page's.
    expect(pastePage.files.some((f) => /\/paste-page-[^/]+\.js$/.test(f.file))).toBe(true);
    for (const visit of [home, homeSignedIn])
      expect(visit.files.some((f) => /\/codemirror-editor-[^/]+\.js$/.test(f.file))).toBe(true);
    // A browser that has stored nothing offline loads no local database code on Home.
    expect(home.files.filter((f) => /\/offline-db-[^/]+\.js$/.test(f.file))).toEqual([]);
    expect(pastePage.total, `paste page: ${kb(pastePage.total)}`).toBeLessThanOrEqual(
      PAGE_CEILINGS_KB.paste * 1024,
    );
    expect(home.total, `Home: ${kb(home.total)}`).toBeLessThanOrEqual(PAGE_CEILINGS_KB.home * 1024);
    expect(homeSignedIn.total, `Home signed in: ${kb(homeSignedIn.total)}`).toBeLessThanOrEqual(
      PAGE_CEILINGS_KB.homeSignedIn * 1024,
    );
  });

  test("the service worker installs with the app shell only, then caches the page being visited", async ({
    browser,
    request,
  }) => {
    const token = await adminToken(request);
    const paste = await createPaste(request, `Bearer ${token}`, { content: "weighed", format: "plain" });
    const worker = await measurePrecache(browser, baseUrl(), `/paste/${paste.slug}`);
    expect(worker.total, `worker on a first visit: ${kb(worker.total)}`).toBeLessThanOrEqual(
      WORKER_FIRST_VISIT_KB * 1024,
    );
    // Its precache list names no page chunk: every file of the build's assets it names is in the shell.
    const split = readPageAssets(dist, PAGE_ASSETS_FILE);
    const context = await browser.newContext({ baseURL: baseUrl() });
    try {
      const page = await context.newPage();
      await page.goto("/");
      const precached = await page.evaluate(async () => {
        await navigator.serviceWorker.ready;
        const names = (await caches.keys()).filter((name) => name.includes("precache"));
        const urls: string[] = [];
        for (const name of names) {
          for (const req of await (await caches.open(name)).keys()) urls.push(new URL(req.url).pathname);
        }
        return urls;
      });
      expect(precached).toContain("/index.html");
      const assets = precached.filter((path) => path.startsWith("/assets/")).map((path) => path.slice(1));
      expect(assets.length).toBeGreaterThan(0);
      expect(assets.filter((file) => !inShell(file, split))).toEqual([]);
      expect(assets.some((file) => /explorer-page|codemirror-editor|admin-page/.test(file))).toBe(false);
      // What the worker caches with the paste page is what showing a paste uses: no editor.
      const pastePageFiles = Object.entries(split.pages).find(([chunk]) => /\/paste-page-/.test(chunk))?.[1];
      expect(pastePageFiles?.length).toBeGreaterThan(0);
      expect(pastePageFiles?.filter((file) => /codemirror-editor/.test(file))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("a paste opened on a first visit opens again offline", async ({ browser, request, consoleGuard }) => {
    consoleGuard.allow(OFFLINE_NOISE);
    const token = await adminToken(request);
    const paste = await createPaste(request, `Bearer ${token}`, {
      content: "first visit, then the tunnel",
      format: "plain",
    });
    const context = await browser.newContext({ baseURL: baseUrl() });
    try {
      const page = await context.newPage();
      // The first visit: the page loads its code before any worker controls it.
      await page.goto(`/paste/${paste.slug}`);
      await expect(page.getByText("first visit, then the tunnel")).toBeVisible();
      // The worker takes the page over and caches the code the page had already loaded.
      await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
      await expect
        .poll(() =>
          page.evaluate(async () =>
            (await (await caches.open("clipshare-assets")).keys()).map((req) => new URL(req.url).pathname),
          ),
        )
        .toEqual(
          expect.arrayContaining([
            // The page's own chunk, and the QR code dialog it opens only on request.
            expect.stringMatching(/^\/assets\/paste-page-[^/]+\.js$/),
            expect.stringMatching(/^\/assets\/qr-dialog-[^/]+\.js$/),
          ]),
        );

      await context.setOffline(true);
      await page.reload();
      await expect(page.getByText("first visit, then the tunnel")).toBeVisible();
      await expect(page.getByTestId("offline-copy-mark")).toBeVisible();
      // Opened only now, offline: its code came with the page.
      await page.getByRole("button", { name: "QR code" }).click();
      await expect(page.getByRole("dialog", { name: "QR code" }).getByRole("img")).toBeVisible();
    } finally {
      await context.close();
    }
  });
});
