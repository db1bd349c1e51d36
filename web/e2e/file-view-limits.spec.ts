import type { APIRequestContext, Browser, Locator, Page } from "@playwright/test";
import { adminToken, createFileShare } from "./support/factories";
import { expect, test } from "./support/fixtures";

/** A silent 16-bit stereo WAV: big enough that the browser fetches it in ranges and seeks by range. */
function wav(seconds: number): Buffer {
  const rate = 44_100;
  const bytes = seconds * rate * 4;
  const header = Buffer.alloc(44);
  header.write("RIFF", 0);
  header.writeUInt32LE(36 + bytes, 4);
  header.write("WAVEfmt ", 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(2, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 4, 28);
  header.writeUInt16LE(4, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36);
  header.writeUInt32LE(bytes, 40);
  return Buffer.concat([header, Buffer.alloc(bytes)]);
}

/**
 * Plays a view-limited, tokenless media link the way `open` does, seeks near the end (bytes the
 * browser has not fetched yet: a range from the middle), and checks that all of it used one view.
 */
async function playAndSeek(
  browser: Browser,
  request: APIRequestContext,
  open: (page: Page, url: string) => Promise<Locator>,
) {
  const token = await adminToken(request);
  const share = await createFileShare(request, token, "tone.wav", wav(60), {
    max_views: 1,
    mimetype: "audio/wav",
  });
  const url = `/api/file-view/${share.slug}`;

  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const page = await context.newPage();
  const seen: Array<{ range: string | null; status: number }> = [];
  page.on("response", (res) => {
    if (new URL(res.url()).pathname === url)
      seen.push({ range: res.request().headers().range ?? null, status: res.status() });
  });
  const media = await open(page, url);
  const loaded = () => media.evaluate((el: HTMLMediaElement) => el.readyState);
  await expect.poll(loaded, { timeout: 15_000 }).toBeGreaterThan(0);
  // Synchronous: a page opened directly is sandboxed without scripts, so no callback would run.
  await media.evaluate((el: HTMLMediaElement) => {
    el.currentTime = el.duration - 2;
  });
  const rangedFromTheMiddle = () => seen.some((r) => r.range !== null && !r.range.startsWith("bytes=0-"));
  await expect.poll(rangedFromTheMiddle, { timeout: 15_000 }).toBe(true);
  expect(seen.length).toBeGreaterThan(1);
  expect(seen.filter((r) => r.status !== 200 && r.status !== 206)).toEqual([]);

  const file = await request.get(`/api/files/${share.id}`, { headers: { Authorization: `Bearer ${token}` } });
  expect((await file.json()).data.views).toBe(1);
  await context.close();

  // Someone else opening the same link has no view left.
  const other = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  expect((await other.request.get(url)).status()).toBe(410);
  await other.close();
}

test.describe("view limits in a real browser", () => {
  test("a media link opened directly plays, and its range requests and seeking use one view", async ({
    browser,
    request,
  }) => {
    await playAndSeek(browser, request, async (page, url) => {
      await page.goto(url);
      return page.locator("video, audio").first();
    });
  });

  test("a player on a page of the same site uses one view for all its range requests", async ({
    browser,
    request,
  }) => {
    // A 0.7.3 file page or a player opened from the app fetches the tokenless link; the first
    // response's cookie carries the rest of its requests.
    await playAndSeek(browser, request, async (page, url) => {
      await page.goto("/");
      await page.evaluate((src) => {
        const audio = document.createElement("audio");
        audio.preload = "auto";
        audio.src = src;
        document.body.append(audio);
      }, url);
      return page.locator("audio").first();
    });
  });
});
