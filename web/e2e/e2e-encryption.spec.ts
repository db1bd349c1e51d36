import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  closeSync,
  createReadStream,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  statSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, Page, Request } from "@playwright/test";
import Database from "better-sqlite3";
import { encryptedSize as encryptedSizeOf } from "../../packages/shared/src/e2e/format";
import { startTestServer } from "./global-setup";
import { adminToken, useAdminSession } from "./support/factories";
import { test as base, ConsoleGuard, expect, failedResource, unique } from "./support/fixtures";
import { type NginxProxy, nginxAvailable, startNginx } from "./support/nginx";
import { fillEditor } from "./support/pastes";

/**
 * End-to-end encrypted pastes against a server of its own, so the test can read
 * what the server stored: every request the browsers send is recorded, and
 * neither the plaintext marker nor the key may appear in any URL or body; the
 * database row holds ciphertext only.
 */
const test = base.extend<{ token: string }, { server: { baseUrl: string; dataDir: string } }>({
  server: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const server = await startTestServer({ logName: "e2e-encryption-server.log" });
      await use({ baseUrl: server.baseUrl, dataDir: server.dataDir });
      await server.stop();
    },
    { scope: "worker" },
  ],
  baseURL: async ({ server }, use) => use(server.baseUrl),
  token: async ({ request }, use) => use(await adminToken(request)),
});

const MARKER = "PLAINTEXT-MARKER-7f3a";

/** Everything a page sends: URL (path, query) and body of each request. */
function recordRequests(page: Page): Array<{ url: string; body: string }> {
  const seen: Array<{ url: string; body: string }> = [];
  page.on("request", (request: Request) => {
    seen.push({ url: request.url(), body: request.postDataBuffer()?.toString("latin1") ?? "" });
  });
  return seen;
}

function expectNothingLeaked(sent: Array<{ url: string; body: string }>, secrets: string[]) {
  expect(sent.length).toBeGreaterThan(0);
  for (const request of sent) {
    for (const secret of secrets) {
      expect(request.url, `request URL leaks ${secret}`).not.toContain(secret);
      expect(request.body, `body of ${request.url} leaks ${secret}`).not.toContain(secret);
    }
  }
}

async function freshVisitor(browser: Browser, baseURL: string) {
  const context = await browser.newContext({
    baseURL,
    locale: "en-US",
    viewport: { width: 1280, height: 800 },
  });
  const page = await context.newPage();
  const guard = new ConsoleGuard();
  guard.watch(page);
  return { context, page, guard };
}

function storedPaste(
  dataDir: string,
  slug: string,
): { content: string; encrypted: number; password_hash: string | null } {
  const db = new Database(join(dataDir, "clipshare.db"), { readonly: true, fileMustExist: true });
  try {
    return db.prepare("SELECT content, encrypted, password_hash FROM pastes WHERE slug = ?").get(slug) as {
      content: string;
      encrypted: number;
      password_hash: string | null;
    };
  } finally {
    db.close();
  }
}

async function createEncryptedPaste(page: Page, text: string, slug: string, password?: string) {
  await fillEditor(page, text);
  await page.getByLabel("Custom link suffix").fill(slug);
  if (password) await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("checkbox", { name: "Encrypt end to end" }).check();
  await page.getByRole("button", { name: "Create share link" }).click();
  const result = page.getByRole("region", { name: "Share link created" });
  await expect(result.getByTestId("e2e-link-note")).toBeVisible();
  await expect(result).toContainText("End-to-end encrypted");
  const link = await result.getByRole("textbox", { name: "Share link" }).inputValue();
  expect(link).toMatch(new RegExp(`/paste/${slug}#[kp]\\.[A-Za-z0-9_-]+$`));
  return { link, fragment: link.slice(link.indexOf("#") + 1) };
}

