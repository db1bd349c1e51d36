import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Page } from "@playwright/test";
import { adminToken, createPaste, useAdminSession } from "./support/factories";
import { expect, test } from "./support/fixtures";
import { controlledBy, OFFLINE_NOISE } from "./support/offline";

/** The installable app: install offer, share target, worker update, and the caching rules. */

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
    const token = await adminToken(request);
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
    const token = await adminToken(request);
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
    const token = await adminToken(request);
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
    const token = await adminToken(request);
    await useAdminSession(page, token, "/admin/settings");
    await expect(page.getByTestId("sw-state")).toHaveText("Active");

    // A paste, its raw text and the API were all fetched online: none of it is in any cache.
    const paste = await createPaste(request, `Bearer ${token}`, { content: "not for the cache" });
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
