import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalStorage, createMount, mustPut } from "../support/fs-helpers";
import { createTestApp, type TestApp } from "../support/test-app";
import { describeThumbnailSuite, testImage } from "./thumbnails-suite";

describeThumbnailSuite("LOCAL", (t) => createLocalStorage(t, "thumbs-disk"));

describe("the thumbnail cache", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ THUMBNAIL_CACHE_SIZE: "24K" });
    await createMount(t, await createLocalStorage(t, "evict-disk"), "/e");
  });
  afterAll(async () => t.close());

  const cached = () =>
    readdirSync(path.join(t.dataDir, "thumbnails"), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith(".webp"))
      .map((e) => e.name);

  it("stays within THUMBNAIL_CACHE_SIZE: the least recently used thumbnails go first", async () => {
    const token = await t.adminToken();
    const etags: string[] = [];
    for (let i = 0; i < 8; i++) {
      const file = `/e/noise-${i}.png`;
      await mustPut(t, file, await testImage(900, 700 + i, "png"), { token });
      const res = await t.app.request(`/api/fs/thumbnail?path=${encodeURIComponent(file)}&size=1024`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      etags.push(res.headers.get("etag")!.replaceAll('"', ""));
    }
    const names = cached();
    expect(names.length).toBeGreaterThan(0);
    expect(names.length).toBeLessThan(8);
    // The newest stays, the oldest went.
    expect(names).toContain(`${etags[7]}.webp`);
    expect(names).not.toContain(`${etags[0]}.webp`);
  });

  it("more requests than the queue holds are told to come back (503, Retry-After), and then served", async () => {
    const token = await t.adminToken();
    const headers = { authorization: `Bearer ${token}` };
    const image = await testImage(2000, 1500, "png");
    const files = Array.from({ length: 75 }, (_, i) => `/e/busy/${i}.png`);
    for (const file of files) await mustPut(t, file, image, { token });
    const url = (file: string) => `/api/fs/thumbnail?path=${encodeURIComponent(file)}`;
    const answers = await Promise.all(files.map((file) => t.app.request(url(file), { headers })));
    const busy = answers.flatMap((res, i) => (res.status === 503 ? [{ res, file: files[i]! }] : []));
    expect(busy.length).toBeGreaterThan(0);
    expect(answers.filter((res) => res.status === 200).length).toBeGreaterThanOrEqual(64);
    expect(busy[0]!.res.headers.get("retry-after")).toBe("2");
    expect(await busy[0]!.res.json()).toMatchObject({ success: false, error: "thumbnail_busy" });
    for (const { file } of busy) expect((await t.app.request(url(file), { headers })).status).toBe(200);
  });
});

describe("thumbnails of photos", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await createMount(t, await createLocalStorage(t, "photo-disk"), "/p");
  });
  afterAll(async () => t.close());

  it("of an iPhone photo (HEIC) are decoded on the server and show the picture", async () => {
    const token = await t.adminToken();
    const { default: sharp } = await import("sharp");
    const work = mkdtempSync(path.join(tmpdir(), "clipshare-heic-"));
    const png = path.join(work, "photo.png");
    // Left half red, right half blue: the thumbnail must show the picture, not just any pixels.
    await sharp({ create: { width: 400, height: 300, channels: 3, background: "#0000ff" } })
      .composite([
        {
          input: { create: { width: 200, height: 300, channels: 3, background: "#ff0000" } },
          left: 0,
          top: 0,
        },
      ])
      .png()
      .toFile(png);
    execFileSync("heif-enc", ["-q", "90", "-o", path.join(work, "photo.heic"), png]);
    await mustPut(t, "/p/photo.heic", readFileSync(path.join(work, "photo.heic")), { token });
    const res = await t.app.request(
      `/api/fs/thumbnail?path=${encodeURIComponent("/p/photo.heic")}&size=256`,
      {
        headers: { authorization: `Bearer ${token}` },
      },
    );
    expect(res.status).toBe(200);
    const image = sharp(Buffer.from(await res.arrayBuffer()));
    expect(await image.metadata()).toMatchObject({ format: "webp", width: 256, height: 192 });
    const { data } = await image.raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => [...data.subarray((y * 256 + x) * 3, (y * 256 + x) * 3 + 3)];
    expect(pixel(40, 96)[0]).toBeGreaterThan(200);
    expect(pixel(216, 96)[2]).toBeGreaterThan(200);
  });

  it("of a HEIC photo at view size (2048) are converted once, then served from the cache, without its metadata", async () => {
    const token = await t.adminToken();
    const { default: sharp } = await import("sharp");
    const work = mkdtempSync(path.join(tmpdir(), "clipshare-heic-view-"));
    const jpg = path.join(work, "big.jpg");
    await sharp({ create: { width: 3000, height: 2000, channels: 3, background: "#22aa44" } })
      .jpeg()
      .withExif({ IFD0: { Make: "ClipCam", Model: "H1" } })
      .toFile(jpg);
    execFileSync("heif-enc", ["-q", "60", "-o", path.join(work, "big.heic"), jpg]);
    expect(readFileSync(path.join(work, "big.heic")).includes("ClipCam")).toBe(true);
    await mustPut(t, "/p/big.heic", readFileSync(path.join(work, "big.heic")), { token });
    const url = `/api/fs/thumbnail?path=${encodeURIComponent("/p/big.heic")}&size=2048`;
    const get = () => t.app.request(url, { headers: { authorization: `Bearer ${token}` } });
    const first = await get();
    expect(first.status).toBe(200);
    const body = Buffer.from(await first.arrayBuffer());
    expect(await sharp(body).metadata()).toMatchObject({ format: "webp", width: 2048, height: 1365 });
    expect(body.includes("ClipCam")).toBe(false);
    // The second answer is the same file from the cache: no second conversion.
    const started = performance.now();
    const second = await get();
    expect(second.status).toBe(200);
    expect(second.headers.get("etag")).toBe(first.headers.get("etag"));
    expect(Buffer.from(await second.arrayBuffer()).equals(body)).toBe(true);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it("carry none of the photo's metadata: no camera, no place", async () => {
    const token = await t.adminToken();
    const { default: sharp } = await import("sharp");
    const photo = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: "#3366aa" } })
      .jpeg()
      .withExif({
        IFD0: { Make: "ClipCam", Model: "Z9" },
        IFD3: {
          GPSLatitudeRef: "N",
          GPSLatitude: "48/1 51/1 24/1",
          GPSLongitudeRef: "E",
          GPSLongitude: "2/1 21/1 3/1",
        },
      })
      .toBuffer();
    expect(photo.includes("ClipCam")).toBe(true);
    await mustPut(t, "/p/paris.jpg", photo, { token });
    const res = await t.app.request(
      `/api/fs/thumbnail?path=${encodeURIComponent("/p/paris.jpg")}&size=1024`,
      {
        headers: { authorization: `Bearer ${token}` },
      },
    );
    expect(res.status).toBe(200);
    const thumbnail = Buffer.from(await res.arrayBuffer());
    expect(thumbnail.subarray(8, 12).toString()).toBe("WEBP");
    expect(thumbnail.includes("EXIF")).toBe(false);
    expect(thumbnail.includes("ClipCam")).toBe(false);
    expect((await sharp(thumbnail).metadata()).exif).toBeUndefined();
  });
});
