/**
 * Thumbnails against one storage backend: thumbnails.test.ts runs it on LOCAL
 * (and on PostgreSQL with CLIPSHARE_TEST_DB=postgres), thumbnails-s3.test.ts on
 * the Swift S3 server. Explorer files and file shares, caching, a changed file,
 * access rules, and refusals.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { crc32 } from "node:zlib";
import { Permission } from "@clipshare/shared";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Auth, mountStorageAtM, mustPut, type StorageUnderTest } from "../support/fs-helpers";
import type { TestApp } from "../support/test-app";

const METRICS_TOKEN = "thumbnail-metrics-token-0123456789";

/** A photo-like image of the given size (a gradient, so the encoder has real work). */
export async function testImage(width: number, height: number, format: "jpeg" | "png"): Promise<Buffer> {
  const channels = 3;
  const raw = Buffer.alloc(width * height * channels);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * channels;
      raw[i] = (x * 255) / width;
      raw[i + 1] = (y * 255) / height;
      raw[i + 2] = 128;
    }
  const image = sharp(raw, { raw: { width, height, channels } });
  return format === "jpeg" ? image.jpeg().toBuffer() : image.png().toBuffer();
}

/**
 * A decompression bomb: a tiny PNG whose header claims `side` × `side` grey pixels
 * (2.5 gigapixels by default). Its pixel data is one byte; a decoder would ask for the rest.
 */
