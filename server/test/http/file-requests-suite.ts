/**
 * File requests (/api/requests, /api/public/requests/:slug) against one
 * storage backend: file-requests.test.ts runs it on LOCAL (signed part URLs to
 * ClipShare), file-requests-s3.test.ts on the Swift S3 server (presigned
 * UploadPart URLs). Each test builds its own request, so they run in any order.
 */
import { randomBytes } from "node:crypto";
import {
  fileRequestDetail,
  fileRequestList,
  Permission,
  publicFileRequest,
  receivedFile,
  requestUploadResume,
  requestUploadStarted,
} from "@clipshare/shared";
import { beforeAll, describe, expect, it } from "vitest";
import { type Auth, mountStorageAtM, mustPut, names, type StorageUnderTest } from "../support/fs-helpers";
import type { TestApp } from "../support/test-app";
import { putPart } from "./files-multipart-suite";

const MiB = 1024 * 1024;
const PART = 5 * MiB;

export function describeFileRequestSuite(
  label: string,
  makeStorage: (t: TestApp) => Promise<StorageUnderTest>,
) {
  describe(`file requests on ${label}`, () => {
    let t: TestApp;
    let admin: Auth;
    let storage: StorageUnderTest;
    let creatorKey: string;
    let creatorId: string;

    mountStorageAtM(makeStorage, (setup) => {
      ({ t, storage, admin } = setup);
    });

    beforeAll(async () => {
      const key = await t.createApiKey(
        Permission.FILE_SHARE | Permission.MOUNT_VIEW | Permission.MOUNT_UPLOAD,
      );
      creatorKey = key.key;
      creatorId = key.id;
      // API keys may use public storage configs only.
      await t.ctx.db
        .updateTable("storage_configs")
        .set({ is_public: 1 })
        .where("id", "=", storage.configId)
        .execute();
      await t.request("POST", "/api/fs/mkdir", { ...admin, body: { path: "/m/inbox" } });
    });

    async function createRequest(body: Record<string, unknown>, auth: Auth = { apiKey: creatorKey }) {
      const res = await t.request("POST", "/api/requests", {
        ...auth,
        body: {
          title: "Send me files",
          target: { kind: "share", storage_config_id: storage.configId },
          ...body,
        },
      });
      expect(res.status, res.text).toBe(201);
      return res.body.data as { id: string; slug: string; url: string };
    }

    const visitorHeaders = (token?: string, lang?: string): Record<string, string> => ({
      ...(token ? { "x-file-request-token": token } : {}),
      ...(lang ? { "accept-language": lang } : {}),
    });

    const startUpload = (
      slug: string,
      name: string,
      size: number,
      extra: Record<string, unknown> = {},
      token?: string,
    ) => {
      const partCount = Math.max(1, Math.ceil(size / PART));
      return t.request("POST", `/api/public/requests/${slug}/uploads`, {
        headers: visitorHeaders(token),
        body: {
          filename: name,
          size,
          part_size: partCount > 1 ? PART : size,
          part_count: partCount,
          ...extra,
        },
      });
    };

    /** The whole visitor flow for one file: start, PUT every part, complete. */
    async function sendFile(
      slug: string,
      name: string,
      bytes: Buffer,
      extra: Record<string, unknown> = {},
      token?: string,
    ) {
      const started = await startUpload(slug, name, bytes.length, extra, token);
      if (started.status !== 201) return started;
      const { upload_id: uploadId, presigned_urls: urls, part_size: partSize } = started.body.data;
      const parts: Array<{ partNumber: number; etag: string }> = [];
      for (const { partNumber, url } of urls as Array<{ partNumber: number; url: string }>) {
        const res = await putPart(t, url, bytes.subarray((partNumber - 1) * partSize, partNumber * partSize));
        expect(res.status, await res.clone().text()).toBe(200);
        parts.push({ partNumber, etag: res.headers.get("etag")!.replace(/"/g, "") });
      }
      return t.request("POST", `/api/public/requests/${slug}/uploads/${uploadId}/complete`, {
        headers: visitorHeaders(token),
        body: { parts },
      });
    }

    /** Objects under the storage's share area: what uploads left behind, stored or not. */
    async function storedObjects(): Promise<string[]> {
      const { driver } = await t.ctx.storageConfigs.driverById(storage.configId);
      const found: string[] = [];
      const walk = async (dir: string) => {
        const listing = await driver
          .list(dir)
          .catch(() => ({ entries: [] as Array<{ path: string; isDirectory: boolean }> }));
        for (const entry of listing.entries) {
          if (entry.isDirectory) await walk(entry.path);
          else found.push(entry.path);
        }
      };
      await walk("");
      return found;
    }

    it("20 uploads racing for 5 slots: exactly 5 stored, 15 refused, nothing left of the refused", async () => {
      const request = await createRequest({ max_files: 5 });
      const before = await storedObjects();
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => sendFile(request.slug, `race-${i}.bin`, randomBytes(1000 + i))),
      );
      const received = results.filter((r) => r.status === 200);
      const refused = results.filter((r) => r.status !== 200);
      expect(received).toHaveLength(5);
      expect(refused).toHaveLength(15);
      for (const r of refused)
        expect(r.body).toMatchObject({ success: false, code: 409, error: "request_full" });
      const detail = await t.request("GET", `/api/requests/${request.id}`, { apiKey: creatorKey });
      expect(detail.body.data.reserved_files).toBe(5);
      expect(detail.body.data.state).toBe("full");
      expect(
        detail.body.data.uploads.filter((u: { status: string }) => u.status === "received"),
      ).toHaveLength(5);
      const after = await storedObjects();
      expect(after.filter((p) => !before.includes(p))).toHaveLength(5);
      // The shares belong to the request's creator.
      const shares = await t.ctx.db
        .selectFrom("files")
        .select(["created_by", "status"])
        .where("remark", "=", "File request: Send me files")
        .execute();
      expect(shares.filter((s) => s.status === "active")).toHaveLength(5);
      for (const s of shares) expect(s.created_by).toBe(`apikey:${creatorId}`);
    });

    it("a file in parts arrives as the creator's share; its uploader's note is in the request's list", async () => {
      const request = await createRequest({ show_received: true });
      const file = randomBytes(PART + 12_345);
      const done = await sendFile(request.slug, "report.pdf", file, {
        uploader_name: "Ana",
        note: "Q3 numbers",
      });
      expect(done.status, done.text).toBe(200);
      expect(done.body.data).toMatchObject({ filename: "report.pdf", size: file.length });
      // Every answer is what the shared response schemas (and the OpenAPI document) say.
      receivedFile.parse(done.body.data);
      const detail = await t.request("GET", `/api/requests/${request.id}`, { apiKey: creatorKey });
      fileRequestDetail.parse(detail.body.data);
      const [upload] = detail.body.data.uploads;
      expect(upload).toMatchObject({
        status: "received",
        filename: "report.pdf",
        uploader_name: "Ana",
        note: "Q3 numbers",
      });
      const download = await t.app.request(`/api/file-download/${upload.file_slug}`);
      expect(download.status).toBe(200);
      expect(Buffer.from(await download.arrayBuffer()).equals(file)).toBe(true);
      // The visitor sees what arrived (names and sizes only) when the creator allows it.
      const page = await t.request("GET", `/api/public/requests/${request.slug}`);
      publicFileRequest.parse(page.body.data);
      expect(page.body.data.received).toEqual([
        expect.objectContaining({ filename: "report.pdf", size: file.length }),
      ]);
      expect(JSON.stringify(page.body.data)).not.toContain("Q3 numbers");
    });

    it("a part bigger than announced, or a file of another size, is refused and leaves nothing", async () => {
      const request = await createRequest({ max_files: 1 });
      const before = await storedObjects();
      const started = await startUpload(request.slug, "liar.bin", 1000);
      expect(started.status, started.text).toBe(201);
      const { upload_id: uploadId, presigned_urls: urls } = started.body.data;
      const put = await putPart(t, urls[0].url, randomBytes(2000));
      const parts =
        put.status === 200 ? [{ partNumber: 1, etag: put.headers.get("etag")!.replace(/"/g, "") }] : [];
      if (put.status === 200) {
        // S3 takes any part size: the complete refuses the file instead.
        const done = await t.request(
          "POST",
          `/api/public/requests/${request.slug}/uploads/${uploadId}/complete`,
          { body: { parts } },
        );
        expect(done.status, done.text).toBe(400);
        expect(done.body.error).toBe("request_size_mismatch");
      } else {
        expect(put.status).toBe(413);
        const aborted = await t.request(
          "POST",
          `/api/public/requests/${request.slug}/uploads/${uploadId}/abort`,
        );
        expect(aborted.status, aborted.text).toBe(200);
      }
      expect((await storedObjects()).filter((p) => !before.includes(p))).toEqual([]);
      // The slot came back: the one file the request takes can still come.
      const page = await t.request("GET", `/api/public/requests/${request.slug}`);
      expect(page.body.data).toMatchObject({ state: "open", remaining_files: 1 });
      expect((await sendFile(request.slug, "honest.bin", randomBytes(1000))).status).toBe(200);
    });

    it("limits: per-file size, total bytes and types are refused before any byte is stored", async () => {
      const request = await createRequest({
        max_file_bytes: 5000,
        max_total_bytes: 8000,
        allowed_types: [".pdf", "image/*"],
      });
      const big = await startUpload(request.slug, "a.pdf", 6000);
      expect(big.status).toBe(413);
      expect(big.body.error).toBe("request_file_too_large");
      const exe = await startUpload(request.slug, "a.exe", 100);
      expect(exe.status).toBe(415);
      expect(exe.body.error).toBe("request_type_not_allowed");
      expect((await sendFile(request.slug, "photo.png", randomBytes(5000))).status).toBe(200);
      const over = await startUpload(request.slug, "b.pdf", 4000);
      expect(over.status).toBe(409);
      expect(over.body.error).toBe("request_full");
      expect((await sendFile(request.slug, "b.pdf", randomBytes(3000))).status).toBe(200);
    });

    it("names that are paths are refused", async () => {
      const request = await createRequest({});
      for (const name of ["../evil.txt", "a/b.txt", "a\\b.txt", "nul\u0000.txt", "..", "/etc/passwd"]) {
        const res = await startUpload(request.slug, name, 10);
        expect(res.status, `${JSON.stringify(name)}: ${res.text}`).toBe(400);
      }
      const page = await t.request("GET", `/api/public/requests/${request.slug}`);
      expect(page.body.data.remaining_files).toBeNull();
      const detail = await t.request("GET", `/api/requests/${request.id}`, { apiKey: creatorKey });
      expect(detail.body.data.reserved_files).toBe(0);
    });

    it("closed and expired requests say so, in English and Chinese", async () => {
      const request = await createRequest({});
      const closed = await t.request("PUT", `/api/requests/${request.id}`, {
        apiKey: creatorKey,
        body: { status: "closed" },
      });
      expect(closed.body.data.state).toBe("closed");
      const en = await t.request("POST", `/api/public/requests/${request.slug}/uploads`, {
        headers: visitorHeaders(undefined, "en"),
        body: { filename: "a.txt", size: 1, part_size: 1, part_count: 1 },
      });
      expect(en.status).toBe(410);
      expect(en.body).toMatchObject({ error: "request_closed" });
      const zh = await t.request("POST", `/api/public/requests/${request.slug}/uploads`, {
        headers: visitorHeaders(undefined, "zh-CN"),
        body: { filename: "a.txt", size: 1, part_size: 1, part_count: 1 },
      });
      expect(zh.body.message).toContain("已关闭");
      await t.request("PUT", `/api/requests/${request.id}`, { apiKey: creatorKey, body: { status: "open" } });
      expect((await sendFile(request.slug, "reopened.txt", Buffer.from("hi"))).status).toBe(200);
      await t.ctx.db
        .updateTable("file_requests")
        .set({ expires_at: "2000-01-01T00:00:00.000Z" })
        .where("id", "=", request.id)
        .execute();
      const expired = await startUpload(request.slug, "late.txt", 3);
      expect(expired.status).toBe(410);
      expect(expired.body.error).toBe("request_expired");
      expect((await t.request("GET", `/api/public/requests/${request.slug}`)).body.data.state).toBe(
        "expired",
      );
    });

    it("a password: locked until unlocked, wrong guesses counted by the rate limiter", async () => {
      const request = await createRequest({ password: "open sesame", message: "Only for the team" });
      const page = await t.request("GET", `/api/public/requests/${request.slug}`);
      expect(page.body.data).toMatchObject({ password_required: true, unlocked: false, message: null });
      expect((await startUpload(request.slug, "a.txt", 3)).status).toBe(401);
      const wrong = await t.request("POST", `/api/public/requests/${request.slug}/unlock`, {
        body: { password: "nope" },
      });
      expect(wrong.status).toBe(401);
      expect(wrong.body.error).toBe("wrong_password");
      const right = await t.request("POST", `/api/public/requests/${request.slug}/unlock`, {
        body: { password: "open sesame" },
      });
      expect(right.status, right.text).toBe(200);
      const token = right.body.data.token as string;
      const unlocked = await t.request("GET", `/api/public/requests/${request.slug}`, {
        headers: visitorHeaders(token),
      });
      expect(unlocked.body.data).toMatchObject({ unlocked: true, message: "Only for the team" });
      expect((await sendFile(request.slug, "a.txt", Buffer.from("abc"), {}, token)).status).toBe(200);
    });

    it("abandoned uploads give their slot back: abort at once, lapsed ones in housekeeping", async () => {
      const request = await createRequest({ max_files: 1 });
      const first = await startUpload(request.slug, "a.bin", 100);
      expect(first.status).toBe(201);
      requestUploadStarted.parse(first.body.data);
      const resumed = await t.request(
        "POST",
        `/api/public/requests/${request.slug}/uploads/${first.body.data.upload_id}/resume`,
      );
      expect(resumed.status, resumed.text).toBe(200);
      requestUploadResume.parse(resumed.body.data);
      expect((await startUpload(request.slug, "b.bin", 100)).status).toBe(409);
      const aborted = await t.request(
        "POST",
        `/api/public/requests/${request.slug}/uploads/${first.body.data.upload_id}/abort`,
      );
      expect(aborted.status, aborted.text).toBe(200);
      const second = await startUpload(request.slug, "b.bin", 100);
      expect(second.status).toBe(201);
      // Nobody finishes it: a day later housekeeping ends it and frees the slot.
      await t.ctx.housekeeping.run({ now: new Date(Date.now() + 25 * 3600_000) });
      const detail = await t.request("GET", `/api/requests/${request.id}`, { apiKey: creatorKey });
      expect(detail.body.data).toMatchObject({ reserved_files: 0, reserved_bytes: 0, uploads: [] });
      expect(
        (
          await t.request(
            "POST",
            `/api/public/requests/${request.slug}/uploads/${second.body.data.upload_id}/resume`,
          )
        ).status,
      ).toBe(404);
    });

    it("management: list, edit, delete; only the creator (and the admin) sees a request", async () => {
      const request = await createRequest({ title: "Mine" });
      const other = await t.createApiKey(Permission.FILE_SHARE);
      expect((await t.request("GET", `/api/requests/${request.id}`, { apiKey: other.key })).status).toBe(404);
      expect((await t.request("DELETE", `/api/requests/${request.id}`, { apiKey: other.key })).status).toBe(
        404,
      );
      const noBit = await t.createApiKey(Permission.MOUNT_VIEW);
      expect((await t.request("GET", "/api/requests", { apiKey: noBit.key })).status).toBe(403);
      expect((await t.request("GET", "/api/requests")).status).toBe(401);
      const listed = await t.request("GET", "/api/requests?limit=200", { apiKey: creatorKey });
      const page = fileRequestList.parse(listed.body.data);
      expect(page.requests.map((r) => r.id)).toContain(request.id);
      expect((await t.request("GET", "/api/requests", { apiKey: other.key })).body.data.requests).toEqual([]);
      const edited = await t.request("PUT", `/api/requests/${request.id}`, {
        apiKey: creatorKey,
        body: { title: "Renamed", max_files: 3 },
      });
      expect(edited.body.data).toMatchObject({ title: "Renamed", max_files: 3 });
      expect((await t.request("GET", `/api/requests/${request.id}`, admin)).status).toBe(200);
      expect((await t.request("DELETE", `/api/requests/${request.id}`, { apiKey: creatorKey })).status).toBe(
        200,
      );
      expect((await t.request("GET", `/api/public/requests/${request.slug}`)).status).toBe(404);
    });

    it("the list comes a page at a time, newest first, and searches titles", async () => {
      const key = (await t.createApiKey(Permission.FILE_SHARE)).key;
      for (const title of ["Alpha scans", "Beta scans", "Gamma photos"])
        await createRequest({ title, target: { kind: "share" } }, { apiKey: key });
      const first = fileRequestList.parse(
        (await t.request("GET", "/api/requests?limit=2", { apiKey: key })).body.data,
      );
      expect(first.requests.map((r) => r.title)).toEqual(["Gamma photos", "Beta scans"]);
      expect(first.pagination).toEqual({ total: 3, limit: 2, offset: 0, hasMore: true });
      const second = fileRequestList.parse(
        (await t.request("GET", "/api/requests?limit=2&offset=2", { apiKey: key })).body.data,
      );
      expect(second.requests.map((r) => r.title)).toEqual(["Alpha scans"]);
      const found = fileRequestList.parse(
        (await t.request("GET", "/api/requests?search=scans", { apiKey: key })).body.data,
      );
      expect(found.requests.map((r) => r.title).sort()).toEqual(["Alpha scans", "Beta scans"]);
    });

    it("deleting a received file frees its slot: from the request, or as a file share", async () => {
      const request = await createRequest({ max_files: 2 });
      expect((await sendFile(request.slug, "one.txt", Buffer.from("1"))).status).toBe(200);
      expect((await sendFile(request.slug, "two.txt", Buffer.from("2"))).status).toBe(200);
      expect((await startUpload(request.slug, "three.txt", 1)).body.error).toBe("request_full");
      const detail = fileRequestDetail.parse(
        (await t.request("GET", `/api/requests/${request.id}`, { apiKey: creatorKey })).body.data,
      );
      const [newest, oldest] = detail.uploads;
      // From the request's list: the file share goes with it.
      const removed = await t.request("DELETE", `/api/requests/${request.id}/uploads/${newest!.id}`, {
        apiKey: creatorKey,
      });
      expect(removed.status, removed.text).toBe(200);
      expect((await t.request("GET", `/api/files/${newest!.file_id}`, admin)).status).toBe(404);
      expect((await sendFile(request.slug, "three.txt", Buffer.from("3"))).status).toBe(200);
      // In file management: deleting the share frees the slot as well.
      const del = await t.request("DELETE", "/api/files/batch-delete", {
        apiKey: creatorKey,
        body: { ids: [oldest!.file_id] },
      });
      expect(del.body.data.success).toBe(1);
      const state = await t.request("GET", `/api/public/requests/${request.slug}`);
      expect(state.body.data).toMatchObject({ state: "open", remaining_files: 1 });
      expect((await sendFile(request.slug, "four.txt", Buffer.from("4"))).status).toBe(200);
    });

    it("closing a request stops the uploads under way: they cannot complete, nothing is stored", async () => {
      const request = await createRequest({});
      const bytes = Buffer.from("arrives too late");
      const started = await startUpload(request.slug, "late.txt", bytes.length);
      expect(started.status, started.text).toBe(201);
      const { upload_id: uploadId, presigned_urls: urls } = started.body.data;
      const put = await putPart(t, urls[0].url, bytes);
      const before = await storedObjects();
      const closed = await t.request("PUT", `/api/requests/${request.id}`, {
        apiKey: creatorKey,
        body: { status: "closed" },
      });
      expect(closed.body.data).toMatchObject({ state: "closed", reserved_files: 0 });
      const complete = await t.request(
        "POST",
        `/api/public/requests/${request.slug}/uploads/${uploadId}/complete`,
        {
          body: { parts: [{ partNumber: 1, etag: put.headers.get("etag")!.replace(/"/g, "") }] },
        },
      );
      expect(complete.status).toBe(410);
      expect(complete.body.error).toBe("request_closed");
      const detail = fileRequestDetail.parse(
        (await t.request("GET", `/api/requests/${request.id}`, { apiKey: creatorKey })).body.data,
      );
      expect(detail.uploads).toEqual([]);
      expect((await storedObjects()).length).toBeLessThanOrEqual(before.length);
    });

    it("a folder request: unique names, nothing overwritten, no listing, nothing outside the folder", async () => {
      await mustPut(t, "/m/inbox/notes.txt", "the owner's notes", admin);
      const request = await createRequest({ target: { kind: "folder", path: "/m/inbox" } });
      expect((await sendFile(request.slug, "notes.txt", Buffer.from("visitor 1"))).status).toBe(200);
      expect((await sendFile(request.slug, "notes.txt", Buffer.from("visitor 2"))).status).toBe(200);
      expect(await names(t, "/m/inbox", admin)).toEqual(
        expect.arrayContaining(["notes.txt", "notes (1).txt", "notes (2).txt"]),
      );
      const kept = await t.app.request("/api/fs/download?path=/m/inbox/notes.txt", {
        headers: { authorization: `Bearer ${admin.token}` },
      });
      expect(await kept.text()).toBe("the owner's notes");
      const detail = await t.request("GET", `/api/requests/${request.id}`, { apiKey: creatorKey });
      expect(detail.body.data.uploads.map((u: { path: string }) => u.path).sort()).toEqual([
        "/m/inbox/notes (1).txt",
        "/m/inbox/notes (2).txt",
      ]);
      // Uploads of one name at the same time each claim another name.
      const racing = await Promise.all(
        [1, 2, 3].map((n) => sendFile(request.slug, "same.txt", Buffer.from(`copy ${n}`))),
      );
      expect(racing.map((r) => r.status)).toEqual([200, 200, 200]);
      expect(await names(t, "/m/inbox", admin)).toEqual(
        expect.arrayContaining(["same.txt", "same (1).txt", "same (2).txt"]),
      );
      // A visitor's answers name nothing of the folder.
      const page = await t.request("GET", `/api/public/requests/${request.slug}`);
      expect(page.text).not.toContain("/m/inbox");
      for (const name of ["../escape.txt", "sub/escape.txt", "nul\u0000.txt"]) {
        expect((await startUpload(request.slug, name, 3)).status).toBe(400);
      }
      expect(await names(t, "/m", admin)).not.toContain("escape.txt");
    });

    it("a folder target must be a folder the creator may write to", async () => {
      const confined = await t.createApiKey(
        Permission.FILE_SHARE | Permission.MOUNT_VIEW | Permission.MOUNT_UPLOAD,
        { basic_path: "/m/inbox" },
      );
      for (const path of ["/m", "/m/inbox/../", "/elsewhere", "/m/inbox/notes.txt"]) {
        const res = await t.request("POST", "/api/requests", {
          apiKey: confined.key,
          body: { title: "x", target: { kind: "folder", path } },
        });
        expect(res.status, `${path}: ${res.text}`).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
      }
      const viewOnly = await t.createApiKey(Permission.FILE_SHARE | Permission.MOUNT_VIEW);
      const refused = await t.request("POST", "/api/requests", {
        apiKey: viewOnly.key,
        body: { title: "x", target: { kind: "folder", path: "/m/inbox" } },
      });
      expect(refused.status).toBe(403);
    });
  });
}
