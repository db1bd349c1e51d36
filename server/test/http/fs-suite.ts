/**
 * The file-system API against one storage backend: fs.test.ts runs it on LOCAL,
 * fs-s3.test.ts on the Swift S3 server. Every test works under its own
 * directory of the mount at /m, so the suite shares one app.
 */
import { createHash, randomBytes } from "node:crypto";
import { Permission } from "@clipshare/shared";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type Auth,
  createLocalStorage,
  createMount,
  download,
  list,
  mountStorageAtM,
  mustPut,
  names,
  putFile,
  readBytes,
  type StorageUnderTest,
  waitForTask,
} from "../support/fs-helpers";
import type { TestApp } from "../support/test-app";

const ALL_MOUNT =
  Permission.MOUNT_VIEW |
  Permission.MOUNT_UPLOAD |
  Permission.MOUNT_COPY |
  Permission.MOUNT_RENAME |
  Permission.MOUNT_DELETE;

/** PUT to a URL handed out by the API: our own signed URLs in-process, storage URLs over loopback. */
async function putTo(t: TestApp, url: string, body: Buffer, headers: Record<string, string> = {}) {
  const u = new URL(url);
  if (u.pathname.startsWith("/api/")) {
    return t.app.request(`${u.pathname}${u.search}`, { method: "PUT", body: new Uint8Array(body), headers });
  }
  return fetch(url, { method: "PUT", body: new Uint8Array(body), headers });
}

async function getFrom(t: TestApp, url: string, headers: Record<string, string> = {}) {
  const u = new URL(url);
  if (u.pathname.startsWith("/api/")) return t.app.request(`${u.pathname}${u.search}`, { headers });
  return fetch(url, { headers });
}