test.describe("end-to-end encrypted pastes", () => {
  test("without a password: the link opens it, the server never sees text or key", async ({
    page,
    browser,
    token,
    server,
  }) => {
    const sent = recordRequests(page);
    await useAdminSession(page, token, "/");
    const slug = unique("e2e");
    const { link, fragment } = await createEncryptedPaste(page, `# Sealed ${MARKER}\n\nsecret *body*`, slug);
    expect(fragment.startsWith("k.")).toBe(true);

    const row = storedPaste(server.dataDir, slug);
    expect(row.encrypted).toBe(1);
    expect(row.password_hash).toBeNull();
    expect(row.content).not.toContain(MARKER);
    expect(row.content).not.toContain("Sealed");

    const v = await freshVisitor(browser, server.baseUrl);
    const visitorSent = recordRequests(v.page);
    await v.page.goto(link);
    const body = v.page.getByTestId("markdown-body");
    // Markdown rendered in the browser after decrypting.
    await expect(body.getByRole("heading", { level: 1, name: `Sealed ${MARKER}` })).toBeVisible();
    await expect(v.page.getByTestId("e2e-notice")).toContainText(
      "raw link, search and server-side features are off",
    );
    // Raw is off for it, so the page offers no Raw button either.
    await expect(v.page.getByRole("button", { name: "Copy link" })).toBeVisible();
    await expect(v.page.getByRole("link", { name: /Raw/ })).toHaveCount(0);
    await expect(v.page.getByRole("button", { name: /Raw/ })).toHaveCount(0);
    expectNothingLeaked([...sent, ...visitorSent], [MARKER, fragment.slice(2)]);

    // The server has no raw form of it, and says why in the JSON envelope.
    const raw = await v.page.request.get(`/api/raw/${slug}`);
    expect(raw.status()).toBe(409);
    expect(await raw.json()).toMatchObject({ success: false, error: "encrypted_paste" });

    // Text management cannot show or change the content, and says why.
    await page.goto("/admin/text-management");
    await page.getByLabel("Search pastes").fill(slug);
    await page.getByRole("button", { name: `Preview ${slug}` }).click();
    await expect(page.getByTestId("e2e-preview-hidden")).toBeVisible();
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: `Edit ${slug}` }).click();
    await expect(page.getByTestId("e2e-edit-refused")).toContainText("cannot be edited");
    await page.keyboard.press("Escape");

    // The link without its key: a clear message, no content.
    await v.page.goto(`/paste/${slug}`);
    await expect(v.page.getByTestId("e2e-failure")).toContainText("the link has no key");
    expect(v.guard.unexpected()).toEqual([]);
    await v.context.close();
  });

  test("with a password: the link alone is not enough, a wrong password is refused in the browser", async ({
    page,
    browser,
    token,
    server,
  }) => {
    const sent = recordRequests(page);
    await useAdminSession(page, token, "/");
    const slug = unique("e2epw");
    const password = "correct horse battery";
    const { link, fragment } = await createEncryptedPaste(page, `plain words ${MARKER}`, slug, password);
    expect(fragment.startsWith("p.")).toBe(true);
    // The result says what the paste is, although the server never saw the password,
    // and the next paste starts unencrypted, like every other option.
    const result = page.getByRole("region", { name: "Share link created" });
    await expect(result).toContainText("Password protected");
    await expect(result).toContainText("The link alone does not open it: send the password separately.");
    await expect(page.getByRole("checkbox", { name: "Encrypt end to end" })).not.toBeChecked();
    expect(storedPaste(server.dataDir, slug).password_hash).toBeNull();

    const v = await freshVisitor(browser, server.baseUrl);
    const visitorSent = recordRequests(v.page);
    await v.page.goto(link);
    await expect(v.page.getByRole("heading", { name: "Password needed to decrypt" })).toBeVisible();
    await v.page.getByLabel("Password", { exact: true }).fill("wrong password");
    await v.page.getByRole("button", { name: "Decrypt" }).click();
    await expect(v.page.getByText("Wrong password")).toBeVisible({ timeout: 20_000 });
    await v.page.getByLabel("Password", { exact: true }).fill(password);
    await v.page.getByRole("button", { name: "Decrypt" }).click();
    await expect(v.page.getByText(`plain words ${MARKER}`)).toBeVisible({ timeout: 20_000 });
    expectNothingLeaked([...sent, ...visitorSent], [MARKER, password, fragment.slice(2)]);
    expect(v.guard.unexpected()).toEqual([]);
    await v.context.close();
  });
});

