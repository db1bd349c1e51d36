/**
 * File shares uploaded in parts (/files/multipart/*) and the explorer's
 * multipart resume, against one storage backend: files-multipart.test.ts runs
 * it on LOCAL (signed part URLs to ClipShare), files-multipart-s3.test.ts on the
 * Swift S3 server (presigned UploadPart URLs).
 */
import { createHash, randomBytes } from "node:crypto";
import { readdirSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mountStorageAtM, readBytes, type StorageUnderTest, waitForTask } from "../support/fs-helpers";
import { listen } from "../support/remote-files";
import type { TestApp } from "../support/test-app";

const MiB = 1024 * 1024;
const PART = 5 * MiB;

/** PUT to a part URL: our own signed URLs in-process, storage URLs over loopback. */
export async function putPart(t: TestApp, url: string, body: Buffer) {
  const u = new URL(url);
  if (u.pathname.startsWith("/api/")) {
    return t.app.request(`${u.pathname}${u.search}`, { method: "PUT", body: new Uint8Array(body) });
  }
  return fetch(url, { method: "PUT", body: new Uint8Array(body) });
}

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
const slice = (file: Buffer, n: number) => file.subarray((n - 1) * PART, n * PART);

export function describeShareMultipartSuite(
  label: string,
  makeStorage: (t: TestApp) => Promise<StorageUnderTest>,
) {
  describe(`uploads in parts on ${label}`, () => {
    let t: TestApp;
    let token: string;
    let storage: StorageUnderTest;
    // 5 MiB + 5 MiB + 1 MiB: three parts, the last one short.
    const file = randomBytes(2 * PART + MiB);

    // A browser on another origin (the upload page of a separate web host) PUTs the parts.
    mountStorageAtM(
      makeStorage,
      (setup) => {
        ({ t, storage } = setup);
        token = setup.admin.token as string;
      },
      // The URL server task fetches from a file host on loopback (see the share-options table).
      { CORS_ORIGINS: "https://app.example", URL_FETCH_ALLOW: "127.0.0.1" },
    );

    const init = (extra: Record<string, unknown> = {}) =>
      t.request("POST", "/api/files/multipart/init", {
        token,
        body: {
          s3_config_id: storage.configId,
          filename: "movie.bin",
          total_size: file.length,
          part_size: PART,
          part_count: 3,
          ...extra,
        },
      });

    async function sendParts(urls: Array<{ partNumber: number; url: string }>, numbers: number[]) {
      const parts: Array<{ partNumber: number; etag: string }> = [];
      for (const n of numbers) {
        const res = await putPart(t, urls[n - 1]!.url, slice(file, n));
        expect(res.status, await res.clone().text()).toBe(200);
        const etag = res.headers.get("etag");
        expect(etag).toMatch(/^"[^"]+"$/);
        parts.push({ partNumber: n, etag: etag!.replace(/"/g, "") });
      }
      return parts;
    }

    async function publicDownload(slug: string, password?: string) {
      const meta = password
        ? await t.request("POST", `/api/public/files/${slug}/verify`, { body: { password } })
        : await t.request("GET", `/api/public/files/${slug}`);
      expect(meta.status, meta.text).toBe(200);
      const res = await t.app.request(meta.body.data.downloadUrl);
      expect(res.status).toBe(200);
      return Buffer.from(await res.arrayBuffer());
    }

    it("uploads a file in three parts; complete applies the share options sent with it", async () => {
      const started = await init({ remark: "from init" });
      expect(started.status, started.text).toBe(200);
      const d = started.body.data;
      expect(d).toMatchObject({
        partSize: PART,
        partCount: 3,
        totalSize: file.length,
        filename: "movie.bin",
      });
      expect(d.presigned_urls.map((p: { partNumber: number }) => p.partNumber)).toEqual([1, 2, 3]);
      expect(d.url).toBe(`/file/${d.slug}`);
      // Not public before it is complete.
      expect((await t.request("GET", `/api/public/files/${d.slug}`)).status).toBe(404);

      const parts = await sendParts(d.presigned_urls, [1, 2, 3]);
      const done = await t.request("POST", "/api/files/multipart/complete", {
        token,
        body: {
          file_id: d.file_id,
          upload_id: d.upload_id,
          parts,
          password: "typed-at-upload",
          max_views: 5,
        },
      });
      expect(done.status, done.text).toBe(200);
      expect(done.body.data).toMatchObject({
        fileId: d.file_id,
        slug: d.slug,
        size: file.length,
        hasPassword: true,
      });

      // The password typed on the upload page protects the file.
      const pub = await t.request("GET", `/api/public/files/${d.slug}`);
      expect(pub.body.data.requires_password).toBe(true);
      expect(pub.body.data.downloadUrl).toBeUndefined();
      expect(sha(await publicDownload(d.slug, "typed-at-upload"))).toBe(sha(file));
      const row = await t.request("GET", `/api/files/${d.file_id}`, { token });
      expect(row.body.data).toMatchObject({ remark: "from init", max_views: 5, status: "active" });
    });

    it("resumes after some parts: lists the stored parts and hands out fresh URLs for all", async () => {
      const d = (await init()).body.data;
      const first = await sendParts(d.presigned_urls, [1, 3]);
      const resumed = await t.request("POST", "/api/files/multipart/resume", {
        token,
        body: { file_id: d.file_id, upload_id: d.upload_id },
      });
      expect(resumed.status, resumed.text).toBe(200);
      expect(resumed.body.data.parts).toEqual([
        { partNumber: 1, etag: first[0]!.etag, size: PART },
        { partNumber: 3, etag: first[1]!.etag, size: MiB },
      ]);
      expect(resumed.body.data.presigned_urls).toHaveLength(3);
      const rest = await sendParts(resumed.body.data.presigned_urls, [2]);
      const parts = [...resumed.body.data.parts, ...rest].map(({ partNumber, etag }) => ({
        partNumber,
        etag,
      }));
      const done = await t.request("POST", "/api/files/multipart/complete", {
        token,
        body: { file_id: d.file_id, upload_id: d.upload_id, parts },
      });
      expect(done.status, done.text).toBe(200);
      expect(sha(await publicDownload(d.slug))).toBe(sha(file));
    });

    it("abort removes the record, the stored parts and the slug reservation", async () => {
      const slug = `mp-abort-${randomBytes(3).toString("hex")}`;
      const d = (await init({ slug })).body.data;
      await sendParts(d.presigned_urls, [1]);
      const aborted = await t.request("POST", "/api/files/multipart/abort", {
        token,
        body: { file_id: d.file_id, upload_id: d.upload_id },
      });
      expect(aborted.status, aborted.text).toBe(200);
      expect((await t.request("GET", `/api/files/${d.file_id}`, { token })).status).toBe(404);
      const resumed = await t.request("POST", "/api/files/multipart/resume", {
        token,
        body: { file_id: d.file_id, upload_id: d.upload_id },
      });
      expect(resumed.status).toBe(404);
      expect(resumed.body.error).toBe("upload_not_found");
      // The storage holds no parts of it any more.
      const { driver } = await t.ctx.storageConfigs.driverById(storage.configId);
      await expect(driver.listParts!(d.storagePath, d.upload_id)).rejects.toMatchObject({
        error: "upload_not_found",
      });
      // The custom slug is free again.
      const again = await init({ slug });
      expect(again.status, again.text).toBe(200);
      await t.request("POST", "/api/files/multipart/abort", {
        token,
        body: { file_id: again.body.data.file_id, upload_id: again.body.data.upload_id },
      });
    });

    it("an abandoned upload is swept with its parts once its session lapses", async () => {
      const d = (await init()).body.data;
      await sendParts(d.presigned_urls, [1]);
      await t.ctx.db
        .updateTable("upload_sessions")
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where("file_id", "=", d.file_id)
        .execute();
      await t.ctx.fileShares.sweep();
      expect((await t.request("GET", `/api/files/${d.file_id}`, { token })).status).toBe(404);
      const sessions = await t.ctx.db
        .selectFrom("upload_sessions")
        .select("id")
        .where("file_id", "=", d.file_id)
        .execute();
      expect(sessions).toEqual([]);
      const { driver } = await t.ctx.storageConfigs.driverById(storage.configId);
      await expect(driver.listParts!(d.storagePath, d.upload_id)).rejects.toMatchObject({
        error: "upload_not_found",
      });
    });

    it("two completes of one upload: one assembles it, neither breaks it, a later one answers the same", async () => {
      const d = (await init()).body.data;
      const parts = await sendParts(d.presigned_urls, [1, 2, 3]);
      const body = { file_id: d.file_id, upload_id: d.upload_id, parts };
      const [a, b] = await Promise.all([
        t.request("POST", "/api/files/multipart/complete", { token, body }),
        t.request("POST", "/api/files/multipart/complete", { token, body }),
      ]);
      const statuses = [a.status, b.status].sort();
      expect(statuses[0]).toBe(200);
      expect([200, 409]).toContain(statuses[1]);
      if (statuses[1] === 409)
        expect([a, b].find((r) => r.status === 409)!.body.error).toBe("upload_completing");
      const later = await t.request("POST", "/api/files/multipart/complete", { token, body });
      expect(later.status).toBe(200);
      expect(later.body.data).toMatchObject({ fileId: d.file_id, size: file.length });
      expect(sha(await publicDownload(d.slug))).toBe(sha(file));
    });

    it("two browsers on one upload: every part sent twice at once, parts racing the complete and after it, never a 5xx", async () => {
      const d = (await init()).body.data;
      const urls = d.presigned_urls as Array<{ partNumber: number; url: string }>;
      const twice = await Promise.all(
        [1, 2, 3, 1, 2, 3].map((n) => putPart(t, urls[n - 1]!.url, slice(file, n))),
      );
      for (const res of twice) expect(res.status, await res.clone().text()).toBe(200);
      const parts = twice.slice(0, 3).map((res, i) => ({
        partNumber: i + 1,
        etag: res.headers.get("etag")!.replace(/"/g, ""),
      }));
      const body = { file_id: d.file_id, upload_id: d.upload_id, parts };
      const [done, ...late] = await Promise.all([
        t.request("POST", "/api/files/multipart/complete", { token, body }),
        ...[1, 2, 3].map((n) => putPart(t, urls[n - 1]!.url, slice(file, n))),
      ]);
      for (const res of late) expect(res.status, await res.clone().text()).toBeLessThan(500);
      // A part stored again may carry a new ETag: the complete then names it, and the browser
      // that lists the stored parts again can finish.
      if (done.status !== 200) {
        expect(done.status, JSON.stringify(done.body)).toBe(400);
        expect(done.body.error).toBe("invalid_part");
        const listed = await t.request("POST", "/api/files/multipart/resume", {
          token,
          body: { file_id: d.file_id, upload_id: d.upload_id },
        });
        expect(listed.status, JSON.stringify(listed.body)).toBe(200);
        const fresh = (listed.body.data.parts as Array<{ partNumber: number; etag: string }>).map(
          ({ partNumber, etag }) => ({ partNumber, etag }),
        );
        const again = await t.request("POST", "/api/files/multipart/complete", {
          token,
          body: { ...body, parts: fresh },
        });
        expect(again.status, JSON.stringify(again.body)).toBe(200);
      }
      const after = await putPart(t, urls[0]!.url, slice(file, 1));
      expect(after.status, await after.clone().text()).toBeLessThan(500);
      expect(sha(await publicDownload(d.slug))).toBe(sha(file));
    });

    it("refuses bad part plans, sizes over the limit, and other callers", async () => {
      const tooSmall = await init({ part_size: MiB, part_count: 11, total_size: 11 * MiB });
      expect(tooSmall.status).toBe(400);
      expect(tooSmall.body.message).toMatch(/at least 5242880 bytes/);
      const tooMany = await init({ part_size: PART, part_count: 10_001, total_size: 10_001 * PART });
      expect(tooMany.status).toBe(400);
      const short = await init({ part_size: PART, part_count: 2, total_size: 3 * PART });
      expect(short.status).toBe(400);
      const limit = await t.request("PUT", "/api/admin/system-settings", {
        token,
        body: { max_upload_size: 10, max_upload_size_unit: "MB" },
      });
      expect(limit.status, limit.text).toBe(200);
      const big = await init();
      expect(big.status).toBe(413);
      expect(big.body.message).toMatch(/File size exceeds system limit/);
      await t.request("PUT", "/api/admin/system-settings", {
        token,
        body: { max_upload_size: 100, max_upload_size_unit: "MB" },
      });

      const d = (await init()).body.data;
      const key = await t.createApiKey(2);
      for (const route of ["resume", "complete", "abort"]) {
        const res = await t.request("POST", `/api/files/multipart/${route}`, {
          apiKey: key.key,
          body: { file_id: d.file_id, upload_id: d.upload_id, parts: [{ partNumber: 1, etag: "x" }] },
        });
        expect(res.status, route).toBe(404);
      }
      const wrongId = await t.request("POST", "/api/files/multipart/resume", {
        token,
        body: { file_id: d.file_id, upload_id: "not-this-upload" },
      });
      expect(wrongId.status).toBe(404);
      expect(wrongId.body.error).toBe("upload_not_found");
      await t.request("POST", "/api/files/multipart/abort", {
        token,
        body: { file_id: d.file_id, upload_id: d.upload_id },
      });
    });

    it("s3/commit applies remark, password, expiry and max views sent with it", async () => {
      const payload = randomBytes(1000);
      const presign = await t.request("POST", "/api/s3/presign", {
        token,
        body: { s3_config_id: storage.configId, filename: "doc.bin", size: payload.length },
      });
      expect(presign.status, presign.text).toBe(200);
      const put = await putPart(t, presign.body.data.upload_url, payload);
      expect(put.status).toBe(200);
      const commit = await t.request("POST", "/api/s3/commit", {
        token,
        body: {
          file_id: presign.body.data.file_id,
          remark: "sent at commit",
          password: "secret-at-commit",
          expires_in: 24,
          max_views: 3,
        },
      });
      expect(commit.status, commit.text).toBe(200);
      expect(commit.body.data).toMatchObject({ has_password: true, remark: "sent at commit", max_views: 3 });
      const hours = (Date.parse(commit.body.data.expires_at) - Date.now()) / 3600_000;
      expect(hours).toBeGreaterThan(23.9);
      expect(hours).toBeLessThanOrEqual(24);
      const pub = await t.request("GET", `/api/public/files/${presign.body.data.slug}`);
      expect(pub.body.data.requires_password).toBe(true);
      expect(pub.body.data.downloadUrl).toBeUndefined();
      expect(await publicDownload(presign.body.data.slug, "secret-at-commit")).toEqual(payload);
    });

    describe("share options on every way in", () => {
      const payload = randomBytes(4096);
      const OPTIONS = { password: "pw-every-way", expires_in: 24, max_views: 2 };
      let source: http.Server;
      let sourceUrl: string;
      beforeAll(async () => {
        source = http.createServer((req, res) => {
          res.writeHead(200, {
            "content-type": "application/octet-stream",
            "content-length": payload.length,
          });
          res.end(req.method === "HEAD" ? undefined : payload);
        });
        sourceUrl = `http://127.0.0.1:${await listen(source, "127.0.0.1")}/doc.bin`;
      });
      afterAll(() => new Promise<void>((resolve) => source.close(() => resolve())));

      /** PUT the payload to a presigned URL and commit it at `commitPath` with the options. */
      async function putAndCommit(commitPath: string, presigned: { file_id: string; upload_url: string }) {
        expect((await putPart(t, presigned.upload_url, payload)).status).toBe(200);
        const commit = await t.request("POST", commitPath, {
          token,
          body: { file_id: presigned.file_id, ...OPTIONS },
        });
        expect(commit.status, commit.text).toBe(200);
        return presigned.file_id;
      }

      /** Each way in creates a share of `payload` with OPTIONS and answers its file id. */
      const waysIn: Array<[string, () => Promise<string>]> = [
        [
          "form upload",
          async () => {
            const form = new FormData();
            form.append("s3_config_id", storage.configId);
            for (const [k, v] of Object.entries(OPTIONS)) form.append(k, String(v));
            form.append("file", new Blob([new Uint8Array(payload)]), "form.bin");
            const res = await t.app.request("/api/upload", {
              method: "POST",
              headers: { authorization: `Bearer ${token}` },
              body: form,
            });
            const body = (await res.json()) as { data: { id: string } };
            expect(res.status, JSON.stringify(body)).toBe(201);
            return body.data.id;
          },
        ],
        [
          "s3/commit",
          async () => {
            const pre = await t.request("POST", "/api/s3/presign", {
              token,
              body: { s3_config_id: storage.configId, filename: "presigned.bin", size: payload.length },
            });
            expect(pre.status, pre.text).toBe(200);
            return putAndCommit("/api/s3/commit", pre.body.data);
          },
        ],
        [
          "url/commit",
          async () => {
            const pre = await t.request("POST", "/api/url/presign", {
              token,
              body: {
                url: sourceUrl,
                s3_config_id: storage.configId,
                metadata: {
                  filename: "from-url.bin",
                  contentType: "application/octet-stream",
                  size: payload.length,
                },
              },
            });
            expect(pre.status, pre.text).toBe(200);
            return putAndCommit("/api/url/commit", pre.body.data);
          },
        ],
        [
          "multipart complete",
          async () => {
            const d = (
              await init({
                filename: "parts.bin",
                total_size: payload.length,
                part_size: PART,
                part_count: 1,
              })
            ).body.data;
            const put = await putPart(t, d.presigned_urls[0].url, payload);
            expect(put.status).toBe(200);
            const done = await t.request("POST", "/api/files/multipart/complete", {
              token,
              body: {
                file_id: d.file_id,
                upload_id: d.upload_id,
                parts: [{ partNumber: 1, etag: put.headers.get("etag")!.replace(/"/g, "") }],
                ...OPTIONS,
              },
            });
            expect(done.status, done.text).toBe(200);
            return d.file_id;
          },
        ],
        [
          "URL server task",
          async () => {
            const queued = await t.request("POST", "/api/url/fetch", {
              token,
              body: { url: sourceUrl, s3_config_id: storage.configId, ...OPTIONS },
            });
            expect(queued.status, queued.text).toBe(202);
            const { task } = await waitForTask(t, queued.body.data.id, { token });
            expect(task.status, JSON.stringify(task)).toBe("completed");
            return (task.result as { id: string }).id;
          },
        ],
      ];

      it.each(waysIn)("%s keeps password, expiry and max views", async (_way, create) => {
        const fileId = await create();
        const row = (await t.request("GET", `/api/files/${fileId}`, { token })).body.data;
        expect(row).toMatchObject({
          status: "active",
          has_password: true,
          max_views: 2,
          size: payload.length,
        });
        const hours = (Date.parse(row.expires_at) - Date.now()) / 3600_000;
        expect(hours).toBeGreaterThan(23.9);
        expect(hours).toBeLessThanOrEqual(24);
        const download = (password: string) =>
          t.app.request(`/api/file-download/${row.slug}?password=${password}`);
        expect(
          (await t.request("GET", `/api/public/files/${row.slug}`)).body.data.downloadUrl,
        ).toBeUndefined();
        expect([401, 403]).toContain((await download("wrong-password")).status);
        for (let view = 1; view <= 2; view++) {
          const res = await download(OPTIONS.password);
          expect(res.status).toBe(200);
          expect(Buffer.from(await res.arrayBuffer()).equals(payload)).toBe(true);
        }
        expect((await download(OPTIONS.password)).status).toBe(410);
      });
    });

    it("explorer multipart: resume lists the stored parts and re-signs every part URL", async () => {
      const started = await t.request("POST", "/api/fs/multipart/init", {
        token,
        body: { path: "/m", fileName: "big.bin", fileSize: file.length, partSize: PART, partCount: 3 },
      });
      expect(started.status, started.text).toBe(200);
      const { uploadId, presignedUrls } = started.body.data;
      const first = await sendParts(presignedUrls, [2]);
      const resumed = await t.request("POST", "/api/fs/multipart/resume", {
        token,
        body: { path: "/m/big.bin", uploadId, fileName: "big.bin" },
      });
      expect(resumed.status, resumed.text).toBe(200);
      expect(resumed.body.data.parts).toEqual([{ partNumber: 2, etag: first[0]!.etag, size: PART }]);
      expect(resumed.body.data.presignedUrls).toHaveLength(3);
      const rest = await sendParts(resumed.body.data.presignedUrls, [1, 3]);
      const done = await t.request("POST", "/api/fs/multipart/complete", {
        token,
        body: { path: "/m/big.bin", uploadId, fileName: "big.bin", parts: [...first, ...rest] },
      });
      expect(done.status, done.text).toBe(200);
      expect(sha(await readBytes(t, "/m/big.bin", { token }))).toBe(sha(file));
      const gone = await t.request("POST", "/api/fs/multipart/resume", {
        token,
        body: { path: "/m/big.bin", uploadId, fileName: "big.bin" },
      });
      expect(gone.status).toBe(404);
      expect(gone.body.error).toBe("upload_not_found");
    });

    it("explorer multipart, two browsers: two completes and a part at once, then a part after: never a 5xx", async () => {
      const started = await t.request("POST", "/api/fs/multipart/init", {
        token,
        body: { path: "/m", fileName: "twice.bin", fileSize: file.length, partSize: PART, partCount: 3 },
      });
      expect(started.status, started.text).toBe(200);
      const { uploadId, presignedUrls } = started.body.data;
      const parts = await sendParts(presignedUrls, [1, 2, 3]);
      const body = { path: "/m/twice.bin", uploadId, fileName: "twice.bin", parts };
      const results = await Promise.all([
        t.request("POST", "/api/fs/multipart/complete", { token, body }),
        t.request("POST", "/api/fs/multipart/complete", { token, body }),
        putPart(t, presignedUrls[2].url, slice(file, 3)),
      ]);
      const [a, b, part] = results;
      expect([a.status, b.status], `${a.text} ${b.text}`).toContain(200);
      for (const res of [a, b]) expect(res.status, res.text).toBeLessThan(500);
      expect(part.status, await part.clone().text()).toBeLessThan(500);
      const after = await putPart(t, presignedUrls[0].url, slice(file, 1));
      expect(after.status, await after.clone().text()).toBeLessThan(500);
      expect(sha(await readBytes(t, "/m/twice.bin", { token }))).toBe(sha(file));
    });

    if (label === "LOCAL") {
      it("a LOCAL part URL takes one part (CORS, ETag exposed): bigger bodies are 413, bad signatures 403", async () => {
        const d = (await init()).body.data;
        const url = new URL(d.presigned_urls[2].url);
        // Part 3 is the last one: at most the 1 MiB the file has left.
        const over = await putPart(t, url.toString(), randomBytes(MiB + 1));
        expect(over.status).toBe(413);
        const overBody = await over.json();
        expect(overBody).toMatchObject({ success: false, error: "content_too_large" });
        const preflight = await t.app.request(`${url.pathname}${url.search}`, {
          method: "OPTIONS",
          headers: {
            origin: "https://app.example",
            "access-control-request-method": "PUT",
            "access-control-request-headers": "content-type",
          },
        });
        expect(preflight.headers.get("access-control-allow-origin")).toBe("https://app.example");
        expect(preflight.headers.get("access-control-allow-methods")).toMatch(/PUT/);
        const part = await t.app.request(`${url.pathname}${url.search}`, {
          method: "PUT",
          body: new Uint8Array(slice(file, 3)),
          headers: { origin: "https://app.example" },
        });
        expect(part.status).toBe(200);
        expect(part.headers.get("access-control-expose-headers")).toMatch(/ETag/i);
        expect(part.headers.get("etag")).toMatch(/^"[0-9a-f]{32}"$/);
        url.searchParams.set("sig", "forged");
        const forged = await putPart(t, url.toString(), slice(file, 3));
        expect(forged.status).toBe(403);
        const resumed = await t.request("POST", "/api/files/multipart/resume", {
          token,
          body: { file_id: d.file_id, upload_id: d.upload_id },
        });
        expect(resumed.body.data.parts.map((p: { partNumber: number }) => p.partNumber)).toEqual([3]);
        const tmp = path.join(t.dataDir, "disk-parts", ".clipshare-tmp", `mp-${d.upload_id}`);
        expect(
          readdirSync(tmp).filter((n) => !["meta.json", "data"].includes(n) && !n.startsWith("00003-")),
        ).toEqual([]);
        await t.request("POST", "/api/files/multipart/abort", {
          token,
          body: { file_id: d.file_id, upload_id: d.upload_id },
        });
        expect(() => readdirSync(tmp)).toThrow();
      });

      it("LOCAL part URLs carry partNumber and isLastPart, signed: flipping isLastPart is 403", async () => {
        const d = (await init()).body.data;
        const queries = d.presigned_urls.map((p: { url: string }) => new URL(p.url).searchParams);
        expect(queries.map((q: URLSearchParams) => [q.get("partNumber"), q.get("isLastPart")])).toEqual([
          ["1", "false"],
          ["2", "false"],
          ["3", "true"],
        ]);
        const flipped = new URL(d.presigned_urls[0].url);
        flipped.searchParams.set("isLastPart", "true");
        expect((await putPart(t, flipped.toString(), slice(file, 1))).status).toBe(403);
        const missing = new URL(d.presigned_urls[0].url);
        missing.searchParams.delete("isLastPart");
        expect((await putPart(t, missing.toString(), slice(file, 1))).status).toBe(400);
        expect((await putPart(t, d.presigned_urls[0].url, slice(file, 1))).status).toBe(200);
        await t.request("POST", "/api/files/multipart/abort", {
          token,
          body: { file_id: d.file_id, upload_id: d.upload_id },
        });
      });

      it("an explorer part URL refuses a body larger than the part size given at init", async () => {
        const started = await t.request("POST", "/api/fs/multipart/init", {
          token,
          body: { path: "/m", fileName: "sized.bin", fileSize: 6 * MiB, partSize: PART, partCount: 2 },
        });
        expect(started.status, started.text).toBe(200);
        const over = await putPart(t, started.body.data.presignedUrls[0].url, randomBytes(PART + 1));
        expect(over.status).toBe(413);
        expect(await over.json()).toMatchObject({ error: "content_too_large" });
        const fits = await putPart(t, started.body.data.presignedUrls[0].url, randomBytes(PART));
        expect(fits.status).toBe(200);
      });
    }
  });
}
