import type { Page } from "@playwright/test";
import { adminToken, createFileShare, useAdminSession } from "./support/factories";
import { expect, failedResource, test, unique } from "./support/fixtures";
import type { TestFile } from "./support/test-files";

function uploadItem(page: Page, name: string) {
  return page.getByRole("list", { name: "Files to upload" }).getByRole("listitem", { name });
}

async function sharedBytes(page: Page, name: string): Promise<Buffer> {
  const href = await uploadItem(page, name).getByRole("link").first().getAttribute("href");
  const slug = href!.replace("/file/", "");
  const meta = await page.request.get(`/api/public/files/${slug}`);
  expect(meta.status()).toBe(200);
  const download = await page.request.get((await meta.json()).data.downloadUrl);
  return Buffer.from(await download.body());
}

test.describe("upload control", () => {
  test("progress and speed while uploading, cancel (the reserved record is deleted), retry, remove", async ({
    page,
    request,
  }) => {
    const token = await adminToken(request);
    await useAdminSession(page, token, "/upload");
    await expect(page.getByRole("heading", { level: 1, name: "Upload files" })).toBeVisible();

    // A slow uplink: 3 MB at 256 KB/s takes about 12 s.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 256 * 1024,
    });

    const big: TestFile = {
      name: unique("slow").concat(".bin"),
      mimeType: "application/octet-stream",
      buffer: Buffer.alloc(3 * 1024 * 1024, 7),
    };
    await page.locator('input[type="file"]').setInputFiles(big);
    const discard = page.waitForRequest(
      (r) => r.method() === "DELETE" && r.url().endsWith("/api/files/batch-delete"),
    );
    await page.getByRole("button", { name: "Upload (1)" }).click();

    const item = uploadItem(page, big.name);
    await expect(item).toHaveAttribute("data-status", "uploading");
    const bar = item.getByRole("progressbar", { name: `Upload progress of ${big.name}` });
    await expect
      .poll(async () => Number(await bar.getAttribute("aria-valuenow")), { timeout: 15_000 })
      .toBeGreaterThan(5);
    // Percent, speed and time left are shown while it runs.
    await expect(item).toContainText(/\d+% · [\d.]+ (KB|MB)\/s · .+ left/);

    await item.getByRole("button", { name: `Cancel upload of ${big.name}` }).click();
    await expect(item).toHaveAttribute("data-status", "error");
    await expect(item).toContainText("Upload cancelled.");
    // Stopped by the user, not failed: the status says so, in no alarm colour.
    await expect(item).toContainText("Cancelled");
    await expect(item).not.toContainText("Failed");
    const body = (await discard).postDataJSON() as { ids: string[] };
    expect(body.ids).toHaveLength(1);

    // Full speed again: retry succeeds and the bytes arrive intact.
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await item.getByRole("button", { name: `Retry ${big.name}` }).click();
    await expect(item).toHaveAttribute("data-status", "success", { timeout: 20_000 });
    expect((await sharedBytes(page, big.name)).equals(big.buffer)).toBe(true);

    await item.getByRole("button", { name: `Remove ${big.name}` }).click();
    await expect(item).toHaveCount(0);
  });

  test("storage the browser cannot reach: the upload goes through the server instead", async ({
    page,
    request,
    consoleGuard,
  }) => {
    // The browser's log line for the PUT this test makes fail.
    consoleGuard.allow(/Failed to load resource: net::ERR_FAILED .*\/api\/uploads\//);
    const token = await adminToken(request);
    await useAdminSession(page, token, "/upload");
    // The direct PUT fails without an answer, as a bucket without a CORS rule does.
    await page.route("**/api/uploads/**", (route) => route.abort("failed"));
    const viaServer = page.waitForRequest((r) => r.method() === "POST" && r.url().endsWith("/api/upload"));

    const file: TestFile = {
      name: unique("fallback").concat(".txt"),
      mimeType: "text/plain",
      buffer: Buffer.from("through the server\n"),
    };
    await page.locator('input[type="file"]').setInputFiles(file);
    await page.getByLabel("Remark").fill("fell back");
    await page.getByRole("button", { name: "Upload (1)" }).click();
    const item = uploadItem(page, file.name);
    await expect(item).toHaveAttribute("data-status", "success");
    await expect(item).toContainText("sent through the server");
    // The form carries the options before the file.
    const form = (await viaServer).postData() ?? "";
    expect(form.indexOf('name="remark"')).toBeGreaterThan(-1);
    expect(form.indexOf('name="remark"')).toBeLessThan(form.indexOf('name="file"'));
    expect((await sharedBytes(page, file.name)).equals(file.buffer)).toBe(true);
    // Exactly one share: the reserved record of the failed direct upload was deleted.
    const listed = await request.get("/api/files", {
      headers: { Authorization: `Bearer ${token}` },
      params: { search: file.name },
    });
    expect((await listed.json()).data.pagination.total).toBe(1);
  });

  test("files pasted from the clipboard; a file over the size limit is refused, then retried once the limit is raised", async ({
    page,
    request,
    consoleGuard,
  }) => {
    consoleGuard.allow(failedResource(413));
    const token = await adminToken(request);
    const auth = { Authorization: `Bearer ${token}` };
    const before = (await (await request.get("/api/admin/system-settings", { headers: auth })).json()).data;
    const setting = (key: string) =>
      (before as { key: string; value: string }[]).find((s) => s.key === key)?.value;
    const put = (size: string, unit: string) =>
      request.put("/api/admin/system-settings", {
        headers: auth,
        data: { max_upload_size: Number(size), max_upload_size_unit: unit },
      });
    await useAdminSession(page, token, "/");
    expect((await put("1", "KB")).status()).toBe(200);
    try {
      await page.goto("/upload");
      await expect(page.getByText("Maximum file size: 1 KB")).toBeVisible();
      const name = unique("pasted").concat(".txt");
      await page.evaluate(
        ({ fileName }) => {
          const dt = new DataTransfer();
          dt.items.add(new File(["small"], fileName, { type: "text/plain" }));
          dt.items.add(new File([new Uint8Array(4096)], "image.png", { type: "image/png" }));
          document.body.dispatchEvent(new ClipboardEvent("paste", { clipboardData: dt, bubbles: true }));
        },
        { fileName: name },
      );
      await expect(page.getByText("Added 2 files from the clipboard.")).toBeVisible();
      await expect(uploadItem(page, name)).toHaveAttribute("data-status", "pending");
      // The screenshot-like name is replaced by a time-stamped one; it is over the limit.
      const pastedImage = page
        .getByRole("list", { name: "Files to upload" })
        .getByRole("listitem", { name: /^clipboard-\d{8}-\d{6}\.png$/ });
      await expect(pastedImage).toHaveAttribute("data-status", "error");
      // Says where the limit is set, and the item stays for a retry once it is raised.
      await expect(pastedImage).toContainText(
        "The file is larger than the maximum upload size (1 KB). An administrator sets it in Settings → Uploads; retry once it is raised.",
      );

      await page.getByRole("button", { name: "Upload (1)" }).click();
      await expect(uploadItem(page, name)).toHaveAttribute("data-status", "success");

      expect((await put("1", "MB")).status()).toBe(200);
      await pastedImage.getByRole("button", { name: /^Retry/ }).click();
      await expect(pastedImage).toHaveAttribute("data-status", "success");
    } finally {
      await put(setting("max_upload_size") ?? "100", setting("max_upload_size_unit") ?? "MB");
    }
  });

  test("Office files open in the viewer the visitor picks; PDFs in a frame", async ({ page, request }) => {
    const token = await adminToken(request);
    const docx = await createFileShare(
      request,
      token,
      "plan.docx",
      Buffer.from("PK\u0003\u0004 not really a docx"),
      {
        mimetype: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      },
    );
    const pdf = await createFileShare(request, token, "paper.pdf", Buffer.from("%PDF-1.4\n%%EOF\n"), {
      mimetype: "application/pdf",
    });
    // The viewers are online services: answer them here, so nothing leaves this machine.
    const viewerRequests: string[] = [];
    await page.context().route(/^https:\/\/(view\.officeapps\.live\.com|docs\.google\.com)\//, (route) => {
      viewerRequests.push(route.request().url());
      return route.fulfill({
        contentType: "text/html",
        body: "<!doctype html><title>viewer</title><p>viewer</p>",
      });
    });

    await page.goto(`/file/${docx.slug}`);
    await expect(page.getByRole("heading", { level: 1, name: "plan.docx" })).toBeVisible();
    const chooser = page.getByRole("group", { name: "Office viewer" });
    await chooser.getByRole("button", { name: "Microsoft Office" }).click();
    const frame = page.getByTitle("Office preview of plan.docx");
    await expect(frame).toHaveAttribute(
      "src",
      /^https:\/\/view\.officeapps\.live\.com\/op\/view\.aspx\?src=/,
    );
    await chooser.getByRole("button", { name: "Google Docs" }).click();
    await expect(frame).toHaveAttribute("src", /^https:\/\/docs\.google\.com\/viewer\?url=.+&embedded=true$/);
    await expect.poll(() => viewerRequests.length).toBeGreaterThanOrEqual(2);
    // The viewers get a URL they can fetch the document from.
    const src = decodeURIComponent(new URL(viewerRequests.at(-1)!).searchParams.get("url")!);
    expect(src).toMatch(/\/api\/file-view\/.+\?token=/);

    await page.goto(`/file/${pdf.slug}`);
    const pdfFrame = page.getByTitle("PDF preview of paper.pdf");
    await expect(pdfFrame).toHaveAttribute("src", new RegExp(`/api/file-view/${pdf.slug}\\?token=`));
  });
});
