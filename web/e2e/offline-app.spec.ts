import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { APIRequestContext, BrowserContext, Page } from "@playwright/test";
import { createLocalConfig, createMount, entry, putFile } from "./support/explorer";
import { apiLogin, expect, failedResource, test, unique, useAdminSession } from "./support/fixtures";
import { apiCreatePaste, fillEditor } from "./support/pastes";

/**
 * The offline web app: queue and replay, read-offline copies with their expiry,
 * install offer, share target, and the service worker's caching rules.
 */

const OFFLINE_NOISE = /net::ERR_INTERNET_DISCONNECTED|Failed to fetch|ERR_FAILED|Failed to load resource/;

/** Loads the page until the service worker controls it (precache complete). */
async function controlledBy(page: Page, path = "/") {
  await page.goto(path);
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
}

/** Entries of the local database's offline queue, read in the page. */
function queueEntries(page: Page) {
  return page.evaluate(
    () =>
      new Promise<{ status: string; type: string; httpStatus: number | null }[]>((resolve, reject) => {
        const open = indexedDB.open("ClipShare");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains("offlineQueue")) return resolve([]);
          const req = db.transaction("offlineQueue").objectStore("offlineQueue").getAll();
          req.onsuccess = () => {
            resolve(req.result);
            db.close();
          };
          req.onerror = () => reject(req.error);
        };
      }),
  );
}

