import { createHash } from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { APIRequestContext, Page } from "@playwright/test";
import { entry, explorerS3Env } from "./support/explorer";
import {
  adminToken,
  createFileRequest,
  createLocalMount,
  createMount,
  createS3Config,
  useAdminSession,
} from "./support/factories";
import { test as base, expect } from "./support/fixtures";
import { type NginxProxy, nginxAvailable, startNginx } from "./support/nginx";

/**
 * Large uploads through a reverse proxy with a 100 MB body limit (Debian's
 * nginx): a 300 MiB file goes up in 5 MiB parts from /upload and from the
 * explorer, on LOCAL storage and on the test S3, and arrives byte-identical.
 * A page reload after a third of the parts resumes with only the missing
 * parts; pause, resume and cancel work.
 */

const MiB = 1024 * 1024;
const SIZE = 300 * MiB;
const PARTS = 60;
const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

const test = base.extend<object, { nginx: NginxProxy }>({
  nginx: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const backend = process.env.E2E_BASE_URL;
      if (!backend) throw new Error("E2E_BASE_URL is not set (global setup starts the server)");
      const proxy = await startNginx(backend, "100m");
      await use(proxy);
      await proxy.stop();
    },
    { scope: "worker" },
  ],
  baseURL: async ({ nginx }, use) => use(nginx.url),
});

test.describe.configure({ mode: "serial", timeout: 240_000 });
// Under `npm test` (CLIPSHARE_REQUIRE_SERVICES=1) a missing nginx fails the run instead of skipping it.
test.skip(
  !nginxAvailable() && process.env.CLIPSHARE_REQUIRE_SERVICES !== "1",
  "nginx is not installed (scripts/install-system-deps.sh)",
);

/** A 300 MiB file on disk, every MiB different, so misplaced parts change the hash. */
function bigFile(): { path: string; sha256: string } {
  const dir = join(repoRoot, "test-results", "large-uploads");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "big-300m.bin");
  const hash = createHash("sha256");
  const block = Buffer.alloc(MiB);
  for (let i = 0; i < block.length; i++) block[i] = (i * 31 + (i >> 8)) & 0xff;
  const write = !(existsSync(path) && statSync(path).size === SIZE);
  const fd = write ? openSync(path, "w") : -1;
  for (let m = 0; m < SIZE / MiB; m++) {
    block.writeUInt32BE(m, 0);
    block.writeUInt32BE(Math.imul(m, 2654435761) >>> 0, MiB / 2);
    hash.update(block);
    if (write) writeSync(fd, block);
  }
  if (write) closeSync(fd);
  return { path, sha256: hash.digest("hex") };
}

let file: { path: string; sha256: string };
let token: string;
let s3ConfigId: string | null = null;
let previousMax: { size: number; unit: string } = { size: 100, unit: "MB" };
const run = Date.now().toString(36);
const auth = () => ({ Authorization: `Bearer ${token}` });

async function sha256Of(url: string): Promise<string> {
  const res = await fetch(url, { headers: auth() });
  expect(res.status, url).toBe(200);
  const hash = createHash("sha256");
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) hash.update(chunk);
  return hash.digest("hex");
}

/** Watches part PUTs (LOCAL signed part URLs and S3 UploadPart alike). */
function watchParts(page: Page) {
  const isPart = (url: string) => /[?&]partNumber=\d+|\/parts\/\d+(\?|$)/.test(url);
  const stats = { sent: 0, stored: 0 };
  page.on("request", (r) => {
    if (r.method() === "PUT" && isPart(r.url())) stats.sent++;
  });
  page.on("requestfinished", async (r) => {
    if (r.method() !== "PUT" || !isPart(r.url())) return;
    const res = await r.response();
    if (res && res.status() >= 200 && res.status() < 300) stats.stored++;
  });
  return {
    stats,
    reset: () => {
      stats.sent = 0;
      stats.stored = 0;
    },
  };
}

async function setMaxUpload(request: APIRequestContext, size: number, unit: string) {
  const res = await request.put("/api/admin/system-settings", {
    headers: auth(),
    data: { max_upload_size: size, max_upload_size_unit: unit },
  });
  expect(res.status(), await res.text()).toBe(200);
}

