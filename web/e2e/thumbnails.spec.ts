import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { entry } from "./support/explorer";
import { pngImage } from "./support/explorer-images";
import { adminToken, createLocalMount, putFile, useAdminSession } from "./support/factories";
import { expect, test } from "./support/fixtures";

/** The explorer's grid and gallery show server-made thumbnails; the file share page a video's poster. */
test.describe.configure({ mode: "serial" });

let token: string;
const run = Date.now().toString(36);

function hasFfmpeg(): boolean {
  try {
    execFileSync("ffmpeg", ["-version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** A one-second test-pattern video. */
function testVideo(): Buffer {
  const dir = mkdtempSync(join(tmpdir(), "clipshare-e2e-video-"));
  try {
    const file = join(dir, "clip.mp4");
    execFileSync("ffmpeg", [
      ...["-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=10:duration=1"],
      ...["-pix_fmt", "yuv420p", file],
    ]);
    return readFileSync(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test.beforeAll(async ({ request }) => {
  token = await adminToken(request);
  await createLocalMount(request, token, "/thumbs", { name: "Thumbs", storageName: `thumbs-${run}` });
  await putFile(request, token, "/thumbs/wide.png", pngImage(600, 200, 10));
  await putFile(request, token, "/thumbs/tall.png", pngImage(120, 480, 200));
  await putFile(request, token, "/thumbs/notes.txt", "no picture here");
  if (hasFfmpeg()) await putFile(request, token, "/thumbs/clip.mp4", testVideo());
});

/** The thumbnail <img> of an entry, once the browser has decoded it. */
async function expectThumbnail(page: Page, name: string, width: number) {
  const img = entry(page, name).locator(`img[data-thumbnail="${name}"]`);
  await expect(img).toBeVisible();
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(width);
}

test("the grid and the gallery show thumbnails; other files keep their icon", async ({ page }) => {
  const thumbnailRequests: string[] = [];
  page.on("response", (res) => {
    if (res.url().includes("/api/fs/thumbnail")) thumbnailRequests.push(`${res.status()} ${res.url()}`);
  });
  await useAdminSession(page, token, "/mount-explorer/thumbs");
  await page.getByRole("button", { name: "Grid view" }).click();
  await expect(page.locator('[role="grid"][data-view="grid"]')).toBeVisible();
  await expectThumbnail(page, "wide.png", 256);
  await expectThumbnail(page, "tall.png", 64);
  if (hasFfmpeg()) await expectThumbnail(page, "clip.mp4", 256);
  await expect(entry(page, "notes.txt").locator("img")).toHaveCount(0);
  await expect(entry(page, "notes.txt").locator("svg")).toBeVisible();

  await page.getByRole("button", { name: "Gallery view" }).click();
  await expect(page.locator('[role="grid"][data-view="gallery"]')).toBeVisible();
  await expectThumbnail(page, "wide.png", 256);
  await expectThumbnail(page, "tall.png", 64);
  // Thumbnails, not the full images: every image was fetched from the thumbnail route, successfully.
  expect(thumbnailRequests.length).toBeGreaterThanOrEqual(2);
  for (const r of thumbnailRequests) expect(r).toMatch(/^200 .*size=256&v=/);
});

test("a shared video's page shows a poster frame", async ({ page, request }) => {
  // Under `npm test` (CLIPSHARE_REQUIRE_SERVICES=1) a missing ffmpeg fails instead of skipping.
  test.skip(
    !hasFfmpeg() && process.env.CLIPSHARE_REQUIRE_SERVICES !== "1",
    "ffmpeg is not installed (scripts/install-system-deps.sh)",
  );
  const res = await request.put(`/api/upload-direct/poster.mp4`, {
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/octet-stream" },
    data: testVideo(),
  });
  expect(res.status(), await res.text()).toBe(201);
  const slug = (await res.json()).data.slug as string;
  const poster = page.waitForResponse((r) => r.url().includes(`/api/file-thumbnail/${slug}`));
  await page.goto(`/file/${slug}`);
  const video = page.locator("video");
  await expect(video).toHaveAttribute("poster", new RegExp(`/api/file-thumbnail/${slug}\\?size=1024`));
  const answer = await poster;
  expect(answer.status()).toBe(200);
  expect(answer.headers()["content-type"]).toBe("image/webp");
});

test("a large shared image opens as its thumbnail, with a button for the original", async ({
  page,
  request,
}) => {
  const width = 1400;
  const png = pngImage(width, 1100, 60, 0);
  expect(png.length).toBeGreaterThan(4 * 1024 * 1024);
  const res = await request.put(`/api/upload-direct/photo.png`, {
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/octet-stream" },
    data: png,
  });
  expect(res.status(), await res.text()).toBe(201);
  const slug = (await res.json()).data.slug as string;

  await page.goto(`/file/${slug}`);
  const img = page.getByRole("img", { name: /photo\.png/ });
  await expect(img).toHaveAttribute("src", new RegExp(`/api/file-thumbnail/${slug}\\?size=1024`));
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(1024);
  await page.getByRole("button", { name: /Show the original/ }).click();
  await expect(img).toHaveAttribute("src", new RegExp(`/api/file-view/${slug}`));
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(width);
  await expect(page.getByRole("button", { name: /Show the original/ })).toHaveCount(0);
});