async function pasteBySlug(request: APIRequestContext, token: string, slug: string) {
  const res = await request.get(`/api/pastes?limit=50&search=${encodeURIComponent(slug)}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(res.status()).toBe(200);
  return ((await res.json()).data as { slug: string }[]).find((p) => p.slug === slug) ?? null;
}

/** Under the service worker, writes a paste with the network off (the page is signed in). */
async function queuePasteOffline(page: Page, context: BrowserContext, text: string, slug?: string) {
  await controlledBy(page);
  await context.setOffline(true);
  await fillEditor(page, text);
  if (slug) await page.getByLabel("Custom link suffix").fill(slug);
  await page.getByRole("button", { name: "Create share link" }).click();
  await expect(page.getByTestId("paste-queued")).toHaveText(
    "Saved on this device. It will be sent when you are back online.",
  );
}

test.describe("offline queue", () => {
  test("a paste written offline is queued, then sent when the network is back", async ({
    page,
    context,
    request,
    consoleGuard,
  }) => {
    consoleGuard.allow(OFFLINE_NOISE);
    const slug = unique("offq");
    const token = await apiLogin(request);
    await useAdminSession(page, token, "/");
    await queuePasteOffline(page, context, "written on a train", slug);

    await expect(page.getByRole("button", { name: "1 change waiting to be sent" })).toBeVisible();
    expect(await queueEntries(page)).toMatchObject([{ type: "paste-create", status: "pending" }]);
    expect(await pasteBySlug(request, token, slug)).toBeNull();

    await context.setOffline(false);
    await expect.poll(() => pasteBySlug(request, token, slug), { timeout: 15_000 }).not.toBeNull();
    await expect.poll(() => queueEntries(page)).toEqual([]);
    await expect(page.getByRole("button", { name: /waiting to be sent/ })).toBeHidden();
  });

  test("Background Sync sends the queue from the service worker with no page of the app open", async ({
    page,
    context,
    request,
    consoleGuard,
  }) => {
    consoleGuard.allow(OFFLINE_NOISE);
    const slug = unique("offbg");
    const token = await apiLogin(request);
    await useAdminSession(page, token, "/");
    await queuePasteOffline(page, context, "sent by the worker", slug);
    const origin = new URL(page.url()).origin;

    // The tab leaves the app; the network comes back; the browser fires the sync event.
    await page.goto("about:blank");
    await context.setOffline(false);
    const cdp = await context.newCDPSession(page);
    const registrationId = new Promise<string>((resolve) => {
      cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
        const mine = registrations.find((r) => r.scopeURL === `${origin}/` && !r.isDeleted);
        if (mine) resolve(mine.registrationId);
      });
    });
    await cdp.send("ServiceWorker.enable");
    await cdp.send("ServiceWorker.dispatchSyncEvent", {
      origin,
      registrationId: await registrationId,
      tag: "clipshare-offline-queue",
      lastChance: false,
    });

    await expect.poll(() => pasteBySlug(request, token, slug), { timeout: 15_000 }).not.toBeNull();
    await page.goto(`${origin}/paste/${slug}`);
    await expect(page.getByText("sent by the worker")).toBeVisible();
    await expect.poll(() => queueEntries(page)).toEqual([]);
  });

  test("a sync that sent a paste reloads the open management view", async ({
    page,
    context,
    request,
    consoleGuard,
  }) => {
    consoleGuard.allow(OFFLINE_NOISE);
    const slug = unique("offreload");
    const token = await apiLogin(request);
    await useAdminSession(page, token, "/");
    await queuePasteOffline(page, context, "listed after the reload", slug);
    await page.goto("/admin/text-management");
    await expect(page.getByRole("heading", { level: 2, name: "Text management" })).toBeVisible();
    await page.evaluate(() => {
      (window as { beforeSync?: boolean }).beforeSync = true;
    });

    await context.setOffline(false);
    await expect(page.getByText(slug).first()).toBeVisible({ timeout: 15_000 });
    // Shown by a fresh page, not by the old one refetching.
    await expect
      .poll(() =>
        page
          .evaluate(() => (window as { beforeSync?: boolean }).beforeSync ?? false)
          // Mid-reload there is no page to ask yet.
          .catch(() => true),
      )
      .toBe(false);
  });

  test("a replay refused with 401 keeps the entry and asks to sign in again", async ({
    page,
    context,
    request,
    consoleGuard,
  }) => {
    consoleGuard.allow(OFFLINE_NOISE);
    consoleGuard.allow(failedResource(401));
    const token = await apiLogin(request);
    await useAdminSession(page, token, "/");
    await queuePasteOffline(page, context, "kept through a 401");

    // Meanwhile the session ends on the server (signed out elsewhere).
    const out = await request.post("/api/admin/logout", { headers: { Authorization: `Bearer ${token}` } });
    expect(out.status()).toBe(200);

    await context.setOffline(false);
    await expect(page.getByText("Sign in again to send 1 offline change.")).toBeVisible({ timeout: 15_000 });
    expect(await queueEntries(page)).toMatchObject([
      { type: "paste-create", status: "auth_required", httpStatus: 401 },
    ]);
    await page.getByRole("button", { name: "1 change waiting to be sent" }).click();
    const panel = page.getByRole("dialog", { name: "Offline changes" });
    await expect(panel.getByTestId("queue-entry")).toContainText("New paste");
    await expect(panel.getByTestId("queue-entry")).toContainText("Sign-in needed");
    await expect(panel.getByTestId("queue-entry")).toContainText("401");

    // Signed in again, a retry sends it with the new session.
    await panel.getByRole("button", { name: "Close" }).click();
    const fresh = await apiLogin(request);
    await page.evaluate((t) => localStorage.setItem("admin_token", t), fresh);
    await page.reload();
    await page.getByRole("button", { name: "1 change waiting to be sent" }).click();
    await page
      .getByRole("dialog", { name: "Offline changes" })
      .getByRole("button", { name: "Retry" })
      .click();
    await expect.poll(() => queueEntries(page), { timeout: 15_000 }).toEqual([]);
    await expectOnePasteWith(request, fresh, "kept through a 401");
  });
});

async function expectOnePasteWith(request: APIRequestContext, token: string, content: string) {
  const res = await request.get(`/api/pastes?limit=50&search=${encodeURIComponent(content)}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  const rows = (await res.json()).data as { id: string; content_preview: string }[];
  const found = rows.filter((r) => r.content_preview.includes(content));
  expect(found).toHaveLength(1);
}

test.describe("read offline", () => {
  test("a paste and a directory opened online read offline after a reload, marked; eight days later they are gone", async ({
    page,
    context,
    request,
    consoleGuard,
  }) => {
    consoleGuard.allow(OFFLINE_NOISE);
    await page.clock.install({ time: new Date("2026-06-01T09:00:00Z") });
    const token = await apiLogin(request);
    const paste = await apiCreatePaste(request, `Bearer ${token}`, { content: "readable on the plane" });
    const mountPath = await mountWithFile(request, token, "kept-offline.txt");

    await useAdminSession(page, token, "/");
    await controlledBy(page);
    await page.goto(`/paste/${paste.slug}`);
    await expect(page.getByText("readable on the plane")).toBeVisible();
    await expect(page.getByTestId("offline-copy-mark")).toHaveCount(0);
    await expect.poll(() => countRows(page, "pastes")).toBe(1);
    await page.goto(`/mount-explorer${mountPath}`);
    await expect(entry(page, "kept-offline.txt")).toBeVisible();
    await expect.poll(() => countRows(page, "directories")).toBe(1);

    await context.setOffline(true);
    await page.goto(`/paste/${paste.slug}`);
    await expect(page.getByText("readable on the plane")).toBeVisible();
    await expect(page.getByTestId("offline-copy-mark")).toHaveText(/^Offline copy from Jun 1, 2026/);
    await page.goto(`/mount-explorer${mountPath}`);
    await expect(entry(page, "kept-offline.txt")).toBeVisible();
    await expect(page.getByTestId("offline-copy-mark")).toBeVisible();

    // Eight days on (the clock jumps: no timers run in between).
    await page.clock.setSystemTime(new Date("2026-06-09T09:30:00Z"));
    await page.goto(`/paste/${paste.slug}`);
    await expect(page.getByRole("alert")).toContainText("Network error");
    await expect(page.getByText("readable on the plane")).toBeHidden();
    await page.goto(`/mount-explorer${mountPath}`);
    await expect(page.getByRole("alert")).toContainText("Network error");
    await expect(entry(page, "kept-offline.txt")).toBeHidden();
    // The start-up sweep deleted them, not only hid them.
    await expect.poll(() => countRows(page, "pastes")).toBe(0);
    await expect.poll(() => countRows(page, "directories")).toBe(0);
    await context.setOffline(false);
  });

  test("a copy goes when the server says the share is gone", async ({ page, request, consoleGuard }) => {
    consoleGuard.allow(failedResource(404));
    const token = await apiLogin(request);
    const paste = await apiCreatePaste(request, `Bearer ${token}`, { content: "soon deleted" });
    await page.goto(`/paste/${paste.slug}`);
    await expect(page.getByText("soon deleted")).toBeVisible();
    await expect.poll(() => countRows(page, "pastes")).toBe(1);

    const res = await request.delete("/api/pastes/batch-delete", {
      headers: { Authorization: `Bearer ${token}` },
      data: { ids: [paste.id] },
    });
    expect(res.status()).toBe(200);
    await page.reload();
    await expect(page.getByText("soon deleted")).toBeHidden();
    await expect.poll(() => countRows(page, "pastes")).toBe(0);
  });

  test("explorer searches are offered again and cleared on request", async ({ page, request }) => {
    const token = await apiLogin(request);
    await useAdminSession(page, token, "/mount-explorer");
    const search = page.getByRole("combobox", { name: "Search", exact: true });
    for (const q of ["quarterly", "invoices"]) {
      await search.fill(q);
      await search.press("Enter");
    }
    const options = page.locator("#explorer-search-history option");
    await expect(options).toHaveCount(2);
    await expect(options.first()).toHaveAttribute("value", "invoices");
    // Remembered on this device: still there after a reload.
    await page.reload();
    await expect(options).toHaveCount(2);

    await page.getByRole("button", { name: "Clear search history" }).click();
    await expect(options).toHaveCount(0);
    expect(await countRows(page, "searchHistory")).toBe(0);
  });

  test("signing out clears the explorer copies and search history but keeps a visitor's paste copy", async ({
    page,
    request,
  }) => {
    const token = await apiLogin(request);
    const paste = await apiCreatePaste(request, `Bearer ${token}`, { content: "public words" });
    const mountPath = await mountWithFile(request, token, "private.txt");
    await useAdminSession(page, token, `/paste/${paste.slug}`);
    await expect(page.getByText("public words")).toBeVisible();
    await expect.poll(() => countRows(page, "pastes")).toBeGreaterThan(0);
    await page.goto(`/mount-explorer${mountPath}`);
    await expect(entry(page, "private.txt")).toBeVisible();
    await expect.poll(() => countRows(page, "directories")).toBeGreaterThan(0);
    // A search is remembered and offered as a suggestion.
    await page.getByRole("combobox", { name: "Search", exact: true }).fill("private");
    await page.getByRole("combobox", { name: "Search", exact: true }).press("Enter");
    await expect(page.locator('#explorer-search-history option[value="private"]')).toHaveCount(1);
    expect(await countRows(page, "searchHistory")).toBe(1);

    await page.goto("/admin");
    await page.getByRole("button", { name: "Log out" }).click();
    await expect.poll(() => countRows(page, "directories")).toBe(0);
    expect(await countRows(page, "searchHistory")).toBe(0);
    expect(await countRows(page, "pastes")).toBeGreaterThan(0);
  });
});

/** A LOCAL mount of its own holding one file; returns the mount path. */
async function mountWithFile(request: APIRequestContext, token: string, fileName: string) {
  const storage = await createLocalConfig(request, token, unique("offcfg"));
  const mountPath = `/${unique("offline")}`;
  await createMount(request, token, {
    name: mountPath.slice(1),
    mount_path: mountPath,
    storage_type: "LOCAL",
    storage_config_id: storage.id,
  });
  await putFile(request, token, `${mountPath}/${fileName}`, "hello");
  return mountPath;
}

function countRows(page: Page, store: string) {
  return page.evaluate(
    (name) =>
      new Promise<number>((resolve) => {
        const open = indexedDB.open("ClipShare");
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains(name)) return resolve(0);
          const req = db.transaction(name).objectStore(name).count();
          req.onsuccess = () => {
            resolve(req.result);
            db.close();
          };
        };
      }),
    store,
  );
}