test.beforeAll(async ({ request }) => {
  file = bigFile();
  token = await adminToken(request);
  const settings = (await (await request.get("/api/admin/system-settings", { headers: auth() })).json())
    .data as {
    key: string;
    value: string;
  }[];
  const setting = (key: string) => settings.find((s) => s.key === key)?.value;
  previousMax = {
    size: Number(setting("max_upload_size") ?? 100),
    unit: setting("max_upload_size_unit") ?? "MB",
  };
  await setMaxUpload(request, 1, "GB");

  await createLocalMount(request, token, `/big-local-${run}`, {
    name: "Big local",
    storageName: `big-${run}`,
  });
  const s3 = await createS3Config(request, token, `e2e-big-${run}`);
  if (s3) {
    s3ConfigId = s3.id;
    await createMount(request, token, {
      name: "Big S3",
      mount_path: `/big-s3-${run}`,
      storage_type: "S3",
      storage_config_id: s3.id,
    });
  }
});

test.afterAll(async ({ request }) => {
  if (token) await setMaxUpload(request, previousMax.size, previousMax.unit);
});

const uploadItem = (page: Page, name: string) =>
  page.getByRole("list", { name: "Files to upload" }).getByRole("listitem", { name });

async function chooseOnUploadPage(page: Page, storageId: string | null) {
  await expect(page.getByRole("heading", { level: 1, name: "Upload files" })).toBeVisible();
  if (storageId) await page.getByLabel("Storage", { exact: true }).selectOption(storageId);
  await page.locator('input[type="file"]').first().setInputFiles(file.path);
  await page.getByRole("button", { name: "Upload (1)" }).click();
}

/** The published share's bytes, hashed as they stream from the storage. */
async function shareSha256(request: APIRequestContext, page: Page, name: string, proxy: NginxProxy) {
  const href = await uploadItem(page, name).getByRole("link").first().getAttribute("href");
  const slug = decodeURIComponent(href!.split("/file/")[1]!);
  const meta = await request.get(`/api/public/files/${encodeURIComponent(slug)}`);
  expect(meta.status()).toBe(200);
  const { downloadUrl } = (await meta.json()).data as { downloadUrl: string };
  return sha256Of(downloadUrl.startsWith("http") ? downloadUrl : `${proxy.url}${downloadUrl}`);
}

async function savedUploads(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open("clipshare-uploads", 1);
        open.onupgradeneeded = () => open.result.createObjectStore("multipart");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const count = open.result.transaction("multipart").objectStore("multipart").count();
          count.onsuccess = () => resolve(count.result);
          count.onerror = () => reject(count.error);
        };
      }),
  );
}

test("/upload on LOCAL: a reload after a third of the parts resumes with only the missing parts", async ({
  page,
  request,
  nginx: proxy,
}) => {
  const parts = watchParts(page);
  await useAdminSession(page, token, "/upload");
  await chooseOnUploadPage(page, null);
  const name = "big-300m.bin";
  await expect(uploadItem(page, name)).toHaveAttribute("data-status", "uploading");
  await expect
    .poll(() => parts.stats.stored, { timeout: 120_000, intervals: [100] })
    .toBeGreaterThanOrEqual(20);
  await page.reload();
  const storedBefore = parts.stats.stored;
  expect(storedBefore).toBeLessThan(PARTS);
  parts.reset();

  await chooseOnUploadPage(page, null);
  await expect(uploadItem(page, name)).toContainText(/Continued from \d+ parts already stored/);
  await expect(uploadItem(page, name)).toHaveAttribute("data-status", "success", { timeout: 180_000 });
  // Only the parts the storage did not hold yet went up again (parts cut off by the reload included).
  expect(parts.stats.sent).toBeLessThanOrEqual(PARTS - storedBefore);
  expect(parts.stats.sent).toBeGreaterThanOrEqual(PARTS - storedBefore - 3);
  expect(await shareSha256(request, page, name, proxy)).toBe(file.sha256);
  // Every part request fitted through the proxy's 100 MB limit; nothing was refused with 413.
  expect(proxy.accessLog().filter((l) => l.endsWith(" 413"))).toEqual([]);
  expect(await savedUploads(page)).toBe(0);
});

