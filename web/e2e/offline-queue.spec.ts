import type { APIRequestContext, BrowserContext, Page } from "@playwright/test";
import { adminToken, useAdminSession } from "./support/factories";
import { expect, failedResource, test, unique } from "./support/fixtures";
import { controlledBy, OFFLINE_NOISE, pasteBySlug, queueEntries } from "./support/offline";
import { fillEditor } from "./support/pastes";

/** Writes made offline: queued, replayed in the page or by Background Sync, kept on refusal. */

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
  // Each test starts signed in as the admin on Home; requests failing offline are expected.
  let token = "";
  test.beforeEach(async ({ page, request, consoleGuard }) => {
    consoleGuard.allow(OFFLINE_NOISE);
    token = await adminToken(request);
    await useAdminSession(page, token, "/");
  });

  test("a paste written offline is queued, then sent when the network is back", async ({
    page,
    context,
    request,
  }) => {
    const slug = unique("offq");
    await queuePasteOffline(page, context, "written on a train", slug);

    await expect(page.getByRole("button", { name: "1 change waiting to be sent" })).toBeVisible();
    expect(await queueEntries(page)).toMatchObject([{ type: "paste-create", status: "pending" }]);
    expect(await pasteBySlug(request, token, slug)).toBeNull();

    await context.setOffline(false);
    await expect.poll(() => pasteBySlug(request, token, slug), { timeout: 15_000 }).not.toBeNull();
    await expect.poll(() => queueEntries(page)).toEqual([]);
    await expect(page.getByRole("button", { name: /waiting to be sent/ })).toBeHidden();
    // Once sent, its link is shown (and kept with the recent pastes); "will be sent" is gone.
    await expect(page.getByRole("region", { name: "Share link created" })).toContainText(`/paste/${slug}`);
    await expect(page.getByTestId("paste-queued")).toBeHidden();
    await expect(page.getByRole("list", { name: "Recent pastes" })).toContainText(`/paste/${slug}`);
  });

  test("on a phone a notice stands above the waiting pill instead of covering it", async ({
    page,
    context,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await queuePasteOffline(page, context, "written on a phone", unique("offpill"));
    const pill = page.getByRole("button", { name: "1 change waiting to be sent" });
    await expect(pill).toBeVisible();
    // A press in the upper half sends the next notice to the bottom, where the pill is.
    await page.getByRole("heading", { level: 1 }).first().click();
    // The same notice the browser's own "offline" event brings.
    await page.evaluate(() => window.dispatchEvent(new Event("offline")));
    const notice = page.getByRole("status").filter({ hasText: "offline" });
    await expect(notice).toBeVisible();
    await expect(notice).toHaveAttribute("data-edge", "bottom");
    const b = (await pill.boundingBox())!;
    for (const text of await notice.locator("p").all()) {
      const a = (await text.locator("..").boundingBox())!;
      const overlap =
        a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
      expect(overlap, `notice ${JSON.stringify(a)} pill ${JSON.stringify(b)}`).toBe(false);
    }
  });

  test("Background Sync sends the queue from the service worker with no page of the app open", async ({
    page,
    context,
    request,
  }) => {
    const slug = unique("offbg");
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

  test("a sync that sent a paste reloads the open management view", async ({ page, context }) => {
    const slug = unique("offreload");
    // Opened online once, so its page opens offline.
    await controlledBy(page, "/admin/text-management");
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
    consoleGuard.allow(failedResource(401));
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
    const fresh = await adminToken(request);
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