test.describe("install and share", () => {
  test("the install offer appears on beforeinstallprompt and stays away for seven days after 'Not now'", async ({
    page,
  }) => {
    await page.clock.install({ time: new Date("2026-06-01T09:00:00Z") });
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    const offerInstall = () =>
      page.evaluate(() => {
        const event = new Event("beforeinstallprompt", { cancelable: true }) as Event & {
          prompt: () => Promise<void>;
          userChoice: Promise<{ outcome: string }>;
        };
        event.prompt = async () => undefined;
        event.userChoice = Promise.resolve({ outcome: "dismissed" });
        window.dispatchEvent(event);
        return event.defaultPrevented;
      });
    const offer = page.getByRole("dialog", { name: /Install ClipShare on this device/ });

    expect(await offerInstall()).toBe(true);
    await expect(offer).toBeVisible();
    await offer.getByRole("button", { name: "Not now" }).click();
    await expect(offer).toBeHidden();

    await page.reload();
    await offerInstall();
    await page.clock.runFor(6_000);
    await expect(offer).toBeHidden();
    await page.clock.setSystemTime(new Date("2026-06-08T08:59:00Z"));
    await page.clock.runFor(6_000);
    await expect(offer).toBeHidden();
    // Past seven days, the five-second check brings it back.
    await page.clock.setSystemTime(new Date("2026-06-08T09:01:00Z"));
    await page.clock.runFor(6_000);
    await expect(offer).toBeVisible();
  });

  test("text shared to the app opens the Home editor filled in", async ({ page, request }) => {
    const token = await apiLogin(request);
    await useAdminSession(page, token, "/");
    await controlledBy(page);
    await postShare(page, { title: "Train notes", text: "Platform 9", url: "https://example.com/t" });
    await expect(page).toHaveURL(/\/$/);
    const editor = page.getByRole("textbox", { name: "Content" });
    await expect(editor).toContainText("Train notes");
    await expect(editor).toContainText("Platform 9");
    await expect(editor).toContainText("https://example.com/t");
  });

  test("files shared to the app open /upload with them in the list", async ({ page, request }) => {
    const token = await apiLogin(request);
    await useAdminSession(page, token, "/");
    await controlledBy(page);
    await postShare(page, { title: "", text: "", url: "" }, [{ name: "shared-photo.png", body: "PNGDATA" }]);
    await expect(page).toHaveURL(/\/upload$/);
    await expect(page.getByText("shared-photo.png")).toBeVisible();
  });
});