// ---- files of any size -------------------------------------------------------------

const MiB = 1024 * 1024;
const FILE_SIZE = 300 * MiB;
const FILE_MARKER = "CLIPSHARE-E2E-FILE-MARKER";
const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

/** 300 MiB on disk (the browser reads it from there), every MiB starting with the plaintext marker. */
function markedFile(): { path: string; sha256: string } {
  const dir = join(repoRoot, "test-results", "e2e-encryption");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "marked-300m.bin");
  const hash = createHash("sha256");
  const block = Buffer.alloc(MiB);
  for (let i = 0; i < block.length; i++) block[i] = (i * 31 + (i >> 8)) & 0xff;
  const write = !(existsSync(path) && statSync(path).size === FILE_SIZE);
  const fd = write ? openSync(path, "w") : -1;
  for (let m = 0; m < FILE_SIZE / MiB; m++) {
    block.write(`${FILE_MARKER}-${String(m).padStart(4, "0")}`, 0, "latin1");
    block.writeUInt32BE(m, MiB / 2);
    hash.update(block);
    if (write) writeSync(fd, block);
  }
  if (write) closeSync(fd);
  return { path, sha256: hash.digest("hex") };
}

async function fileFacts(path: string): Promise<{ sha256: string; hasMarker: boolean }> {
  const hash = createHash("sha256");
  let tail = "";
  let hasMarker = false;
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    const text = tail + chunk.toString("latin1");
    if (text.includes(FILE_MARKER)) hasMarker = true;
    tail = text.slice(-FILE_MARKER.length);
  }
  return { sha256: hash.digest("hex"), hasMarker };
}

/** Starts an end-to-end encrypted upload of one file from the upload page. */
async function uploadEncrypted(page: Page, path: string) {
  await expect(page.getByRole("heading", { level: 1, name: "Upload files" })).toBeVisible();
  // The switch is one of the share's options, in their card next to the access-log switch.
  const options = page.getByRole("region", { name: "Share options" });
  await expect(options.getByRole("checkbox", { name: "Log accesses of this share" })).toBeVisible();
  await options.getByRole("checkbox", { name: "Encrypt end to end" }).check();
  await page.locator('input[type="file"]').first().setInputFiles(path);
  await page.getByRole("button", { name: "Upload (1)" }).click();
}

/** A visitor whose page the service worker controls (a second load after it took over). */
async function controlledVisitor(browser: Browser, baseURL: string, link: string, name: string) {
  const v = await freshVisitor(browser, baseURL);
  await v.page.goto(link);
  await expect(v.page.getByRole("heading", { level: 1, name })).toBeVisible();
  await v.page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await v.page.reload();
  await expect(v.page.getByRole("heading", { level: 1, name })).toBeVisible();
  expect(await v.page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  return v;
}

const ffmpegInstalled = spawnSync("ffmpeg", ["-version"], { stdio: "ignore" }).status === 0;

/** A 30-second WebM test pattern (VP8, which every Chromium build plays), made by ffmpeg. */
function testVideo(): string {
  const dir = join(repoRoot, "test-results", "e2e-encryption");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "pattern.webm");
  const made = spawnSync(
    "ffmpeg",
    ["-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x180:rate=10:duration=30"].concat([
      "-c:v",
      "libvpx",
      "-b:v",
      "1M",
      "-g",
      "10",
      path,
    ]),
    { stdio: "ignore" },
  );
  if (made.status !== 0) throw new Error("ffmpeg could not make the test video");
  return path;
}

function findStored(dir: string, name: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(entry.parentPath ?? dir, entry.name);
    if (entry.isDirectory()) found.push(...findStored(path, name));
    else if (entry.name.endsWith(name)) found.push(path);
  }
  return found;
}

