import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "@playwright/test";
import Database from "better-sqlite3";
import { startTestServer } from "./global-setup";
import { seriousViolations } from "./support/axe";
import { adminToken, createFileRequest, useAdminSession } from "./support/factories";
import { test as base, expect } from "./support/fixtures";

/**
 * File requests end to end: a visitor with no credentials uploads into
 * /r/:slug (a multipart upload of three parts and a single one), the creator
 * finds the files in the admin panel's module, a second uploader is refused
 * once the count is reached, and closed or expired requests say so in English
 * and Chinese. Its own server, so the spec can move a request's expiry into
 * the past in the database.
 */
const test = base.extend<{ token: string }, { server: { baseUrl: string; dataDir: string } }>({
  server: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const server = await startTestServer({ logName: "e2e-file-requests-server.log" });
      await use({ baseUrl: server.baseUrl, dataDir: server.dataDir });
      await server.stop();
    },
    { scope: "worker" },
  ],
  baseURL: async ({ server }, use) => use(server.baseUrl),
  token: async ({ request }, use) => use(await adminToken(request)),
});

/** A page in a fresh browser context: no token, no key, nothing stored. */
async function visitorPage(browser: Browser, baseURL: string, locale = "en-US"): Promise<Page> {
  const context = await browser.newContext({ baseURL, locale });
  return context.newPage();
}

const chooseFiles = (page: Page, files: Array<{ name: string; buffer: Buffer }>) =>
  page
    .getByTestId("request-file-input")
    .setInputFiles(files.map((f) => ({ ...f, mimeType: "application/octet-stream" })));

test("a visitor without credentials sends files in parts; the creator sees them with the note", async ({
  browser,
  page,
  request,
  token,
  server,
}) => {
  const made = await createFileRequest(request, token, {
    title: "Holiday photos",
    message: "Drop your best shots here",
    max_files: 5,
    show_received: true,
  });
  const visitor = await visitorPage(browser, server.baseUrl);
  await visitor.goto(`/r/${made.slug}`);
  await expect(visitor.getByRole("heading", { name: "Holiday photos" })).toBeVisible();
  await expect(visitor.getByText("Drop your best shots here")).toBeVisible();
  expect(await seriousViolations(visitor, "file request page")).toEqual([]);
  await visitor.getByLabel("Your name (optional)").fill("Ana");
  await visitor.getByLabel("A note for the recipient (optional)").fill("From the beach");
  // Three parts of the multipart engine (5 MiB, 5 MiB and one byte).
  const big = randomBytes(10 * 1024 * 1024 + 1);
  await chooseFiles(visitor, [{ name: "beach.bin", buffer: big }]);
  const receipt = visitor.getByTestId("request-receipt");
  await expect(receipt.getByText("beach.bin")).toBeVisible({ timeout: 30_000 });
  await expect(visitor.getByText("1 file arrived safely.")).toBeVisible();
  await chooseFiles(visitor, [{ name: "small.txt", buffer: Buffer.from("hello") }]);
  await expect(receipt.getByText("small.txt")).toBeVisible();
  // Nothing of the visitor's was ever authenticated.
  expect(await visitor.evaluate(() => Object.keys(localStorage).filter((k) => k.includes("token")))).toEqual(
    [],
  );

  await useAdminSession(page, token, "/admin/file-requests");
  const row = page.locator(`[data-request="${made.slug}"]`);
  await row.getByRole("button", { name: "Received files" }).click();
  const uploads = row.getByTestId("request-uploads");
  await expect(uploads.getByText("beach.bin")).toBeVisible();
  // Both files were sent with the same name and note.
  await expect(uploads.getByText("Ana: From the beach")).toHaveCount(2);
  await expect(uploads.getByText("small.txt")).toBeVisible();
  expect(await seriousViolations(page, "file requests module")).toEqual([]);
  await visitor.context().close();
});