/** Submits the share sheet's form to the share-target URL, as the system does. */
async function postShare(
  page: Page,
  fields: Record<string, string>,
  files: { name: string; body: string }[] = [],
) {
  await page.evaluate(
    ({ fields, files }) => {
      const form = document.createElement("form");
      form.method = "POST";
      form.action = "/share-target";
      form.enctype = "multipart/form-data";
      for (const [name, value] of Object.entries(fields)) {
        const input = document.createElement("input");
        input.type = "hidden";
        input.name = name;
        input.value = value;
        form.append(input);
      }
      if (files.length > 0) {
        const input = document.createElement("input");
        input.type = "file";
        input.name = "files";
        input.multiple = true;
        const transfer = new DataTransfer();
        for (const f of files) transfer.items.add(new File([f.body], f.name, { type: "image/png" }));
        input.files = transfer.files;
        form.append(input);
      }
      document.body.append(form);
      form.submit();
    },
    { fields, files },
  );
}

test.describe("service worker update", () => {
  test("a new worker shows as waiting, is offered, and after Reload controls the page", async ({
    page,
    request,
  }) => {
    const token = await apiLogin(request);
    await useAdminSession(page, token, "/");
    await controlledBy(page, "/admin/settings");
    await expect(page.getByTestId("sw-state")).toHaveText("Active");

    // A new build of the worker appears on the server.
    const swFile = fileURLToPath(new URL("../dist/sw.js", import.meta.url));
    const original = readFileSync(swFile, "utf8");
    try {
      writeFileSync(swFile, `${original}\n// next build ${Date.now()}\n`);
      await page.evaluate(async () => {
        await (await navigator.serviceWorker.getRegistration())?.update();
      });
      await expect(page.getByTestId("sw-state")).toHaveText("Waiting to activate");
      const prompt = page.getByRole("alertdialog", { name: "A new version of ClipShare is available." });
      await expect(prompt).toBeVisible();
      await page.evaluate(() => {
        (window as { beforeUpdate?: boolean }).beforeUpdate = true;
      });

      await prompt.getByRole("button", { name: "Reload" }).click();
      await expect
        .poll(() =>
          page.evaluate(() => (window as { beforeUpdate?: boolean }).beforeUpdate ?? false).catch(() => true),
        )
        .toBe(false);
      await expect(page.getByTestId("sw-state")).toHaveText("Active");
      // The waiting worker took over: nothing waits any more.
      expect(
        await page.evaluate(async () => Boolean((await navigator.serviceWorker.getRegistration())?.waiting)),
      ).toBe(false);
    } finally {
      writeFileSync(swFile, original);
    }
  });
});

