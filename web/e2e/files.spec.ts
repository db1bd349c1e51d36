import { randomBytes } from "node:crypto";
import type { Browser, Page } from "@playwright/test";
import { adminToken, createFileShare, createS3Config, useAdminSession } from "./support/factories";
import {
  blockedInlineHandler,
  ConsoleGuard,
  expect,
  failedResource,
  saveScreenshot,
  test,
  unique,
} from "./support/fixtures";
import { s3Env, servicesRequired } from "./support/s3-env";
import { downloadedBytes, dropFiles, pngImage, type TestFile } from "./support/test-files";

/** A fresh browser context (no stored session): what a visitor with the link sees. */
async function visitorPage(
  browser: Browser,
): Promise<{ page: Page; guard: ConsoleGuard; close: () => Promise<void> }> {
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL, locale: "en-US" });
  const page = await context.newPage();
  const guard = new ConsoleGuard();
  guard.watch(page);
  return { page, guard, close: () => context.close() };
}

function uploadItem(page: Page, name: string) {
  return page.getByRole("list", { name: "Files to upload" }).getByRole("listitem", { name });
}

/** The share path ("/file/…") an uploaded item links to. */
async function sharePath(page: Page, name: string): Promise<string> {
  const href = await uploadItem(page, name).getByRole("link").first().getAttribute("href");
  expect(href).toMatch(/^\/file\/[A-Za-z0-9_-]+$/);
  return href!;
}

async function downloadOnPage(page: Page): Promise<Buffer> {
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download" }).click(),
  ]);
  return downloadedBytes(download);
}