for (const where of ["LOCAL", "S3"] as const)
  test(`/upload on ${where}: pause stops sending and shows what is kept; resume never sets the bar back and finishes byte-identical`, async ({
    page,
    request,
    nginx: proxy,
  }) => {
    if (where === "S3")
      test.skip(!explorerS3Env() || !s3ConfigId, "S3 test service not configured (source .tmp/services.env)");
    const parts = watchParts(page);
    await useAdminSession(page, token, "/upload");
    await chooseOnUploadPage(page, where === "S3" ? s3ConfigId : null);
    const name = "big-300m.bin";
    const item = uploadItem(page, name);
    await expect
      .poll(() => parts.stats.stored, { timeout: 120_000, intervals: [100] })
      .toBeGreaterThanOrEqual(6);
    await item.getByRole("button", { name: `Pause upload of ${name}` }).click();
    await expect(item).toHaveAttribute("data-status", "paused");
    const sentAtPause = parts.stats.sent;
    await page.waitForTimeout(1500);
    expect(parts.stats.sent).toBe(sentAtPause);
    // Paused, the bar shows what is kept (parts cut off by the pause are not), so resuming never
    // sets it back; and no speed is claimed while nothing moves.
    const bar = item.getByRole("progressbar");
    const pausedAt = Number(await bar.getAttribute("aria-valuenow"));
    expect(pausedAt).toBeGreaterThan(0);
    await expect(item).not.toContainText("/s");
    // Every figure the bar shows from the resume on, as the page renders it.
    await item.evaluate((el) => {
      const seen: number[] = [];
      (window as unknown as { shownPercents: number[] }).shownPercents = seen;
      const read = () => {
        const v = el.querySelector('[role="progressbar"]')?.getAttribute("aria-valuenow");
        if (v != null) seen.push(Number(v));
      };
      new MutationObserver(read).observe(el, { subtree: true, childList: true, attributes: true });
    });
    await item.getByRole("button", { name: `Resume upload of ${name}` }).click();
    await expect(item).toContainText("/s", { timeout: 30_000 });
    const shown = await page.evaluate(() => (window as unknown as { shownPercents: number[] }).shownPercents);
    expect(shown.length).toBeGreaterThan(0);
    expect(Math.min(...shown)).toBeGreaterThanOrEqual(pausedAt);
    await expect(item).toHaveAttribute("data-status", "success", { timeout: 180_000 });
    expect(await shareSha256(request, page, name, proxy)).toBe(file.sha256);
  });

test("cancel on /upload aborts the multipart upload: no share record, no stored parts, no saved progress", async ({
  page,
  request,
}) => {
  const parts = watchParts(page);
  await useAdminSession(page, token, "/upload");
  const init = page.waitForResponse((r) => r.url().endsWith("/api/files/multipart/init"));
  await chooseOnUploadPage(page, null);
  const started = (await (await init).json()).data as { file_id: string; upload_id: string };
  const name = "big-300m.bin";
  const item = uploadItem(page, name);
  await expect
    .poll(() => parts.stats.stored, { timeout: 120_000, intervals: [100] })
    .toBeGreaterThanOrEqual(3);
  const abort = page.waitForResponse((r) => r.url().endsWith("/api/files/multipart/abort"));
  await item.getByRole("button", { name: `Cancel upload of ${name}` }).click();
  expect((await abort).status()).toBe(200);
  await expect(item).toHaveAttribute("data-status", "error");

  const resume = await request.post("/api/files/multipart/resume", {
    headers: auth(),
    data: { file_id: started.file_id, upload_id: started.upload_id },
  });
  expect(resume.status()).toBe(404);
  const record = await request.get(`/api/files/${started.file_id}`, { headers: auth() });
  expect(record.status()).toBe(404);
  expect(await savedUploads(page)).toBe(0);
});

test("losing the network fails the upload with a clear message; back online it continues by itself", async ({
  page,
  request,
  nginx: proxy,
  consoleGuard,
}) => {
  consoleGuard.allow(/net::ERR_INTERNET_DISCONNECTED/);
  const parts = watchParts(page);
  await useAdminSession(page, token, "/upload");
  await chooseOnUploadPage(page, null);
  const name = "big-300m.bin";
  const item = uploadItem(page, name);
  await expect
    .poll(() => parts.stats.stored, { timeout: 120_000, intervals: [100] })
    .toBeGreaterThanOrEqual(6);
  await page.context().setOffline(true);
  await expect(item).toHaveAttribute("data-status", "error", { timeout: 60_000 });
  await expect(item).toContainText("Network error.");
  const storedOffline = parts.stats.stored;
  parts.reset();
  await page.context().setOffline(false);
  await expect(item).toHaveAttribute("data-status", "success", { timeout: 180_000 });
  expect(parts.stats.sent).toBeLessThanOrEqual(PARTS - storedOffline + 3);
  expect(await shareSha256(request, page, name, proxy)).toBe(file.sha256);
});