test.describe("installable app checks", () => {
  test("valid manifest, a service worker controlling the page, and an offline start", async ({
    page,
    context,
    request,
    consoleGuard,
  }) => {
    consoleGuard.allow(OFFLINE_NOISE);
    const res = await request.get("/manifest.webmanifest");
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toContain("application/manifest+json");
    const manifest = await res.json();
    expect(manifest).toMatchObject({
      name: "ClipShare",
      short_name: "ClipShare",
      start_url: "/",
      scope: "/",
      display: "standalone",
      share_target: { action: "/share-target", method: "POST", enctype: "multipart/form-data" },
    });
    const icons = manifest.icons as { src: string; sizes: string; purpose?: string }[];
    expect(icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(["192x192", "512x512"]));
    expect(icons.some((i) => i.purpose === "maskable")).toBe(true);
    for (const icon of icons) expect((await request.get(icon.src)).status()).toBe(200);

    await controlledBy(page);
    // The admin sees the worker's state.
    const token = await apiLogin(request);
    await useAdminSession(page, token, "/admin/settings");
    await expect(page.getByTestId("sw-state")).toHaveText("Active");

    // A paste, its raw text and the API were all fetched online: none of it is in any cache.
    const paste = await apiCreatePaste(request, `Bearer ${token}`, { content: "not for the cache" });
    await page.goto(`/paste/${paste.slug}`);
    await expect(page.getByText("not for the cache")).toBeVisible();
    await page.evaluate(async (slug) => {
      await fetch(`/api/raw/${slug}`);
    }, paste.slug);
    const cached = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) {
        for (const req of await (await caches.open(name)).keys()) urls.push(new URL(req.url).pathname);
      }
      return urls;
    });
    expect(cached.length).toBeGreaterThan(10);
    expect(cached.filter((u) => /^\/(api|dav)(\/|$)/.test(u))).toEqual([]);

    await context.setOffline(true);
    try {
      await page.goto("/");
      await expect(page.getByRole("heading", { level: 1, name: "Online clipboard" })).toBeVisible();
    } finally {
      await context.setOffline(false);
    }
  });
});