test.describe("file upload and sharing", () => {
  test("two files dropped on /upload go to LOCAL storage; a visitor previews and downloads them", async ({
    page,
    request,
    browser,
  }) => {
    const token = await adminToken(request);
    const configs = (
      await (await request.get("/api/s3-configs", { headers: { Authorization: `Bearer ${token}` } })).json()
    ).data as { id: string; storage_type: string; is_default: boolean }[];
    const local = configs.find((c) => c.is_default && c.storage_type === "LOCAL");
    expect(local, "the first-run LOCAL config is the default").toBeTruthy();

    await useAdminSession(page, token, "/upload");
    await expect(page.getByRole("heading", { level: 1, name: "Upload files" })).toBeVisible();
    await expect(page.getByRole("tab", { name: "File upload" })).toHaveAttribute("aria-selected", "true");
    await expect(page.getByLabel("Storage", { exact: true })).toHaveValue(local!.id);

    const image: TestFile = {
      name: unique("photo").concat(".png"),
      mimeType: "image/png",
      buffer: pngImage(64, 40),
    };
    const markdown: TestFile = {
      name: unique("notes").concat(".md"),
      mimeType: "",
      buffer: Buffer.from(
        '# Release notes\n\nShipped **file sharing** today.\n\n- drag and drop\n- presigned uploads\n\n<script>window.__pwned = 1</script>\n<img src=x onerror="window.__pwned = 2">\n',
      ),
    };

    await dropFiles(page, page.getByRole("region", { name: "Drop files here" }), [image, markdown]);
    await expect(uploadItem(page, image.name)).toHaveAttribute("data-status", "pending");
    await expect(uploadItem(page, markdown.name)).toHaveAttribute("data-status", "pending");
    // A link suffix names one share: it is off while several files wait.
    await expect(page.getByLabel("Link suffix")).toBeDisabled();
    await saveScreenshot(page, "upload-queued");

    // LOCAL storage gets presigned uploads too: the browser PUTs to the signed URL on our server.
    const localPuts: string[] = [];
    page.on("request", (r) => {
      if (r.method() === "PUT" && r.url().includes("/api/uploads/")) localPuts.push(r.url());
    });
    await page.getByRole("button", { name: "Upload (2)" }).click();
    await expect(uploadItem(page, image.name)).toHaveAttribute("data-status", "success", { timeout: 20_000 });
    await expect(uploadItem(page, markdown.name)).toHaveAttribute("data-status", "success", {
      timeout: 20_000,
    });
    expect(localPuts).toHaveLength(2);
    await expect(page.getByText("2 files · 2 uploaded · 0 failed")).toBeVisible();

    const imagePath = await sharePath(page, image.name);
    const markdownPath = await sharePath(page, markdown.name);
    const recent = page.getByRole("region", { name: "Recent uploads" });
    await expect(recent.getByRole("link", { name: image.name })).toBeVisible();
    await expect(recent.getByRole("link", { name: markdown.name })).toBeVisible();

    // The QR code of a share link (the encoder is loaded on first use).
    await uploadItem(page, image.name)
      .getByRole("button", { name: `QR code for ${image.name}` })
      .click();
    const qr = page.getByRole("dialog", { name: "QR code" });
    await expect(qr.getByRole("img", { name: `QR code for ${image.name}` })).toBeVisible();
    await expect(qr).toContainText(imagePath);
    await page.keyboard.press("Escape");
    await saveScreenshot(page, "upload-done");

    const visitor = await visitorPage(browser);
    try {
      const v = visitor.page;
      await v.goto(imagePath);
      await expect(v.getByRole("heading", { level: 1, name: image.name })).toBeVisible();
      await expect(v.getByText("image/png")).toBeVisible();
      const img = v.getByRole("img", { name: `Preview of ${image.name}` });
      await expect(img).toBeVisible();
      await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(64);
      expect((await downloadOnPage(v)).equals(image.buffer)).toBe(true);

      await v.goto(markdownPath);
      await expect(v.getByRole("heading", { level: 1, name: markdown.name })).toBeVisible();
      await expect(v.getByText("text/markdown")).toBeVisible();
      const rendered = v.getByRole("article", { name: `Rendered ${markdown.name}` });
      await expect(rendered.getByRole("heading", { level: 1, name: "Release notes" })).toBeVisible();
      await expect(rendered.locator("strong")).toHaveText("file sharing");
      await expect(rendered.getByRole("listitem")).toHaveText(["drag and drop", "presigned uploads"]);
      // Sanitized: no script survived and nothing ran.
      await expect(rendered.locator("script")).toHaveCount(0);
      expect(await v.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
      expect((await downloadOnPage(v)).equals(markdown.buffer)).toBe(true);
      await saveScreenshot(v, "file-markdown");
      // The broken <img> of the document and its refused onerror handler are the only expected noise.
      visitor.guard.allow(/Failed to load resource.*404|net::ERR/);
      visitor.guard.allow(blockedInlineHandler);
      expect(visitor.guard.unexpected()).toEqual([]);
    } finally {
      await visitor.close();
    }
  });

  test("password, custom link suffix and retry after a taken suffix", async ({
    page,
    request,
    browser,
    consoleGuard,
  }) => {
    consoleGuard.allow(failedResource(409));
    const token = await adminToken(request);
    const taken = await createFileShare(request, token, "placeholder.txt", "x", { slug: unique("taken") });

    await useAdminSession(page, token, "/upload");
    const secret: TestFile = {
      name: unique("secret").concat(".txt"),
      mimeType: "text/plain",
      buffer: Buffer.from("launch code: 0000\nline two\n"),
    };
    await page.locator('input[type="file"]').setInputFiles(secret);
    await expect(page.getByLabel("Link suffix")).toBeEnabled();
    await page.getByLabel("Link suffix").fill(taken.slug);
    await page.getByLabel("Password", { exact: true }).fill("open-sesame");
    await page.getByLabel("Max views").fill("5");
    await page.getByLabel("Expires after").selectOption({ label: "7 days" });
    await page.getByRole("button", { name: "Upload (1)" }).click();

    const item = uploadItem(page, secret.name);
    await expect(item).toHaveAttribute("data-status", "error");
    await expect(item).toContainText("Link suffix already in use, try another suffix.");

    const slug = unique("vault");
    await page.getByLabel("Link suffix").fill(slug);
    await item.getByRole("button", { name: `Retry ${secret.name}` }).click();
    await expect(item).toHaveAttribute("data-status", "success");
    await expect(page.getByText("1 file · 1 uploaded · 0 failed")).toBeVisible();
    expect(await sharePath(page, secret.name)).toBe(`/file/${slug}`);

    const visitor = await visitorPage(browser);
    try {
      const v = visitor.page;
      visitor.guard.allow(failedResource(401));
      await v.goto(`/file/${slug}`);
      await expect(v.getByRole("heading", { name: "This file is protected" })).toBeVisible();
      // Nothing of the file shows before the password: not even its name.
      await expect(v.getByText("Its name, size and content open with the password.")).toBeVisible();
      await expect(v.getByText(secret.name)).toHaveCount(0);
      await expect(v.getByRole("link", { name: "Download" })).toHaveCount(0);

      await v.getByRole("button", { name: "Open file" }).click();
      await expect(v.getByText("Enter the password to open this file.")).toBeVisible();
      await v.getByLabel("Password").fill("wrong");
      await v.getByRole("button", { name: "Open file" }).click();
      await expect(v.getByRole("alert")).toHaveText("Incorrect password.");

      await v.getByLabel("Password").fill("open-sesame");
      await v.getByRole("button", { name: "Open file" }).click();
      await expect(v.getByRole("heading", { level: 1, name: secret.name })).toBeVisible();
      await expect(v.getByRole("region", { name: "Preview" }).locator("pre")).toContainText(
        "launch code: 0000",
      );
      // 5 views, one used by this visit.
      await expect(v.getByText("Views left").locator("..")).toContainText("4");
      expect((await downloadOnPage(v)).equals(secret.buffer)).toBe(true);
      expect(visitor.guard.unexpected()).toEqual([]);
    } finally {
      await visitor.close();
    }
  });

  test("presigned PUT straight to an S3 bucket (Swift), then a visitor downloads it", async ({
    page,
    request,
    browser,
  }) => {
    const s3 = s3Env();
    test.skip(
      s3 === null && !servicesRequired(),
      "S3 test service not configured (source .tmp/services.env)",
    );
    if (!s3) throw new Error("CLIPSHARE_TEST_S3_* is not set; start scripts/test-services/start.sh");

    const token = await adminToken(request);
    const auth = { Authorization: `Bearer ${token}` };
    const name = unique("Swift e2e");
    const configId = (await createS3Config(request, token, unique("e2e-files"), { name, is_public: true }))!
      .id;
    let fileId: string | null = null;
    await useAdminSession(page, token, "/upload");

    try {
      await page.getByLabel("Storage", { exact: true }).selectOption(configId);
      const blob: TestFile = {
        name: unique("archive").concat(".bin"),
        mimeType: "application/octet-stream",
        buffer: randomBytes(300_000),
      };
      await page.locator('input[type="file"]').setInputFiles(blob);
      const storagePut = page.waitForResponse(
        (r) => r.url().startsWith(`${s3.endpoint}/`) && r.request().method() === "PUT",
      );
      await page.getByRole("button", { name: "Upload (1)" }).click();
      expect((await storagePut).status()).toBe(200);
      await expect(uploadItem(page, blob.name)).toHaveAttribute("data-status", "success");
      // Straight to the bucket, not through the server.
      await expect(uploadItem(page, blob.name)).not.toContainText("sent through the server");
      const path = await sharePath(page, blob.name);

      const listed = await request.get("/api/files", { headers: auth, params: { search: blob.name } });
      const row = (await listed.json()).data.files[0];
      expect(row).toMatchObject({ filename: blob.name, size: blob.buffer.length, storage_type: "S3" });
      fileId = row.id;

      const visitor = await visitorPage(browser);
      try {
        await visitor.page.goto(path);
        await expect(visitor.page.getByRole("heading", { level: 1, name: blob.name })).toBeVisible();
        await expect(
          visitor.page.getByText("No preview for this file type. Download it to open it."),
        ).toBeVisible();
        expect((await downloadOnPage(visitor.page)).equals(blob.buffer)).toBe(true);
        expect(visitor.guard.unexpected()).toEqual([]);
      } finally {
        await visitor.close();
      }

      // The admin's storage test of the same bucket passes every check, CORS included.
      await page.goto("/admin/storage-config");
      const card = page.getByRole("listitem", { name });
      await card.getByRole("button", { name: `Test ${name}` }).click();
      const results = page.getByRole("dialog", { name: `Test "${name}"` });
      await expect(results.getByText("All checks passed.")).toBeVisible({ timeout: 30_000 });
      for (const check of ["Write", "Read", "List", "Presigned URLs", "Browser uploads (CORS)"]) {
        await expect(results.getByRole("listitem", { name: check })).toHaveAttribute("data-state", "passed");
      }
      await saveScreenshot(page, "storage-test-s3");
    } finally {
      if (fileId) await request.delete("/api/files/batch-delete", { headers: auth, data: { ids: [fileId] } });
      await request.delete(`/api/s3-configs/${configId}`, { headers: auth });
    }
  });
});

test.describe("file page at 390 px", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("details, preview and download fit the screen, in English and Chinese; used-up, missing and expired pages", async ({
    page,
    request,
    consoleGuard,
  }) => {
    consoleGuard.allow(failedResource(404));
    consoleGuard.allow(failedResource(410));
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    const token = await adminToken(request);
    const longName = `${unique("quarterly-report-with-a-rather-long-descriptive-name")}.json`;
    const share = await createFileShare(
      request,
      token,
      longName,
      JSON.stringify({ revenue: 42, items: ["a", "b"] }, null, 2),
      {
        max_views: 3,
        remark: "Numbers for Q1",
      },
    );

    // A visitor (this context has no session): views 1 of 3.
    await page.goto(`/file/${share.slug}`);
    await expect(page.getByRole("heading", { level: 1, name: longName })).toBeVisible();
    await expect(page.getByText("Numbers for Q1")).toBeVisible();
    // JSON opens as a tree; its text, highlighted, is one click away.
    const preview = page.getByRole("region", { name: "Preview" });
    await expect(preview.getByTestId("data-view")).toContainText("revenue: 42");
    await preview.getByRole("button", { name: "Text" }).click();
    const code = preview.locator("pre");
    await expect(code).toHaveAttribute("data-language", "json");
    await expect(code.locator(".hljs-attr").first()).toHaveText('"revenue"');
    await expect(page.getByText("Views left").locator("..")).toContainText("2");
    await expect(page.getByRole("link", { name: "Download" })).toBeVisible();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await saveScreenshot(page, "mobile-file-en");

    // Chinese, from the menu; the choice persists.
    await page.getByRole("button", { name: "Open menu" }).click();
    await page.getByRole("button", { name: "Switch language to 中文" }).click();
    await expect(page.getByRole("link", { name: "下载" })).toBeVisible();
    await expect(page.getByText("剩余访问次数")).toBeVisible();
    await expect(page.getByRole("button", { name: "复制链接" })).toBeVisible();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await saveScreenshot(page, "mobile-file-zh");

    await page.reload(); // view 2
    await expect(page.getByText("剩余访问次数").locator("..")).toContainText("1");
    await page.reload(); // view 3, the last
    await expect(page.getByText("剩余访问次数").locator("..")).toContainText("0");
    await page.reload();
    await expect(page.getByRole("heading", { level: 1, name: "此分享文件已达到访问次数上限" })).toBeVisible();
    expect(await overflow()).toBeLessThanOrEqual(0);

    await page.goto(`/file/${unique("no-such-share")}`);
    await expect(page.getByRole("heading", { level: 1, name: "未找到分享的文件" })).toBeVisible();

    const old = await createFileShare(request, token, "old.txt", "stale");
    const expire = await request.put(`/api/files/${old.id}`, {
      headers: { Authorization: `Bearer ${token}` },
      data: { expires_at: "2020-01-01T00:00:00.000Z" },
    });
    expect(expire.status()).toBe(200);
    await page.goto(`/file/${old.slug}`);
    await expect(page.getByRole("heading", { level: 1, name: "此分享文件已过期" })).toBeVisible();
    expect(await overflow()).toBeLessThanOrEqual(0);

    // Back to English for the following tests in this context's storage.
    await page.evaluate(() => localStorage.setItem("language", "en"));
    await page.reload();
    await expect(page.getByRole("heading", { level: 1, name: "This shared file has expired" })).toBeVisible();
  });
});