/** On an explorer page: choose the big file for the current folder. */
async function explorerUpload(page: Page) {
  await expect(page.getByTestId("drop-zone")).toBeVisible();
  await page.getByTestId("file-input").setInputFiles(file.path);
  return page.getByTestId("upload-panel").locator('[data-upload="big-300m.bin"]');
}

test("explorer on LOCAL: a 300 MiB file arrives byte-identical", async ({ page, nginx: proxy }) => {
  const mount = `/big-local-${run}`;
  await useAdminSession(page, token, `/mount-explorer${mount}`);
  const row = await explorerUpload(page);
  await expect(row).toHaveAttribute("data-status", "done", { timeout: 180_000 });
  await expect(entry(page, "big-300m.bin")).toBeVisible();
  expect(
    await sha256Of(`${proxy.url}/api/fs/download?path=${encodeURIComponent(`${mount}/big-300m.bin`)}`),
  ).toBe(file.sha256);
  expect(proxy.accessLog().filter((l) => l.endsWith(" 413"))).toEqual([]);
});

test("explorer on S3: a reload after a third of the parts resumes with only the missing parts", async ({
  page,
  nginx: proxy,
}) => {
  test.skip(!explorerS3Env() || !s3ConfigId, "S3 test service not configured (source .tmp/services.env)");
  const mount = `/big-s3-${run}`;
  const parts = watchParts(page);
  await useAdminSession(page, token, `/mount-explorer${mount}`);
  let row = await explorerUpload(page);
  await expect
    .poll(() => parts.stats.stored, { timeout: 120_000, intervals: [100] })
    .toBeGreaterThanOrEqual(20);
  await page.reload();
  const storedBefore = parts.stats.stored;
  parts.reset();
  await expect(page.getByTestId("drop-zone")).toBeVisible();
  await page.getByTestId("file-input").setInputFiles(file.path);
  row = page.getByTestId("upload-panel").locator('[data-upload="big-300m.bin"]');
  await expect(row).toHaveAttribute("data-status", "done", { timeout: 180_000 });
  expect(parts.stats.sent).toBeLessThanOrEqual(PARTS - storedBefore);
  expect(parts.stats.sent).toBeGreaterThanOrEqual(PARTS - storedBefore - 3);
  expect(
    await sha256Of(`${proxy.url}/api/fs/download?path=${encodeURIComponent(`${mount}/big-300m.bin`)}`),
  ).toBe(file.sha256);
  expect(await savedUploads(page)).toBe(0);
});

test("a file request through the proxy: a visitor without credentials sends 300 MiB in parts", async ({
  browser,
  request,
  nginx: proxy,
}) => {
  const { id, slug } = await createFileRequest(request, token, { title: `Big request ${run}` });
  const context = await browser.newContext({ baseURL: proxy.url });
  const visitor = await context.newPage();
  const parts = watchParts(visitor);
  await visitor.goto(`/r/${slug}`);
  await visitor.getByTestId("request-file-input").setInputFiles(file.path);
  await expect(visitor.getByTestId("request-receipt").getByText("big-300m.bin")).toBeVisible({
    timeout: 180_000,
  });
  expect(parts.stats.stored).toBe(PARTS);
  const detail = await request.get(`/api/requests/${id}`, { headers: auth() });
  const [upload] = (await detail.json()).data.uploads as Array<{ file_slug: string; size: number }>;
  expect(upload!.size).toBe(SIZE);
  const meta = await request.get(`/api/public/files/${encodeURIComponent(upload!.file_slug)}`);
  const { downloadUrl } = (await meta.json()).data as { downloadUrl: string };
  expect(await sha256Of(downloadUrl.startsWith("http") ? downloadUrl : `${proxy.url}${downloadUrl}`)).toBe(
    file.sha256,
  );
  await context.close();
});