const fileTest = test.extend<object, { nginx: NginxProxy }>({
  nginx: [
    async ({ server }, use) => {
      const proxy = await startNginx(server.baseUrl, "100m");
      await use(proxy);
      await proxy.stop();
    },
    { scope: "worker" },
  ],
  baseURL: async ({ nginx }, use) => use(nginx.url),
});

fileTest.describe("end-to-end encrypted files", () => {
  fileTest.skip(
    !nginxAvailable() && process.env.CLIPSHARE_REQUIRE_SERVICES !== "1",
    "nginx is not installed (scripts/install-system-deps.sh)",
  );

  fileTest(
    "300 MiB through a 100 MB proxy: interrupted, resumed, stored without plaintext, downloaded byte-identical",
    async ({ page, browser, token, server, nginx, request }) => {
      fileTest.setTimeout(900_000);
      const file = markedFile();
      const settings = await request.put("/api/admin/system-settings", {
        headers: { Authorization: `Bearer ${token}` },
        data: { max_upload_size: 1, max_upload_size_unit: "GB" },
      });
      expect(settings.status()).toBe(200);

      const isPart = (url: string) => /[?&]partNumber=\d+/.test(url);
      let stored = 0;
      page.on("requestfinished", async (r) => {
        if (r.method() !== "PUT" || !isPart(r.url())) return;
        if ((await r.response())?.ok()) stored++;
      });
      const sent = recordRequests(page);
      const name = "marked-300m.bin";
      const item = page.getByRole("list", { name: "Files to upload" }).getByRole("listitem", { name });
      const choose = () => uploadEncrypted(page, file.path);

      await useAdminSession(page, token, "/upload");
      await choose();
      await expect.poll(() => stored, { timeout: 300_000, intervals: [200] }).toBeGreaterThanOrEqual(15);
      // Interrupted: the page goes away in the middle of the upload.
      await page.reload();
      await choose();
      await expect(item).toContainText(/Continued from \d+ parts already stored/);
      await expect(item).toHaveAttribute("data-status", "success", { timeout: 600_000 });
      const link = await item.getByRole("link").first().getAttribute("href");
      expect(link).toMatch(/^\/file\/[^#]+#k\.[A-Za-z0-9_-]{43}$/);
      const fragment = link!.slice(link!.indexOf("#") + 1);
      expect(nginx.accessLog().filter((l) => l.endsWith(" 413"))).toEqual([]);
      // Neither the name nor the key went to the server (part bodies are ciphertext: checked on disk below).
      expectNothingLeaked(
        sent.filter((r) => !isPart(r.url)),
        [name, fragment.slice(2)],
      );

      // The stored object: ciphertext only, sized as the format says.
      const objects = findStored(join(server.dataDir, "files"), "encrypted.bin");
      expect(objects).toHaveLength(1);
      const storedFacts = await fileFacts(objects[0]!);
      expect(storedFacts.hasMarker).toBe(false);
      expect(statSync(objects[0]!).size).toBe(encryptedSizeOf(FILE_SIZE));

      // A visitor downloads it, decrypted as a stream by the service worker.
      const v = await controlledVisitor(browser, nginx.url, link!, name);
      const downloading = v.page.waitForEvent("download", { timeout: 120_000 });
      await v.page.getByRole("button", { name: "Download" }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toBe(name);
      const saved = await download.path();
      await expect(v.page.getByTestId("e2e-progress")).toHaveText("Decrypted and saved.", {
        timeout: 300_000,
      });
      // Streamed by the service worker: the file never sat in the page's memory.
      await expect(v.page.getByTestId("e2e-progress")).toHaveAttribute("data-mode", "stream");
      const downloaded = await fileFacts(saved);
      expect(downloaded.sha256).toBe(file.sha256);
      expect(v.guard.unexpected()).toEqual([]);

      // One byte of the stored object changed half-way: the download stops there and the page says why.
      const fd = openSync(objects[0]!, "r+");
      const middle = Math.floor(statSync(objects[0]!).size / 2);
      const byte = Buffer.alloc(1);
      readSync(fd, byte, 0, 1, middle);
      byte[0] = byte[0]! ^ 0xff;
      writeSync(fd, byte, 0, 1, middle);
      closeSync(fd);
      const failing = v.page.waitForEvent("download", { timeout: 120_000 });
      await v.page.getByRole("button", { name: "Download" }).click();
      expect(await (await failing).failure()).not.toBeNull();
      await expect(v.page.getByRole("alert")).toContainText("The download stopped", { timeout: 300_000 });
      await expect(v.page.getByTestId("e2e-progress")).toHaveCount(0);
      await expect(v.page.getByRole("button", { name: "Download" })).toBeEnabled();
      await v.context.close();
    },
  );

  fileTest(
    "an encrypted video plays and seeks; the service worker decrypts only the byte ranges asked for",
    async ({ page, browser, token, nginx }) => {
      fileTest.skip(
        !ffmpegInstalled && process.env.CLIPSHARE_REQUIRE_SERVICES !== "1",
        "ffmpeg is not installed",
      );
      const path = testVideo();
      const plain = readFileSync(path);
      const name = "pattern.webm";
      await useAdminSession(page, token, "/upload");
      await uploadEncrypted(page, path);
      const item = page.getByRole("list", { name: "Files to upload" }).getByRole("listitem", { name });
      await expect(item).toHaveAttribute("data-status", "success", { timeout: 120_000 });
      const link = (await item.getByRole("link").first().getAttribute("href"))!;

      const v = await controlledVisitor(browser, nginx.url, link, name);
      await v.page.getByRole("button", { name: "Decrypt and preview" }).click();
      const video = v.page.locator("video");
      await expect(video).toHaveAttribute("src", /^\/e2e-download\//);
      // The player reads the header and seeks near the end.
      const played = await video.evaluate(async (el: HTMLVideoElement) => {
        if (el.readyState < 1)
          await new Promise((r) => el.addEventListener("loadedmetadata", r, { once: true }));
        const seeked = new Promise((r) => el.addEventListener("seeked", r, { once: true }));
        el.currentTime = 25;
        await seeked;
        return { duration: el.duration, at: el.currentTime, error: el.error?.code ?? null };
      });
      expect(played.error).toBeNull();
      expect(played.duration).toBeGreaterThan(29);
      expect(played.at).toBeGreaterThanOrEqual(24);

      // Ranges as a player asks them: exact plaintext bytes, a suffix, and past the end.
      const src = (await video.getAttribute("src"))!;
      const ask = (range: string) =>
        v.page.evaluate(
          async ({ src, range }) => {
            const res = await fetch(src, { headers: { Range: range } });
            const body = new Uint8Array(await res.arrayBuffer());
            return {
              status: res.status,
              contentRange: res.headers.get("Content-Range"),
              bytes: Array.from(body),
            };
          },
          { src, range },
        );
      const middle = Math.floor(plain.length / 2);
      const inner = await ask(`bytes=${middle}-${middle + 99}`);
      expect(inner.status).toBe(206);
      expect(inner.contentRange).toBe(`bytes ${middle}-${middle + 99}/${plain.length}`);
      expect(Buffer.from(inner.bytes).equals(plain.subarray(middle, middle + 100))).toBe(true);
      const tail = await ask("bytes=-10");
      expect(tail.status).toBe(206);
      expect(Buffer.from(tail.bytes).equals(plain.subarray(plain.length - 10))).toBe(true);
      v.guard.allow(failedResource(416));
      const past = await ask(`bytes=${plain.length}-`);
      expect(past.status).toBe(416);
      expect(past.contentRange).toBe(`bytes */${plain.length}`);
      // The worker fetched ranges of the ciphertext (or had the browser's cache revalidate
      // them: 304), never the whole file.
      const fileId = link.slice("/file/".length, link.indexOf("#"));
      const fetched = nginx.accessLog().filter((l) => l.startsWith(`GET /api/file-download/${fileId}`));
      expect(fetched.filter((l) => l.endsWith(" 206")).length).toBeGreaterThanOrEqual(2);
      expect(fetched.filter((l) => !/ (206|304)$/.test(l))).toEqual([]);
      expect(v.guard.unexpected()).toEqual([]);
      await v.context.close();
    },
  );
});