export async function bombPng(side = 50_000): Promise<Buffer> {
  const png = await sharp({ create: { width: 1, height: 1, channels: 3, background: "#888" } })
    .greyscale()
    .png()
    .toBuffer();
  // IHDR follows the 8-byte signature: length (4), "IHDR" (4), width, height, …, then its CRC at 29.
  png.writeUInt32BE(side, 16);
  png.writeUInt32BE(side, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}

export const ffmpegInstalled = spawnSync("ffmpeg", ["-version"], { stdio: "ignore" }).status === 0;

/** A two-second test-pattern video made by ffmpeg. */
export function testVideo(): Buffer {
  const dir = mkdtempSync(path.join(os.tmpdir(), "clipshare-video-"));
  try {
    const file = path.join(dir, "clip.mp4");
    const made = spawnSync(
      "ffmpeg",
      [
        "-loglevel",
        "error",
        "-f",
        "lavfi",
        "-i",
        "testsrc=size=640x360:rate=10:duration=2",
        "-pix_fmt",
        "yuv420p",
        file,
      ],
      { stdio: "ignore" },
    );
    if (made.status !== 0) throw new Error("ffmpeg could not make the test video");
    return readFileSync(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function metricValue(t: TestApp, result: string): Promise<number> {
  const res = await t.request("GET", "/metrics", { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(res.status).toBe(200);
  const line = res.text
    .split("\n")
    .find((l) => l.startsWith(`clipshare_thumbnails_total{result="${result}"}`));
  return Number(line?.split(" ").pop() ?? Number.NaN);
}

async function thumbnail(t: TestApp, url: string, auth: Auth = {}, headers: Record<string, string> = {}) {
  const res = await t.app.request(url, {
    headers: {
      ...headers,
      ...(auth.token ? { authorization: `Bearer ${auth.token}` } : {}),
      ...(auth.apiKey ? { authorization: `ApiKey ${auth.apiKey}` } : {}),
    },
  });
  const body = Buffer.from(await res.arrayBuffer());
  return { res, body };
}

async function dimensions(webp: Buffer) {
  const meta = await sharp(webp).metadata();
  return { format: meta.format, width: meta.width, height: meta.height };
}

export function describeThumbnailSuite(
  label: string,
  makeStorage: (t: TestApp) => Promise<StorageUnderTest>,
) {
  describe(`thumbnails on ${label}`, () => {
    let t: TestApp;
    let storage: StorageUnderTest;
    let admin: Auth;
    let n = 0;
    const dir = () => `/m/case-${++n}`;
    const fsUrl = (file: string, query = "") => `/api/fs/thumbnail?path=${encodeURIComponent(file)}${query}`;
    const share = async (name: string, body: Buffer, query = "") => {
      const res = await t.request(
        "PUT",
        `/api/upload-direct/${encodeURIComponent(name)}?s3_config_id=${storage.configId}${query}`,
        {
          ...admin,
          rawBody: new Uint8Array(body),
          headers: { "content-type": "application/octet-stream" },
        },
      );
      expect(res.status, res.text).toBe(201);
      return res.body.data.slug as string;
    };

    mountStorageAtM(
      makeStorage,
      (setup) => {
        ({ t, admin, storage } = setup);
      },
      { METRICS_TOKEN },
    );

    it("makes a WebP that fits the asked box, once: later requests are served from the cache", async () => {
      const file = `${dir()}/photo.jpg`;
      await mustPut(t, file, await testImage(800, 600, "jpeg"), admin);
      const generated = await metricValue(t, "generated");
      const hits = await metricValue(t, "hit");

      const first = await thumbnail(t, fsUrl(file), admin);
      expect(first.res.status, first.body.toString()).toBe(200);
      expect(first.res.headers.get("content-type")).toBe("image/webp");
      expect(await dimensions(first.body)).toEqual({ format: "webp", width: 256, height: 192 });
      const etag = first.res.headers.get("etag");
      expect(etag).toMatch(/^"[\w-]+"$/);

      const big = await thumbnail(t, fsUrl(file, "&size=1024"), admin);
      expect(await dimensions(big.body)).toEqual({ format: "webp", width: 800, height: 600 });

      const again = await thumbnail(t, fsUrl(file), admin);
      expect(again.res.headers.get("etag")).toBe(etag);
      expect(again.body.equals(first.body)).toBe(true);
      const revalidated = await thumbnail(t, fsUrl(file), admin, { "if-none-match": etag! });
      expect(revalidated.res.status).toBe(304);
      expect(await metricValue(t, "generated")).toBe(generated + 2);
      expect(await metricValue(t, "hit")).toBe(hits + 1);

      // A URL carrying the file's version may be cached for long; one without is revalidated.
      expect(first.res.headers.get("cache-control")).toBe("private, no-cache");
      const versioned = await thumbnail(t, fsUrl(file, "&v=123"), admin);
      expect(versioned.res.headers.get("cache-control")).toMatch(/max-age=31536000/);
    });

    it("requests arriving together for a new thumbnail share one generation", async () => {
      const file = `${dir()}/together.png`;
      await mustPut(t, file, await testImage(640, 640, "png"), admin);
      const generated = await metricValue(t, "generated");
      const answers = await Promise.all(Array.from({ length: 5 }, () => thumbnail(t, fsUrl(file), admin)));
      for (const a of answers) expect(a.res.status).toBe(200);
      expect(new Set(answers.map((a) => a.body.toString("base64"))).size).toBe(1);
      expect(await metricValue(t, "generated")).toBe(generated + 1);
    });

    it("a changed file gets a new thumbnail", async () => {
      const file = `${dir()}/changes.png`;
      await mustPut(t, file, await testImage(600, 300, "png"), admin);
      const before = await thumbnail(t, fsUrl(file), admin);
      expect(await dimensions(before.body)).toMatchObject({ width: 256, height: 128 });
      await mustPut(t, file, await testImage(300, 600, "png"), admin);
      const after = await thumbnail(t, fsUrl(file), admin, {
        "if-none-match": before.res.headers.get("etag")!,
      });
      expect(after.res.status).toBe(200);
      expect(after.res.headers.get("etag")).not.toBe(before.res.headers.get("etag"));
      expect(await dimensions(after.body)).toMatchObject({ width: 128, height: 256 });
    });

    it("needs the view permission and stays inside the key's base path", async () => {
      const base = dir();
      await mustPut(t, `${base}/in/a.png`, await testImage(64, 64, "png"), admin);
      await mustPut(t, `${base}/out/b.png`, await testImage(64, 64, "png"), admin);
      const viewer = await t.createApiKey(Permission.MOUNT_VIEW, { basic_path: `${base}/in` });
      const noView = await t.createApiKey(Permission.TEXT);

      expect((await thumbnail(t, fsUrl(`${base}/in/a.png`), { apiKey: viewer.key })).res.status).toBe(200);
      const outside = await thumbnail(t, fsUrl(`${base}/out/b.png`), { apiKey: viewer.key });
      expect(outside.res.status).toBe(403);
      const denied = await thumbnail(t, fsUrl(`${base}/in/a.png`), { apiKey: noView.key });
      expect(denied.res.status).toBe(403);
      const anonymous = await thumbnail(t, fsUrl(`${base}/in/a.png`));
      expect(anonymous.res.status).toBe(401);
      expect(JSON.parse(anonymous.body.toString())).toMatchObject({ success: false });
    });

    it("refuses what is not an image, and a bad size, with a JSON error", async () => {
      const file = `${dir()}/notes.txt`;
      await mustPut(t, file, "just words", admin);
      const text = await thumbnail(t, fsUrl(file), admin);
      expect(text.res.status).toBe(415);
      expect(JSON.parse(text.body.toString())).toMatchObject({
        success: false,
        error: "thumbnail_unsupported",
      });
      const fake = `${dir()}/fake.png`;
      await mustPut(t, fake, "not a png at all", admin);
      expect((await thumbnail(t, fsUrl(fake), admin)).res.status).toBe(415);
      const size = await thumbnail(t, fsUrl(file, "&size=77"), admin);
      expect(size.res.status).toBe(400);
      expect(JSON.parse(size.body.toString()).message).toMatch(/size must be 256, 1024 or 2048/);
    });

    it("refuses a 50,000 × 50,000 PNG at once, without decoding it", async () => {
      const file = `${dir()}/bomb.png`;
      const bomb = await bombPng();
      expect(bomb.length).toBeLessThan(1000);
      await mustPut(t, file, bomb, admin);
      const rssBefore = process.memoryUsage().rss;
      const started = performance.now();
      const res = await thumbnail(t, fsUrl(file), admin);
      const elapsed = performance.now() - started;
      expect(res.res.status).toBe(422);
      expect(JSON.parse(res.body.toString())).toMatchObject({ success: false, error: "image_too_large" });
      expect(elapsed).toBeLessThan(1000);
      expect(process.memoryUsage().rss - rssBefore).toBeLessThan(64 * 1024 * 1024);
    });

    it.runIf(ffmpegInstalled)("a video's thumbnail is one of its frames", async () => {
      const file = `${dir()}/clip.mp4`;
      await mustPut(t, file, testVideo(), admin);
      const res = await thumbnail(t, fsUrl(file), admin);
      expect(res.res.status, res.body.toString()).toBe(200);
      expect(await dimensions(res.body)).toEqual({ format: "webp", width: 256, height: 144 });
      const pixels = await sharp(res.body).stats();
      expect(pixels.channels[0]!.max).toBeGreaterThan(100); // a test pattern, not a black frame
    });

    describe("what a thumbnail may read: only the file's own pixels", () => {
      let listener: net.Server;
      let connections = 0;
      let probeUrl = "";
      let secretFile = "";
      let secretDir = "";
      beforeAll(async () => {
        listener = net.createServer((socket) => {
          connections++;
          socket.destroy();
        });
        await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
        probeUrl = `http://127.0.0.1:${(listener.address() as net.AddressInfo).port}`;
        secretDir = mkdtempSync(path.join(os.tmpdir(), "clipshare-secret-"));
        secretFile = path.join(secretDir, "secret.txt");
        writeFileSync(secretFile, "TOP SECRET");
      });
      afterAll(async () => {
        await new Promise((resolve) => listener.close(resolve));
        rmSync(secretDir, { recursive: true, force: true });
      });

      const svg = (inner: string, prolog = "") =>
        `<?xml version="1.0"?>${prolog}<svg xmlns="http://www.w3.org/2000/svg" xmlns:xi="http://www.w3.org/2001/XInclude" xmlns:xlink="http://www.w3.org/1999/xlink" width="400" height="100">${inner}</svg>`;
      const corpus = (): Array<[string, string, string | Buffer]> => [
        [
          "an SVG including a file as text",
          "xinclude.png",
          svg(`<text y="50"><xi:include href="${secretFile}" parse="text"/></text>`),
        ],
        [
          "an SVG with an external entity",
          "entity.png",
          svg(
            '<text y="50">&secret;</text>',
            `<!DOCTYPE svg [<!ENTITY secret SYSTEM "file://${secretFile}">]>`,
          ),
        ],
        [
          "an SVG drawing a remote image",
          "remote.jpg",
          svg(
            `<image width="10" height="10" href="${probeUrl}/pixel.png" xlink:href="${probeUrl}/pixel.png"/>`,
          ),
        ],
        [
          "a GIF header in front of an SVG",
          "polyglot.gif",
          `GIF89a${svg(`<image href="${probeUrl}/gif.png"/>`)}`,
        ],
        ["an SVG with its real name", "plain.svg", svg('<rect width="10" height="10"/>')],
      ];

      it("refuses SVG and documents in any disguise (415), reads no other file and opens no connection", async () => {
        for (const [what, name, body] of corpus()) {
          const file = `${dir()}/${name}`;
          await mustPut(t, file, body, admin);
          const res = await thumbnail(t, fsUrl(file), admin);
          expect(res.res.status, what).toBe(415);
          const slug = await share(name, Buffer.from(body));
          expect((await thumbnail(t, `/api/file-thumbnail/${slug}`)).res.status, `${what} (share)`).toBe(415);
        }
        expect(connections).toBe(0);
      });

      it.skipIf(!ffmpegInstalled)(
        "refuses a playlist or a concat script named .mp4, and ffmpeg connects nowhere",
        async () => {
          const playlists: Array<[string, string]> = [
            [
              "hls.mp4",
              `#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\n${probeUrl}/segment0.ts\n#EXT-X-ENDLIST\n`,
            ],
            ["concat.mp4", `ffconcat version 1.0\nfile '${probeUrl}/part.mp4'\nfile '${secretFile}'\n`],
          ];
          for (const [name, body] of playlists) {
            const file = `${dir()}/${name}`;
            await mustPut(t, file, body, admin);
            expect((await thumbnail(t, fsUrl(file), admin)).res.status, name).toBe(415);
            const slug = await share(name, Buffer.from(body));
            expect((await thumbnail(t, `/api/file-thumbnail/${slug}`)).res.status, `${name} (share)`).toBe(
              415,
            );
          }
          expect(connections).toBe(0);
        },
      );

      it("renders every raster format it accepts: GIF, WebP, TIFF and AVIF", async () => {
        const source = await testImage(64, 48, "png");
        for (const format of ["gif", "webp", "tiff", "avif"] as const) {
          const file = `${dir()}/picture.${format}`;
          await mustPut(t, file, await sharp(source).toFormat(format).toBuffer(), admin);
          const res = await thumbnail(t, fsUrl(file), admin);
          expect(res.res.status, format).toBe(200);
          expect(await dimensions(res.body)).toEqual({ format: "webp", width: 64, height: 48 });
        }
      });
    });

    describe("of file shares", () => {
      const views = async (slug: string) =>
        Number(
          (
            await t.ctx.db
              .selectFrom("files")
              .select("views")
              .where("slug", "=", slug)
              .executeTakeFirstOrThrow()
          ).views,
        );

      it("a visitor sees the thumbnail without using a view", async () => {
        const slug = await share("shared.jpg", await testImage(400, 200, "jpeg"), "&max_views=1");
        for (let i = 0; i < 3; i++) {
          const res = await thumbnail(t, `/api/file-thumbnail/${slug}?size=1024`);
          expect(res.res.status).toBe(200);
          expect(await dimensions(res.body)).toEqual({ format: "webp", width: 400, height: 200 });
        }
        expect(await views(slug)).toBe(0);
        // The one view is still there for the file itself.
        expect((await t.app.request(`/api/file-view/${slug}`)).status).toBe(200);
        expect(await views(slug)).toBe(1);
        expect((await thumbnail(t, `/api/file-thumbnail/${slug}`)).res.status).toBe(410);
      });

      it("a password-protected share needs its password or an access token", async () => {
        const slug = await share("secret.png", await testImage(100, 100, "png"), "&password=open-sesame");
        const none = await thumbnail(t, `/api/file-thumbnail/${slug}`);
        expect(none.res.status).toBe(401);
        expect(JSON.parse(none.body.toString())).toMatchObject({ error: "password_required" });
        const wrong = await thumbnail(t, `/api/file-thumbnail/${slug}?password=nope`);
        expect(wrong.res.status).toBe(403);
        expect((await thumbnail(t, `/api/file-thumbnail/${slug}?password=open-sesame`)).res.status).toBe(200);
        const unlocked = await t.request("POST", `/api/public/files/${slug}/verify`, {
          body: { password: "open-sesame" },
        });
        const token = new URL(unlocked.body.data.previewUrl, "http://x").searchParams.get("token");
        expect(token).toBeTruthy();
        expect((await thumbnail(t, `/api/file-thumbnail/${slug}?token=${token}`)).res.status).toBe(200);
      });
    });
  });
}