export function describeFsSuite(label: string, makeStorage: (t: TestApp) => Promise<StorageUnderTest>) {
  describe(`file-system API on ${label}`, () => {
    let t: TestApp;
    let storage: StorageUnderTest;
    let other: StorageUnderTest;
    let admin: Auth;
    let n = 0;
    const dir = () => `/m/case-${++n}`;

    mountStorageAtM(makeStorage, async (setup) => {
      ({ t, admin, storage } = setup);
      other = await createLocalStorage(t, "other-disk");
      await createMount(t, other, "/other");
      await createMount(t, storage, "/deep/x/y", { name: "Deep" });
    });

    describe("the tree", () => {
      it("the root lists the mounts as directories, intermediate levels are virtual", async () => {
        const root = await list(t, "/", admin);
        expect(root.status).toBe(200);
        expect(root.body.data).toMatchObject({ path: "/", isRoot: true, isVirtual: true, type: "directory" });
        const items = root.body.data.items;
        expect(items.find((i: { name: string }) => i.name === "m")).toMatchObject({
          path: "/m/",
          type: "directory",
          isDirectory: true,
          isMount: true,
          storage_type: storage.storageType,
        });
        expect(items.find((i: { name: string }) => i.name === "deep")).toMatchObject({
          path: "/deep/",
          isVirtual: true,
          isMount: false,
        });
        const deep = await list(t, "/deep/x", admin);
        expect(deep.body.data.items).toEqual([
          expect.objectContaining({ name: "y", path: "/deep/x/y/", isMount: true }),
        ]);
        expect((await list(t, "/nowhere", admin)).status).toBe(404);
      });

      it("mkdir, upload and list: entries carry name, path, type, size, modified, mimetype and etag", async () => {
        const d = dir();
        const mk = await t.request("POST", "/api/fs/mkdir", { ...admin, body: { path: d } });
        expect(mk.status).toBe(201);
        await t.request("POST", "/api/fs/mkdir", { ...admin, body: { path: `${d}/sub` } });
        const form = new FormData();
        form.append("path", `${d}/`);
        form.append("file", new Blob(["# Notes\n"]), "notes.md");
        const up = await t.app.request("/api/fs/upload", {
          method: "POST",
          headers: { authorization: `Bearer ${admin.token}` },
          body: form,
        });
        const upBody = (await up.json()) as { data: Record<string, unknown> };
        expect(up.status, JSON.stringify(upBody)).toBe(201);
        expect(upBody.data).toMatchObject({ fileName: "notes.md", path: `${d}/notes.md`, size: 8 });
        await mustPut(t, `${d}/data.bin`, randomBytes(1000), admin);
        const res = await list(t, d, admin);
        expect(res.body.data).toMatchObject({
          path: `${d}/`,
          isVirtual: false,
          hasMore: false,
          nextCursor: null,
        });
        const items = res.body.data.items;
        expect(items.map((i: { name: string }) => i.name)).toEqual(["sub", "data.bin", "notes.md"]); // directories first
        expect(items[0]).toMatchObject({
          name: "sub",
          path: `${d}/sub/`,
          type: "directory",
          isDirectory: true,
          mimetype: null,
        });
        expect(items[2]).toMatchObject({
          name: "notes.md",
          path: `${d}/notes.md`,
          type: "file",
          size: 8,
          mimetype: "text/markdown",
        });
        expect(items[2].etag).toBeTruthy();
        expect(Date.parse(items[2].modified)).toBeGreaterThan(Date.now() - 600_000);
      });

      it("mkdir refuses an existing directory and a missing parent (409)", async () => {
        const d = dir();
        await t.request("POST", "/api/fs/mkdir", { ...admin, body: { path: d } });
        const again = await t.request("POST", "/api/fs/mkdir", { ...admin, body: { path: d } });
        expect(again.status).toBe(409);
        expect(again.body.error).toBe("dir_exists");
        const orphan = await t.request("POST", "/api/fs/mkdir", { ...admin, body: { path: `${d}/no/such` } });
        expect(orphan.status).toBe(409);
        expect(orphan.body.error).toBe("parent_missing");
        expect((await t.request("POST", "/api/fs/mkdir", { ...admin, body: { path: "/" } })).status).toBe(
          403,
        );
        expect(
          (await t.request("POST", "/api/fs/mkdir", { ...admin, body: { path: "/deep/x" } })).status,
        ).toBe(403);
        expect(
          (await t.request("POST", "/api/fs/mkdir", { ...admin, body: { path: "/deep/new" } })).status,
        ).toBe(404);
      });

      it("get describes files (with preview and download URLs) and directories", async () => {
        const d = dir();
        await mustPut(t, `${d}/a.txt`, "hello", admin);
        const file = await t.request("GET", `/api/fs/get?path=${encodeURIComponent(`${d}/a.txt`)}`, admin);
        expect(file.status).toBe(200);
        expect(file.body.data).toMatchObject({
          name: "a.txt",
          isDirectory: false,
          size: 5,
          contentType: "text/plain",
        });
        const preview = await getFrom(t, file.body.data.preview_url);
        expect(preview.status).toBe(200);
        expect(await preview.text()).toBe("hello");
        const dl = await getFrom(t, file.body.data.download_url);
        expect(dl.headers.get("content-disposition")).toContain("attachment");
        const folder = await t.request("GET", `/api/fs/get?path=${encodeURIComponent(d)}`, admin);
        expect(folder.body.data).toMatchObject({ isDirectory: true, contentType: "application/x-directory" });
        expect((await t.request("GET", `/api/fs/get?path=${d}/missing`, admin)).status).toBe(404);
        expect((await t.request("GET", "/api/fs/get", admin)).body.message).toBe("Please provide file path");
      });

      it("download streams with Range, ETag (304) and an attachment disposition", async () => {
        const d = dir();
        const bytes = randomBytes(100_000);
        await mustPut(t, `${d}/中文 name.bin`, bytes, admin);
        const full = await download(t, `${d}/中文 name.bin`, admin);
        expect(full.status).toBe(200);
        expect(Buffer.from(await full.arrayBuffer()).equals(bytes)).toBe(true);
        expect(full.headers.get("content-disposition")).toContain("attachment");
        expect(full.headers.get("content-disposition")).toContain(
          "filename*=UTF-8''%E4%B8%AD%E6%96%87%20name.bin",
        );
        const etag = full.headers.get("etag")!;
        expect(etag).toBeTruthy();
        const part = await download(t, `${d}/中文 name.bin`, admin, { range: "bytes=10-19" });
        expect(part.status).toBe(206);
        expect(part.headers.get("content-range")).toBe("bytes 10-19/100000");
        expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(10, 20))).toBe(true);
        expect((await download(t, `${d}/中文 name.bin`, admin, { "if-none-match": etag })).status).toBe(304);
        expect((await download(t, d, admin)).status).toBe(409);
      });

      it("update writes text files up to 10 MB", async () => {
        const d = dir();
        const created = await t.request("POST", "/api/fs/update", {
          ...admin,
          body: { path: `${d}/note.txt`, content: "v1" },
        });
        expect(created.status).toBe(200);
        expect(created.body.data).toMatchObject({ isNewFile: true, size: 2 });
        const updated = await t.request("POST", "/api/fs/update", {
          ...admin,
          body: { path: `${d}/note.txt`, content: "version 2 ✓" },
        });
        expect(updated.body.data.isNewFile).toBe(false);
        expect((await readBytes(t, `${d}/note.txt`, admin)).toString()).toBe("version 2 ✓");
        const big = await t.request("POST", "/api/fs/update", {
          ...admin,
          body: { path: `${d}/big.txt`, content: "x".repeat(10 * 1024 * 1024 + 1) },
        });
        expect(big.status).toBe(413);
        expect(big.body.message).toBe("File content too large, exceeds max (10MB)");
      });

      it("rename moves files and directories; refuses an existing target, another storage and mount points", async () => {
        const d = dir();
        await mustPut(t, `${d}/a.txt`, "a", admin);
        await mustPut(t, `${d}/b.txt`, "b", admin);
        await mustPut(t, `${d}/folder/inner.txt`, "inner", admin);
        const ok = await t.request("POST", "/api/fs/rename", {
          ...admin,
          body: { oldPath: `${d}/a.txt`, newPath: `${d}/c.txt` },
        });
        expect(ok.status).toBe(200);
        expect(ok.body.message).toBe("Rename succeeded");
        const taken = await t.request("POST", "/api/fs/rename", {
          ...admin,
          body: { oldPath: `${d}/c.txt`, newPath: `${d}/b.txt` },
        });
        expect(taken.status).toBe(409);
        expect(taken.body.message).toContain("Target file already exists");
        expect(
          (
            await t.request("POST", "/api/fs/rename", {
              ...admin,
              body: { oldPath: `${d}/folder`, newPath: `${d}/moved` },
            })
          ).status,
        ).toBe(200);
        expect(await names(t, d, admin)).toEqual(["b.txt", "c.txt", "moved"]);
        expect((await readBytes(t, `${d}/moved/inner.txt`, admin)).toString()).toBe("inner");
        const cross = await t.request("POST", "/api/fs/rename", {
          ...admin,
          body: { oldPath: `${d}/b.txt`, newPath: "/other/b.txt" },
        });
        expect(cross.status).toBe(400);
        expect(cross.body.error).toBe("cross_storage");
        expect(
          (await t.request("POST", "/api/fs/rename", { ...admin, body: { oldPath: "/m", newPath: "/m2" } }))
            .status,
        ).toBe(403);
        expect(
          (await t.request("POST", "/api/fs/rename", { ...admin, body: { oldPath: `${d}/b.txt` } })).body
            .message,
        ).toBe("Please provide old and new path");
      });

      it("batch-remove deletes files and whole directories and reports what failed", async () => {
        const d = dir();
        await mustPut(t, `${d}/a.txt`, "a", admin);
        await mustPut(t, `${d}/tree/x/y.txt`, "y", admin);
        await mustPut(t, `${d}/keep.txt`, "k", admin);
        const res = await t.request("DELETE", "/api/fs/batch-remove", {
          ...admin,
          body: { paths: [`${d}/a.txt`, `${d}/tree/`, `${d}/missing.txt`] },
        });
        expect(res.status).toBe(200);
        expect(res.body.data.success).toBe(2);
        expect(res.body.data.failed).toEqual([
          { path: `${d}/missing.txt`, error: expect.stringContaining("does not exist") },
        ]);
        expect(await names(t, d, admin)).toEqual(["keep.txt"]);
        const root = await t.request("DELETE", "/api/fs/batch-remove", { ...admin, body: { paths: ["/m"] } });
        expect(root.body.data.failed[0].error).toContain("mount point");
        expect(
          (await t.request("DELETE", "/api/fs/batch-remove", { ...admin, body: { paths: [] } })).body.message,
        ).toBe("Please provide a valid path array");
      });

      it("batch-copy within one storage: copies, skips existing targets or picks a free name", async () => {
        const d = dir();
        await mustPut(t, `${d}/a.txt`, "alpha", admin);
        await mustPut(t, `${d}/dir/one.txt`, "one", admin);
        await t.request("POST", "/api/fs/mkdir", { ...admin, body: { path: `${d}/dest` } });
        const first = await t.request("POST", "/api/fs/batch-copy", {
          ...admin,
          body: {
            items: [
              { sourcePath: `${d}/a.txt`, targetPath: `${d}/dest/` },
              { sourcePath: `${d}/dir/`, targetPath: `${d}/dest/dir/` },
            ],
          },
        });
        expect(first.status).toBe(200);
        expect(first.body.data).toMatchObject({ crossStorage: false, success: 2, skipped: 0, failed: 0 });
        const skip = await t.request("POST", "/api/fs/batch-copy", {
          ...admin,
          body: { items: [{ sourcePath: `${d}/a.txt`, targetPath: `${d}/dest/a.txt` }] },
        });
        expect(skip.body.data).toMatchObject({ success: 0, skipped: 1 });
        const renamed = await t.request("POST", "/api/fs/batch-copy", {
          ...admin,
          body: { items: [{ sourcePath: `${d}/a.txt`, targetPath: `${d}/dest/a.txt` }], skipExisting: false },
        });
        expect(renamed.body.data.details[0]).toMatchObject({
          status: "success",
          renamed: true,
          targetPath: `${d}/dest/a(1).txt`,
        });
        expect(await names(t, `${d}/dest`, admin)).toEqual(["a(1).txt", "a.txt", "dir"]);
        expect((await readBytes(t, `${d}/dest/dir/one.txt`, admin)).toString()).toBe("one");
      });

      it("batch-copy across storages runs as a task and arrives byte-identical", async () => {
        const d = dir();
        const bytes = randomBytes(300_000);
        await mustPut(t, `${d}/big.bin`, bytes, admin);
        await mustPut(t, `${d}/tree/a.txt`, "A", admin);
        await mustPut(t, `${d}/tree/sub/b.txt`, "B", admin);
        const target = `/other/from-${label}-${n}`;
        const res = await t.request("POST", "/api/fs/batch-copy", {
          ...admin,
          body: {
            items: [
              { sourcePath: `${d}/big.bin`, targetPath: `${target}/big.bin` },
              { sourcePath: `${d}/tree/`, targetPath: `${target}/tree/` },
            ],
          },
        });
        expect(res.status).toBe(202);
        expect(res.body.data).toMatchObject({ crossStorage: true, queued: 2 });
        const { task } = await waitForTask(t, res.body.data.taskId, admin);
        expect(task).toMatchObject({
          type: "copy",
          status: "completed",
          total_items: 3,
          processed_items: 3,
          failed_items: 0,
        });
        expect(task.processed_bytes).toBe(300_002);
        expect((await readBytes(t, `${target}/big.bin`, admin)).equals(bytes)).toBe(true);
        expect((await readBytes(t, `${target}/tree/sub/b.txt`, admin)).toString()).toBe("B");
      });

      it("the client-side copy flow (0.7.3) still works: URL pairs, then batch-copy-commit", async () => {
        const d = dir();
        const bytes = randomBytes(5000);
        await mustPut(t, `${d}/c.bin`, bytes, admin);
        const res = await t.request("POST", "/api/fs/batch-copy", {
          ...admin,
          body: {
            items: [{ sourcePath: `${d}/c.bin`, targetPath: `/other/client-${label}-${n}.bin` }],
            clientSideCopy: true,
          },
        });
        expect(res.status).toBe(200);
        expect(res.body.data.requiresClientSideCopy).toBe(true);
        const [item] = res.body.data.crossStorageResults;
        const got = await getFrom(t, item.downloadUrl);
        expect(got.status).toBe(200);
        const put = await putTo(t, item.uploadUrl, Buffer.from(await got.arrayBuffer()), item.uploadHeaders);
        expect(put.status).toBe(200);
        const commit = await t.request("POST", "/api/fs/batch-copy-commit", {
          ...admin,
          body: {
            targetMountId: item.targetMount,
            files: [{ targetPath: item.target, s3Path: item.targetS3Path }],
          },
        });
        expect(commit.body.data.success).toEqual([
          { targetPath: item.target, fileName: `client-${label}-${n}.bin` },
        ]);
        expect((await readBytes(t, item.target, admin)).equals(bytes)).toBe(true);
      });

      it("file-link gives a working time-limited URL; a tampered or expired LOCAL link is refused", async () => {
        const d = dir();
        await mustPut(t, `${d}/link.txt`, "linked", admin);
        const res = await t.request(
          "GET",
          `/api/fs/file-link?path=${encodeURIComponent(`${d}/link.txt`)}&expires_in=120&force_download=true`,
          admin,
        );
        expect(res.status).toBe(200);
        expect(res.body.data).toMatchObject({
          success: true,
          name: "link.txt",
          expiresIn: 120,
          forceDownload: true,
        });
        const got = await getFrom(t, res.body.data.presignedUrl);
        expect(got.status).toBe(200);
        expect(await got.text()).toBe("linked");
        if (storage.storageType === "LOCAL") {
          const url = new URL(res.body.data.presignedUrl);
          const sign = url.searchParams.get("sign")!;
          url.searchParams.set(
            "sign",
            sign.replace(/:(\d+)$/, (_, e) => `:${Number(e) + 1}`),
          );
          const bad = await getFrom(t, url.toString());
          expect(bad.status).toBe(401);
          expect(((await bad.json()) as { message: string }).message).toBe(
            "Signature verification failed: invalid_signature",
          );
        }
      });

      it("presign + commit uploads straight to the storage (or this server's signed URL)", async () => {
        const d = dir();
        const bytes = randomBytes(20_000);
        const pre = await t.request("POST", "/api/fs/presign", {
          ...admin,
          body: {
            path: d,
            fileName: "direct.bin",
            contentType: "application/octet-stream",
            fileSize: bytes.length,
          },
        });
        expect(pre.status).toBe(200);
        expect(pre.body.data).toMatchObject({
          targetPath: `${d}/direct.bin`,
          storage_type: storage.storageType,
        });
        const put = await putTo(t, pre.body.data.presignedUrl, bytes, pre.body.data.headers);
        expect(put.status).toBe(200);
        const commit = await t.request("POST", "/api/fs/presign/commit", {
          ...admin,
          body: {
            targetPath: pre.body.data.targetPath,
            mountId: pre.body.data.mountId,
            fileId: pre.body.data.fileId,
          },
        });
        expect(commit.status).toBe(200);
        expect(commit.body.data).toMatchObject({ fileName: "direct.bin", fileSize: bytes.length });
        expect((await readBytes(t, `${d}/direct.bin`, admin)).equals(bytes)).toBe(true);
        const missing = await t.request("POST", "/api/fs/presign/commit", {
          ...admin,
          body: { targetPath: `${d}/never.bin` },
        });
        expect(missing.status).toBe(400);
      });

      it("multipart init/complete assembles the parts; abort discards the upload", async () => {
        const d = dir();
        const bytes = randomBytes(12_000);
        const init = await t.request("POST", "/api/fs/multipart/init", {
          ...admin,
          body: { path: d, fileName: "parts.bin", fileSize: bytes.length, partSize: 5000, partCount: 3 },
        });
        expect(init.status).toBe(200);
        expect(init.body.data.presignedUrls).toHaveLength(3);
        const parts = [];
        for (const { partNumber, url } of init.body.data.presignedUrls) {
          const res = await putTo(t, url, bytes.subarray((partNumber - 1) * 5000, partNumber * 5000));
          expect(res.status).toBe(200);
          parts.push({ partNumber, etag: res.headers.get("etag")! });
        }
        const done = await t.request("POST", "/api/fs/multipart/complete", {
          ...admin,
          body: { path: d, uploadId: init.body.data.uploadId, fileName: "parts.bin", parts },
        });
        expect(done.status, done.text).toBe(200);
        expect(done.body.data).toMatchObject({ success: true, size: bytes.length, fileName: "parts.bin" });
        expect((await readBytes(t, `${d}/parts.bin`, admin)).equals(bytes)).toBe(true);

        const init2 = await t.request("POST", "/api/fs/multipart/init", {
          ...admin,
          body: { path: d, fileName: "aborted.bin", fileSize: 10 },
        });
        const abort = await t.request("POST", "/api/fs/multipart/abort", {
          ...admin,
          body: { path: d, uploadId: init2.body.data.uploadId, fileName: "aborted.bin" },
        });
        expect(abort.status).toBe(200);
        expect(await names(t, d, admin)).toEqual(["parts.bin"]);
        const again = await t.request("POST", "/api/fs/multipart/complete", {
          ...admin,
          body: {
            path: d,
            uploadId: init2.body.data.uploadId,
            fileName: "aborted.bin",
            parts: [{ partNumber: 1, etag: "x" }],
          },
        });
        expect(again.status).toBe(404);
      });

      it("create-share publishes an existing file as a share without copying it", async () => {
        const d = dir();
        await mustPut(t, `${d}/shared.txt`, "shared content", admin);
        const res = await t.request("POST", "/api/fs/create-share", {
          ...admin,
          body: { path: `${d}/shared.txt`, password: "pw-123", max_views: 5 },
        });
        expect(res.status).toBe(201);
        expect(res.body.data).toMatchObject({
          filename: "shared.txt",
          size: 14,
          file_path: `${d}/shared.txt`,
          has_password: true,
          max_views: 5,
          url: `/file/${res.body.data.slug}`,
        });
        const locked = await t.app.request(`/api/file-download/${res.body.data.slug}`);
        expect(locked.status).toBe(401);
        const open = await t.app.request(`/api/file-download/${res.body.data.slug}?password=pw-123`);
        expect(open.status).toBe(200);
        expect(await open.text()).toBe("shared content");
        expect(
          (await t.request("POST", "/api/fs/create-share", { ...admin, body: { path: d } })).status,
        ).toBe(409);
      });

      it("visitors of a share made in the explorer never see its server path; the owner does", async () => {
        const d = dir();
        await mustPut(t, `${d}/Docs 2026/hello.pdf`, "%PDF-1.4", admin);
        const res = await t.request("POST", "/api/fs/create-share", {
          ...admin,
          body: { path: `${d}/Docs 2026/hello.pdf` },
        });
        expect(res.status).toBe(201);
        const pub = await t.request("GET", `/api/public/files/${res.body.data.slug}`);
        expect(pub.status).toBe(200);
        expect(pub.body.data.remark).toBeNull();
        expect(pub.text).not.toContain("Docs 2026");
        const own = await t.request("GET", `/api/files/${res.body.data.id}`, admin);
        expect(own.body.data.remark).toBe(`From file system: ${d}/Docs 2026/hello.pdf`);
        // A remark the owner wrote is shown as written.
        const named = await t.request("POST", "/api/fs/create-share", {
          ...admin,
          body: { path: `${d}/Docs 2026/hello.pdf`, remark: "Quarterly report" },
        });
        const namedPub = await t.request("GET", `/api/public/files/${named.body.data.slug}`);
        expect(namedPub.body.data.remark).toBe("Quarterly report");
      });

      it("search matches names case-insensitively in every scope, exact and prefix matches first", async () => {
        const d = dir();
        await mustPut(t, `${d}/Report.txt`, "1", admin);
        await mustPut(t, `${d}/old-report-2020.txt`, "2", admin);
        await mustPut(t, `${d}/sub/report`, "3", admin);
        await mustPut(t, `${d}/unrelated.txt`, "4", admin);
        const q = (query: string) => t.request("GET", `/api/fs/search?${query}`, admin);
        const global = await q("q=report");
        expect(global.status).toBe(200);
        const ours = global.body.data.results.filter((r: { path: string }) => r.path.startsWith(`${d}/`));
        expect(ours.map((r: { name: string }) => r.name)).toEqual([
          "report",
          "Report.txt",
          "old-report-2020.txt",
        ]);
        expect(ours[0]).toMatchObject({
          path: `${d}/sub/report`,
          mount_name: "Mount /m",
          storage_type: storage.storageType,
        });
        const inDir = await q(`q=REPORT&scope=directory&path=${encodeURIComponent(`${d}/sub`)}`);
        expect(inDir.body.data.results.map((r: { path: string }) => r.path)).toEqual([`${d}/sub/report`]);
        const mountId = (await t.request("GET", "/api/fs/get?path=/m", admin)).body.data.mount_id;
        const inMount = await q(`q=unrelated&scope=mount&mount_id=${mountId}`);
        expect(inMount.body.data.results.map((r: { path: string }) => r.path)).toContain(
          `${d}/unrelated.txt`,
        );
        const paged = await q("q=report&limit=1&offset=1");
        expect(paged.body.data).toMatchObject({ hasMore: true, searchParams: { limit: 1, offset: 1 } });
        expect((await q("q=r")).body.message).toBe("Search query needs at least 2 characters");
        expect((await q("q=report&scope=everywhere")).body.message).toBe("Invalid search scope");
        expect((await q("q=report&scope=mount&mount_id=nope")).status).toBe(403);
      });

      it("the directory cache serves repeat listings and every write through the server refreshes it", async () => {
        const d = dir();
        await mustPut(t, `${d}/one.txt`, "1", admin);
        expect((await list(t, d, admin)).body.data.cached).toBe(false);
        expect((await list(t, d, admin)).body.data.cached).toBe(true);
        await mustPut(t, `${d}/two.txt`, "2", admin);
        const after = await list(t, d, admin);
        expect(after.body.data.cached).toBe(false);
        expect(after.body.data.items.map((i: { name: string }) => i.name)).toEqual(["one.txt", "two.txt"]);
        await t.request("DELETE", "/api/fs/batch-remove", { ...admin, body: { paths: [`${d}/one.txt`] } });
        expect((await list(t, d, admin)).body.data.items.map((i: { name: string }) => i.name)).toEqual([
          "two.txt",
        ]);
        expect((await list(t, d, admin, "&refresh=true")).body.data.cached).toBe(false);
      });

      it("lists big directories page by page with a cursor", async () => {
        const d = dir();
        const count = 25;
        await Promise.all(
          Array.from({ length: count }, (_, i) =>
            mustPut(t, `${d}/f${String(i).padStart(3, "0")}.txt`, "x", admin),
          ),
        );
        const seen: string[] = [];
        let cursor: string | null = null;
        let pages = 0;
        do {
          const res = await list(
            t,
            d,
            admin,
            `&limit=10${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
          );
          expect(res.status).toBe(200);
          seen.push(...res.body.data.items.map((i: { name: string }) => i.name));
          cursor = res.body.data.nextCursor;
          expect(res.body.data.hasMore).toBe(cursor !== null);
          pages++;
        } while (cursor);
        expect(pages).toBeGreaterThanOrEqual(3);
        expect(seen).toEqual(Array.from({ length: count }, (_, i) => `f${String(i).padStart(3, "0")}.txt`));
      });
    });

    describe("permissions and base paths", () => {
      let key: { key: string };
      let viewOnly: { key: string };
      const asKey = () => ({ apiKey: key.key });
      beforeAll(async () => {
        await mustPut(t, "/m/a/inside.txt", "in", admin);
        await mustPut(t, "/m/ab/secret.txt", "secret", admin);
        await mustPut(t, "/m/b/other.txt", "b", admin);
        key = await t.createApiKey(ALL_MOUNT, { basic_path: "/m/a" });
        viewOnly = await t.createApiKey(Permission.MOUNT_VIEW, { basic_path: "/m/a" });
      });

      it("a key with base path /m/a works inside it", async () => {
        expect(await names(t, "/m/a", asKey())).toEqual(["inside.txt"]);
        await mustPut(t, "/m/a/new.txt", "new", asKey());
        expect((await readBytes(t, "/m/a/new.txt", asKey())).toString()).toBe("new");
      });

      it("cannot list /, read /m/ab, copy into /m/b or rename out of its base path", async () => {
        const root = await list(t, "/", asKey());
        expect(root.status).toBe(403);
        expect(root.body.message).toBe("No permission to access this path");
        expect((await list(t, "/m", asKey())).status).toBe(403);
        expect((await download(t, "/m/ab/secret.txt", asKey())).status).toBe(403);
        expect((await t.request("GET", "/api/fs/get?path=/m/ab/secret.txt", asKey())).status).toBe(403);
        expect((await t.request("GET", "/api/fs/file-link?path=/m/ab/secret.txt", asKey())).status).toBe(403);
        const copy = await t.request("POST", "/api/fs/batch-copy", {
          ...asKey(),
          body: { items: [{ sourcePath: "/m/a/inside.txt", targetPath: "/m/b/stolen.txt" }] },
        });
        expect(copy.status).toBe(403);
        const copyIn = await t.request("POST", "/api/fs/batch-copy", {
          ...asKey(),
          body: { items: [{ sourcePath: "/m/ab/secret.txt", targetPath: "/m/a/secret.txt" }] },
        });
        expect(copyIn.status).toBe(403);
        expect(await names(t, "/m/b", admin)).toEqual(["other.txt"]);
        const rename = await t.request("POST", "/api/fs/rename", {
          ...asKey(),
          body: { oldPath: "/m/a/inside.txt", newPath: "/m/ab/inside.txt" },
        });
        expect(rename.status).toBe(403);
        const remove = await t.request("DELETE", "/api/fs/batch-remove", {
          ...asKey(),
          body: { paths: ["/m/a/new.txt", "/m/ab/secret.txt"] },
        });
        expect(remove.status).toBe(403);
        expect(remove.body.message).toBe("No permission to delete path: /m/ab/secret.txt");
        expect((await putFile(t, "/m/b/x.txt", "x", asKey())).status).toBe(403);
        expect(
          (await t.request("POST", "/api/fs/zip", { ...asKey(), body: { paths: ["/m/ab"] } })).status,
        ).toBe(403);
        expect(
          (
            await t.request("POST", "/api/fs/create-share", {
              ...asKey(),
              body: { path: "/m/ab/secret.txt" },
            })
          ).status,
        ).toBe(403);
        expect(
          (await t.request("POST", "/api/fs/presign", { ...asKey(), body: { path: "/m/b", fileName: "x" } }))
            .status,
        ).toBe(403);
        expect(
          (
            await t.request("POST", "/api/fs/multipart/init", {
              ...asKey(),
              body: { path: "/m/b", fileName: "x", fileSize: 1 },
            })
          ).status,
        ).toBe(403);
      });

      it("a copy onto the base path itself is not renamed to a sibling of it (a(1), a(2))", async () => {
        await mustPut(t, "/m/a/sub/file.txt", "sub", admin);
        const res = await t.request("POST", "/api/fs/batch-copy", {
          ...asKey(),
          body: {
            items: [
              { sourcePath: "/m/a/inside.txt", targetPath: "/m/a" },
              { sourcePath: "/m/a/sub/", targetPath: "/m/a" },
            ],
            skipExisting: false,
          },
        });
        expect(res.status, res.text).toBe(200);
        expect(res.body.data).toMatchObject({ success: 0, failed: 2 });
        for (const detail of res.body.data.details) {
          expect(detail).toMatchObject({ status: "failed", error: "No permission to access this path" });
        }
        const top = await names(t, "/m", admin);
        expect(top.filter((n) => n.startsWith("a("))).toEqual([]);
        // Inside the base path the free name is still found.
        const inside = await t.request("POST", "/api/fs/batch-copy", {
          ...asKey(),
          body: {
            items: [{ sourcePath: "/m/a/sub/file.txt", targetPath: "/m/a/sub/file.txt" }],
            skipExisting: false,
          },
        });
        expect(inside.body.data.details[0]).toMatchObject({
          status: "success",
          targetPath: "/m/a/sub/file(1).txt",
        });
        await t.request("DELETE", "/api/fs/batch-remove", { ...admin, body: { paths: ["/m/a/sub"] } });
      });

      it.each([
        ["..", "/m/a/../ab/secret.txt"],
        ["encoded ..", "/m/a/%2e%2e/ab/secret.txt"],
        ["double-encoded ..", "/m/a/%252e%252e/ab/secret.txt"],
        ["encoded slash", "/m/a/..%2fab/secret.txt"],
        ["a . segment", "/m/a/./inside.txt"],
        ["a backslash", "/m/a\\..\\ab\\secret.txt"],
        ["NUL", "/m/a/inside.txt\u0000"],
        ["an over-long path", `/m/a/${"x".repeat(2050)}`],
      ])("refuses %s (400)", async (_label, attempt) => {
        const res = await t.request("GET", `/api/fs/get?path=${encodeURIComponent(attempt)}`, asKey());
        expect(res.status).toBe(400);
        expect(res.body.error).toBe("invalid_path");
        expect((await download(t, attempt, admin)).status).toBe(400);
      });

      it("each operation needs its permission bit", async () => {
        const v = { apiKey: viewOnly.key };
        expect((await list(t, "/m/a", v)).status).toBe(200);
        const checks = [
          await t.request("POST", "/api/fs/mkdir", { ...v, body: { path: "/m/a/d" } }),
          await putFile(t, "/m/a/x.txt", "x", v),
          await t.request("POST", "/api/fs/update", { ...v, body: { path: "/m/a/x.txt", content: "x" } }),
          await t.request("POST", "/api/fs/rename", {
            ...v,
            body: { oldPath: "/m/a/inside.txt", newPath: "/m/a/y.txt" },
          }),
          await t.request("DELETE", "/api/fs/batch-remove", { ...v, body: { paths: ["/m/a/inside.txt"] } }),
          await t.request("POST", "/api/fs/batch-copy", {
            ...v,
            body: { items: [{ sourcePath: "/m/a/inside.txt", targetPath: "/m/a/z.txt" }] },
          }),
        ];
        for (const res of checks) {
          expect(res.status, res.text).toBe(403);
          expect(res.body.error).toBe("permission_denied");
        }
        expect(checks[0]!.body.message).toBe("The following permissions are required: Upload permission");
        const noView = await t.createApiKey(Permission.MOUNT_UPLOAD, { basic_path: "/m/a" });
        expect((await list(t, "/m/a", { apiKey: noView.key })).status).toBe(403);
        expect((await list(t, "/m/a", {})).status).toBe(401);
      });

      it("search only finds what lies under the key's base path", async () => {
        const res = await t.request("GET", "/api/fs/search?q=secret", asKey());
        expect(res.status).toBe(200);
        expect(res.body.data.results).toEqual([]);
        const mine = await t.request("GET", "/api/fs/search?q=inside", asKey());
        expect(mine.body.data.results.map((r: { path: string }) => r.path)).toEqual(["/m/a/inside.txt"]);
      });

      it("user cache clear only touches the key's own paths", async () => {
        await list(t, "/m/a", admin);
        await list(t, "/m/b", admin);
        const res = await t.request("POST", "/api/user/cache/clear", asKey());
        expect(res.status).toBe(200);
        expect(res.body.data.clearedCount).toBeGreaterThanOrEqual(1);
        expect((await list(t, "/m/b", admin)).body.data.cached).toBe(true);
        expect((await list(t, "/m/a", admin)).body.data.cached).toBe(false);
      });
    });

    describe("signed proxy /api/p", () => {
      let proxied: StorageUnderTest;
      const bytes = randomBytes(50_000);
      beforeAll(async () => {
        proxied = storage;
        await createMount(t, proxied, "/pub", { web_proxy: true, name: "Public" });
        await createMount(t, proxied, "/closed", { name: "Closed" });
        await mustPut(t, "/pub/p/file.bin", bytes, admin);
        await mustPut(t, "/pub/p/page.html", "<script>alert(1)</script>", admin);
      });
      const setSignAll = (signAll: boolean, expires = 0) =>
        t.request("POST", "/api/admin/proxy-sign-settings", { ...admin, body: { signAll, expires } });

      it("with sign-all on, needs the signature fs/get hands out; Range and ETag work", async () => {
        await setSignAll(true);
        const unsigned = await t.app.request("/api/p/pub/p/file.bin");
        expect(unsigned.status).toBe(401);
        expect(((await unsigned.json()) as { message: string }).message).toBe(
          "This file requires signed access (Global sign-all enabled)",
        );
        const got = await t.request("GET", "/api/fs/get?path=/pub/p/file.bin", admin);
        const url = new URL(got.body.data.preview_url);
        expect(url.pathname).toBe("/api/p/pub/p/file.bin");
        const res = await t.app.request(`${url.pathname}${url.search}`);
        expect(res.status).toBe(200);
        expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
        const range = await t.app.request(`${url.pathname}${url.search}`, {
          headers: { range: "bytes=0-9" },
        });
        expect(range.status).toBe(206);
        const etag = res.headers.get("etag")!;
        expect(
          (await t.app.request(`${url.pathname}${url.search}`, { headers: { "if-none-match": etag } }))
            .status,
        ).toBe(304);
        const dl = new URL(got.body.data.download_url);
        expect(
          (await t.app.request(`${dl.pathname}${dl.search}`)).headers.get("content-disposition"),
        ).toContain("attachment");
        const tampered = await t.app.request(
          `${url.pathname}?sign=${encodeURIComponent(`AAAA${url.searchParams.get("sign")}`)}`,
        );
        expect(((await tampered.json()) as { message: string }).message).toBe(
          "Signature verification failed: invalid_signature",
        );
        expect(
          ((await (await t.app.request("/api/p/pub/p/file.bin?sign=garbage")).json()) as { message: string })
            .message,
        ).toBe("Signature verification failed: malformed_signature");
      });

      it("signatures expire when the settings give them a lifetime", async () => {
        // Long enough that a slow remote answers in time; the wait below is to the signed second.
        await setSignAll(true, 3);
        const got = await t.request("GET", "/api/fs/get?path=/pub/p/file.bin", admin);
        const url = new URL(got.body.data.preview_url);
        expect((await t.app.request(`${url.pathname}${url.search}`)).status).toBe(200);
        const expiresAt = Number(url.searchParams.get("sign")?.split(":").pop());
        await new Promise((r) => setTimeout(r, expiresAt * 1000 - Date.now() + 50));
        const late = await t.app.request(`${url.pathname}${url.search}`);
        expect(late.status).toBe(401);
        expect(((await late.json()) as { message: string }).message).toBe(
          "Signature verification failed: signature_expired",
        );
      });

      it("with signing off the proxy is open; mounts without web proxy are not proxied", async () => {
        await setSignAll(false);
        try {
          const res = await t.app.request("/api/p/pub/p/file.bin?download=true");
          expect(res.status).toBe(200);
          expect(res.headers.get("content-disposition")).toContain("attachment");
          const html = await t.app.request("/api/p/pub/p/page.html");
          expect(html.headers.get("content-disposition")).toContain("attachment");
          expect(html.headers.get("x-content-type-options")).toBe("nosniff");
          await mustPut(t, "/closed/c.txt", "c", admin);
          const closed = await t.app.request("/api/p/closed/c.txt");
          expect(closed.status).toBe(404);
          expect(((await closed.json()) as { message: string }).message).toBe("Mount does not exist");
          expect((await t.app.request("/api/p/pub/p/..%2f..%2fclosed%2fc.txt")).status).toBe(400);
        } finally {
          await setSignAll(true);
        }
      });
    });

    describe("ZIP", () => {
      it("streams files and folders; unzip restores them byte-identical", async () => {
        const d = dir();
        const a = randomBytes(70_000);
        await mustPut(t, `${d}/a.bin`, a, admin);
        await mustPut(t, `${d}/folder/中文文件.txt`, "你好", admin);
        await mustPut(t, `${d}/folder/deeper/z.txt`, "zz", admin);
        const res = await t.app.request("/api/fs/zip", {
          method: "POST",
          headers: { authorization: `Bearer ${admin.token}`, "content-type": "application/json" },
          body: JSON.stringify({ paths: [`${d}/a.bin`, `${d}/folder`], name: "basket" }),
        });
        expect(res.status).toBe(200);
        expect(res.headers.get("content-type")).toBe("application/zip");
        expect(res.headers.get("content-disposition")).toBe('attachment; filename="basket.zip"');
        const zip = Buffer.from(await res.arrayBuffer());
        const { unzipTo } = await import("../support/unzip");
        const files = unzipTo(zip);
        expect(files.get("a.bin")!.equals(a)).toBe(true);
        expect(files.get("folder/中文文件.txt")!.toString()).toBe("你好");
        expect(files.get("folder/deeper/z.txt")!.toString()).toBe("zz");
        expect(createHash("sha256").update(zip).digest("hex")).toHaveLength(64);
      });
    });
  });
}
