import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import { Permission } from "@clipshare/shared";
import type { APIRequestContext, Page } from "@playwright/test";
import { adminToken, createApiKey, useAdminSession } from "./support/factories";
import { expect, test } from "./support/fixtures";

/**
 * The URL tab of /upload against a remote HTTP server on loopback that the
 * test server may reach (global setup lists its port in URL_FETCH_ALLOW):
 * a direct browser download, the proxy fallback when the remote server sends
 * no CORS headers, and the "fetch on the server" task.
 */

const MiB = 1024 * 1024;
const remotePort = Number(process.env.E2E_REMOTE_PORT ?? 0);

function content(size: number, seed: number): Buffer {
  const buf = Buffer.alloc(size);
  for (let i = 0; i + 4 <= size; i += 4) buf.writeUInt32BE((Math.imul(i, 2654435761) ^ seed) >>> 0, i);
  return buf;
}

const files: Record<string, { body: Buffer; cors: boolean }> = {
  "/cors/large-remote.bin": { body: content(12 * MiB, 1), cors: true },
  "/plain/small-remote.bin": { body: content(MiB + 123, 2), cors: false },
  "/plain/server-fetched.bin": { body: content(3 * MiB, 3), cors: false },
};
const sha256 = (b: Buffer | Uint8Array) => createHash("sha256").update(b).digest("hex");

let remote: Server;
let token: string;

test.describe.configure({ mode: "serial" });
test.skip(!remotePort, "E2E_REMOTE_PORT is set by the global setup that starts the test server");

test.beforeAll(async ({ request }) => {
  token = await adminToken(request);
  remote = createServer((req, res) => {
    const file = files[(req.url ?? "").split("?")[0]!];
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    const headers: Record<string, string> = {
      "Content-Type": "application/octet-stream",
      "Content-Length": String(file.body.length),
    };
    if (file.cors) headers["Access-Control-Allow-Origin"] = "*";
    res.writeHead(200, headers);
    res.end(req.method === "HEAD" ? undefined : file.body);
  });
  await new Promise<void>((resolve) => remote.listen(remotePort, "127.0.0.1", resolve));
});

test.afterAll(async () => {
  await new Promise((resolve) => remote?.close(resolve));
});

const remoteUrl = (path: string) => `http://127.0.0.1:${remotePort}${path}`;

/** On /upload: the URL tab, checked for this remote path. */
async function openUrlTab(page: Page, path: string) {
  await page.getByRole("tab", { name: "URL upload" }).click();
  await page.getByLabel("File URL").fill(remoteUrl(path));
  await page.getByRole("button", { name: "Check" }).click();
  await expect(page.getByTestId("url-info")).toContainText(path.split("/").pop()!);
}

async function sharedBytes(request: APIRequestContext, page: Page): Promise<Buffer> {
  const href = await page.getByTestId("url-job").getByRole("link").getAttribute("href");
  const slug = decodeURIComponent(href!.split("/file/")[1]!);
  const meta = await request.get(`/api/public/files/${encodeURIComponent(slug)}`);
  expect(meta.status()).toBe(200);
  const { downloadUrl } = (await meta.json()).data as { downloadUrl: string };
  const res = await request.get(downloadUrl);
  expect(res.status()).toBe(200);
  return res.body();
}

test("in the browser: downloads directly (0-49 %), uploads in parts (50-99 %), byte-identical", async ({
  page,
  request,
}) => {
  const path = "/cors/large-remote.bin";
  const proxied: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/api/url/proxy")) proxied.push(r.url());
  });
  const seen = new Set<number>();
  await useAdminSession(page, token, "/upload");
  await openUrlTab(page, path);
  const init = page.waitForRequest((r) => r.url().endsWith("/api/files/multipart/init"));
  await page.getByRole("button", { name: "Upload from URL" }).click();
  const bar = page.getByRole("progressbar", { name: "URL upload progress" });
  await expect
    .poll(
      async () => {
        seen.add(Number(await bar.getAttribute("aria-valuenow")));
        return page.getByTestId("url-job").getAttribute("data-status");
      },
      { timeout: 60_000, intervals: [50] },
    )
    .toBe("done");
  await init;
  expect([...seen].every((p) => p === 100 || (p >= 0 && p <= 99))).toBe(true);
  expect(proxied).toEqual([]);
  expect(sha256(await sharedBytes(request, page))).toBe(sha256(files[path]!.body));
});

test("in the browser: a remote server without CORS is read through the server proxy", async ({
  page,
  request,
  consoleGuard,
}) => {
  consoleGuard.allow(/blocked by CORS policy/);
  consoleGuard.allow(/Failed to load resource: net::ERR_FAILED/);
  const path = "/plain/small-remote.bin";
  await useAdminSession(page, token, "/upload");
  await openUrlTab(page, path);
  const proxied = page.waitForRequest((r) => r.url().includes("/api/url/proxy?url="));
  await page.getByRole("button", { name: "Upload from URL" }).click();
  await proxied;
  await expect(page.getByTestId("url-job")).toHaveAttribute("data-status", "done", { timeout: 60_000 });
  await expect(page.getByTestId("url-job")).toContainText("through the server proxy");
  // The result has Copy and QR code, like a file upload's.
  const result = page.getByTestId("url-result");
  await expect(result.getByRole("button", { name: "Copy link of small-remote.bin" })).toBeVisible();
  await result.getByRole("button", { name: "QR code for small-remote.bin" }).click();
  await expect(page.getByRole("dialog", { name: "QR code" })).toBeVisible();
  await page.keyboard.press("Escape");
  expect(sha256(await sharedBytes(request, page))).toBe(sha256(files[path]!.body));
});

/** Queues "fetch on the server" for this remote path and waits for the finished share. */
async function fetchOnServer(page: Page, request: APIRequestContext, path: string) {
  await openUrlTab(page, path);
  await page.getByLabel("Fetch on the server").check();
  const queued = page.waitForResponse((r) => r.url().endsWith("/api/url/fetch"));
  await page.getByRole("button", { name: "Upload from URL" }).click();
  expect((await queued).status()).toBe(202);
  await expect(page.getByTestId("url-job")).toHaveAttribute("data-status", "done", { timeout: 60_000 });
  expect(sha256(await sharedBytes(request, page))).toBe(sha256(files[path]!.body));
}

test("fetch on the server: a task streams the file into a share", async ({ page, request }) => {
  await useAdminSession(page, token, "/upload");
  await fetchOnServer(page, request, "/plain/server-fetched.bin");
});

test("fetch on the server with an API key that may only share files", async ({ page, request }) => {
  const key = await createApiKey(request, token, {
    name: `url-fetch-${Date.now()}`,
    permissions: Permission.FILE_SHARE,
  });
  await page.goto("/");
  await page.evaluate((k) => localStorage.setItem("api_key", k), key.key);
  await page.goto("/upload");
  await fetchOnServer(page, request, "/plain/server-fetched.bin");
});

test("an address the server may not reach is refused with a clear message", async ({
  page,
  consoleGuard,
}) => {
  consoleGuard.allow(/status of 400/);
  await useAdminSession(page, token, "/upload");
  await page.getByRole("tab", { name: "URL upload" }).click();
  await page.getByLabel("File URL").fill("http://169.254.169.254/latest/meta-data");
  await page.getByRole("button", { name: "Check" }).click();
  await expect(page.getByRole("alert")).toBeVisible();
  await expect(page.getByTestId("url-info")).toHaveCount(0);
});