test("a visitor's upload in parts continues after a reload, without sending the stored part again", async ({
  browser,
  page,
  request,
  token,
  server,
}) => {
  const made = await createFileRequest(request, token, { title: "Big scans" });
  // A file on disk keeps its modification time across the reload: the engine finds its saved parts.
  const dir = mkdtempSync(join(tmpdir(), "clipshare-e2e-resume-"));
  const file = join(dir, "scan.bin");
  const bytes = randomBytes(15 * 1024 * 1024 + 1);
  writeFileSync(file, bytes);
  const visitor = await visitorPage(browser, server.baseUrl);
  await visitor.goto(`/r/${made.slug}`);
  // Every part but the first fails (the engine retries them, failing again): the reload cuts the
  // upload off with one part stored.
  const later = (url: string) => /[?&]partNumber=(?!1(?:&|$))\d+/.test(url);
  await visitor.route("**/api/uploads/**", (route) =>
    later(route.request().url()) ? route.abort("connectionreset") : route.continue(),
  );
  const firstPart = visitor.waitForResponse(
    (r) => /[?&]partNumber=1(?:&|$)/.test(r.url()) && r.status() === 200,
  );
  await visitor.getByTestId("request-file-input").setInputFiles(file);
  await firstPart;
  // The engine keeps its progress in IndexedDB once a part is stored.
  await visitor.waitForFunction(
    () =>
      new Promise<boolean>((resolve) => {
        const open = indexedDB.open("clipshare-uploads");
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains("multipart")) return resolve(false);
          const all = db.transaction("multipart").objectStore("multipart").getAll();
          all.onsuccess = () =>
            resolve(all.result.some((r: { parts?: unknown[] }) => (r.parts?.length ?? 0) > 0));
          all.onerror = () => resolve(false);
        };
        open.onerror = () => resolve(false);
      }),
  );
  await visitor.unrouteAll({ behavior: "ignoreErrors" });
  const sentAfterReload: string[] = [];
  visitor.on("request", (r) => {
    if (r.method() === "PUT" && r.url().includes("/api/uploads/")) sentAfterReload.push(r.url());
  });
  await visitor.reload();
  await visitor.getByTestId("request-file-input").setInputFiles(file);
  await expect(visitor.getByTestId("request-receipt").getByText("scan.bin")).toBeVisible({ timeout: 60_000 });
  expect(sentAfterReload.length).toBe(3);
  expect(sentAfterReload.some((url) => /[?&]partNumber=1(?:&|$)/.test(url))).toBe(false);
  // The creator has the whole file, byte for byte.
  await useAdminSession(page, token, "/admin/file-requests");
  const detail = await request.get(`/api/requests/${made.id}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  const received = (await detail.json()).data.uploads[0] as { file_slug: string; size: number };
  expect(received.size).toBe(bytes.length);
  const stored = await request.get(`/api/file-download/${received.file_slug}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(
    createHash("sha256")
      .update(await stored.body())
      .digest("hex"),
  ).toBe(createHash("sha256").update(bytes).digest("hex"));
  rmSync(dir, { recursive: true, force: true });
  await visitor.context().close();
});

test("a second uploader is refused once the count is reached", async ({
  browser,
  request,
  token,
  server,
}) => {
  const made = await createFileRequest(request, token, { title: "Just one", max_files: 1 });
  const first = await visitorPage(browser, server.baseUrl);
  const second = await visitorPage(browser, server.baseUrl);
  await first.goto(`/r/${made.slug}`);
  await second.goto(`/r/${made.slug}`);
  // Both pages are open, with a slot free, before either sends anything.
  await expect(first.getByTestId("request-file-input")).toBeAttached();
  await expect(second.getByTestId("request-file-input")).toBeAttached();
  await chooseFiles(first, [{ name: "first.txt", buffer: Buffer.from("first") }]);
  await expect(first.getByTestId("request-receipt").getByText("first.txt")).toBeVisible();
  // The second page was opened while a slot was free: its upload is refused by the server.
  await chooseFiles(second, [{ name: "second.txt", buffer: Buffer.from("second") }]);
  await expect(second.getByRole("alert")).toContainText("received all the files");
  await second.reload();
  await expect(second.getByText("This request has received all the files it takes.")).toBeVisible();
  await first.context().close();
  await second.context().close();
});

test("closed and expired requests say so in English and Chinese", async ({
  browser,
  request,
  token,
  server,
}) => {
  const closed = await createFileRequest(request, token, { title: "Closed one" });
  const res = await request.put(`/api/requests/${closed.id}`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { status: "closed" },
  });
  expect(res.status()).toBe(200);
  const expired = await createFileRequest(request, token, { title: "Late one", expires_in: 1 });
  const db = new Database(join(server.dataDir, "clipshare.db"), { fileMustExist: true });
  try {
    db.prepare("UPDATE file_requests SET expires_at = ? WHERE id = ?").run(
      "2020-01-01T00:00:00.000Z",
      expired.id,
    );
  } finally {
    db.close();
  }
  const cases: Array<[string, string, string]> = [
    ["en-US", closed.slug, "This file request is closed"],
    ["en-US", expired.slug, "This file request has expired"],
    ["zh-CN", closed.slug, "此文件收集请求已关闭"],
    ["zh-CN", expired.slug, "此文件收集请求已过期"],
  ];
  for (const [locale, slug, heading] of cases) {
    const page = await visitorPage(browser, server.baseUrl, locale);
    await page.goto(`/r/${slug}`);
    await expect(page.getByRole("heading", { name: heading })).toBeVisible();
    await expect(page.getByTestId("request-file-input")).toHaveCount(0);
    await page.context().close();
  }
});

test("the visitor page fits a phone", async ({ browser, request, token, server }) => {
  const made = await createFileRequest(request, token, {
    title: "On the phone",
    max_file_bytes: 10_000_000,
    allowed_types: [".pdf", "image/*"],
  });
  const context = await browser.newContext({
    baseURL: server.baseUrl,
    viewport: { width: 375, height: 740 },
    isMobile: true,
  });
  const page = await context.newPage();
  await page.goto(`/r/${made.slug}`);
  await expect(page.getByRole("heading", { name: "On the phone" })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  expect(await seriousViolations(page, "file request page (phone)")).toEqual([]);
  await context.close();
});
