/**
 * URL upload against a real local HTTP server reached through URL_FETCH_ALLOW:
 * url/info, url/proxy, url/presign → PUT → url/commit, url/cancel and
 * url/multipart/*. The server-side fetch task is in url-fetch.test.ts.
 */
import { Permission } from "@clipshare/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  MiB,
  type RemoteFiles,
  sha,
  startAppWithRemoteFiles,
  storedShareBytes,
} from "../support/remote-files";
import type { TestApp } from "../support/test-app";

describe("URL upload", () => {
  let t: TestApp;
  let token: string;
  let remote: RemoteFiles;

  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ t, token, remote, close } = await startAppWithRemoteFiles());
  });
  afterAll(() => close());

  const setMaxUpload = (max_upload_size: number, max_upload_size_unit: string) =>
    t.request("PUT", "/api/admin/system-settings", {
      token,
      body: { max_upload_size, max_upload_size_unit },
    });

  const fileRows = () => t.ctx.db.selectFrom("files").selectAll().execute();

  describe("url/info", () => {
    it("describes a remote file from its HEAD answer", async () => {
      const res = await t.request("POST", "/api/url/info", {
        token,
        body: { url: `${remote.base}/files/report.bin` },
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.data).toEqual({
        url: `${remote.base}/files/report.bin`,
        filename: "报告.bin",
        contentType: "application/x-custom",
        size: remote.report.length,
        lastModified: "2026-10-21T07:28:00.000Z",
        method: "HEAD",
        corsSupported: false,
        rangesSupported: true,
      });
    });

    it("falls back to a one-byte GET when HEAD is refused, naming the file after the path", async () => {
      const res = await t.request("POST", "/api/url/info", {
        token,
        body: { url: `${remote.base}/no-head/photo.png` },
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.data).toMatchObject({
        filename: "photo.png",
        contentType: "image/png",
        size: 4096,
        method: "GET",
        rangesSupported: true,
      });
    });

    it.each([
      [{}, 400, "Missing URL parameter"],
      [{ url: "ftp://example.com/a" }, 400, "Only HTTP/HTTPS URLs are supported"],
      [{ url: "nonsense" }, 400, "Invalid URL format"],
    ])("refuses bad input %j", async (body, status, message) => {
      const res = await t.request("POST", "/api/url/info", { token, body });
      expect(res.status).toBe(status);
      expect(res.body).toMatchObject({ success: false, message });
    });

    it("refuses private targets, directly or through a redirect, without connecting", async () => {
      for (const url of [
        `http://127.0.0.1:${remote.targetPort}/`,
        `http://[::1]:${remote.targetPort}/`,
        `${remote.base}/to-private`,
      ]) {
        const res = await t.request("POST", "/api/url/info", { token, body: { url } });
        expect(res.status, url).toBe(400);
        expect(res.body.error).toBe("url_not_allowed");
      }
      expect(remote.targetConnections()).toBe(0);
    });

    it("reports a remote error status as 502 with the 0.7.3 text", async () => {
      const res = await t.request("POST", "/api/url/info", {
        token,
        body: { url: `${remote.base}/missing` },
      });
      expect(res.status).toBe(502);
      expect(res.body.message).toBe("Server returned error status: 404");
    });

    it("needs the file-share permission", async () => {
      expect((await t.request("POST", "/api/url/info", { body: { url: `${remote.base}/x` } })).status).toBe(
        401,
      );
      const key = await t.createApiKey(Permission.TEXT);
      const res = await t.request("POST", "/api/url/info", {
        apiKey: key.key,
        body: { url: `${remote.base}/x` },
      });
      expect(res.status).toBe(403);
    });
  });

  describe("url/proxy", () => {
    it("streams the remote file as an attachment that cannot run script, forwarding no credentials", async () => {
      remote.seenHeaders.length = 0;
      const res = await t.app.request(
        `/api/url/proxy?url=${encodeURIComponent(`${remote.base}/files/report.bin`)}`,
        {
          headers: { authorization: `Bearer ${token}`, cookie: "session=abc" },
        },
      );
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(remote.report)).toBe(true);
      expect(res.headers.get("content-disposition")).toMatch(/^attachment;/);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("content-security-policy")).toContain("sandbox");
      expect(remote.seenHeaders[0]?.cookie).toBeUndefined();
      expect(remote.seenHeaders[0]?.authorization).toBeUndefined();
      const html = await t.app.request(
        `/api/url/proxy?url=${encodeURIComponent(`${remote.base}/page.html`)}`,
        {
          headers: { authorization: `Bearer ${token}` },
        },
      );
      expect(html.headers.get("content-disposition")).toMatch(/^attachment;/);
      expect(html.headers.get("content-security-policy")).toContain("default-src 'none'");
    });

    it("refuses a remote file above the max upload size before streaming it", async () => {
      await setMaxUpload(1, "MB");
      try {
        const res = await t.request("GET", `/api/url/proxy?url=${encodeURIComponent(`${remote.base}/big`)}`, {
          token,
        });
        expect(res.status).toBe(413);
        expect(res.body.message).toContain("File size exceeds system limit");
      } finally {
        await setMaxUpload(100, "MB");
      }
    });

    it("answers 400 without a url and refuses private targets", async () => {
      expect((await t.request("GET", "/api/url/proxy", { token })).body.message).toBe(
        "Missing URL parameter",
      );
      const res = await t.request(
        "GET",
        `/api/url/proxy?url=${encodeURIComponent(`http://127.1:${remote.targetPort}/`)}`,
        {
          token,
        },
      );
      expect(res.status).toBe(400);
      expect(remote.targetConnections()).toBe(0);
    });
  });

  describe("browser path: presign, PUT, commit, cancel", () => {
    /** What the browser does with a presigned URL: PUT the remote file's bytes to it. */
    const putToPresignedUrl = async (url: string) => {
      const put = await t.app.request(url.replace(/^https?:\/\/[^/]+/, ""), {
        method: "PUT",
        body: remote.report,
      });
      expect(put.status).toBe(200);
    };

    it("reserves a share named after the remote file with its options applied, then commits", async () => {
      const configId = (await t.request("GET", "/api/s3-configs", { token })).body.data[0].id;
      const pre = await t.request("POST", "/api/url/presign", {
        token,
        body: {
          url: `${remote.base}/files/report.bin`,
          s3_config_id: configId,
          password: "pw-123456",
          max_views: 3,
        },
      });
      expect(pre.status, pre.text).toBe(200);
      expect(pre.body.data).toMatchObject({
        sourceUrl: `${remote.base}/files/report.bin`,
        corsSupported: false,
        hasPassword: true,
        maxViews: 3,
        contentType: "application/x-custom",
      });
      await putToPresignedUrl(pre.body.data.upload_url);
      const commit = await t.request("POST", "/api/url/commit", {
        token,
        body: { file_id: pre.body.data.file_id },
      });
      expect(commit.status, commit.text).toBe(200);
      expect(commit.body.data).toMatchObject({
        filename: "报告.bin",
        size: remote.report.length,
        status: "active",
      });
    });

    it("commit applies the password, expiry and max views a 0.7.3 client sends with it", async () => {
      const configId = (await t.request("GET", "/api/s3-configs", { token })).body.data[0].id;
      const pre = await t.request("POST", "/api/url/presign", {
        token,
        body: { url: `${remote.base}/files/report.bin`, s3_config_id: configId },
      });
      expect(pre.status, pre.text).toBe(200);
      await putToPresignedUrl(pre.body.data.upload_url);
      const commit = await t.request("POST", "/api/url/commit", {
        token,
        body: {
          file_id: pre.body.data.file_id,
          password: "pw-at-commit",
          expires_in: 24,
          max_views: 2,
          remark: "late",
        },
      });
      expect(commit.status, commit.text).toBe(200);
      expect(commit.body.data).toMatchObject({ has_password: true, max_views: 2, remark: "late" });
      expect(commit.body.data.expires_at).toEqual(expect.any(String));
      // The share is protected: a visitor sees the password prompt, not the file.
      const slug = commit.body.data.slug;
      const visit = await t.request("GET", `/api/public/files/${slug}`);
      expect(visit.body.data).toMatchObject({ requires_password: true });
      expect(visit.body.data.downloadUrl).toBeUndefined();
    });

    it("uses complete client metadata without asking the remote server", async () => {
      const configId = (await t.request("GET", "/api/s3-configs", { token })).body.data[0].id;
      remote.seenHeaders.length = 0;
      const pre = await t.request("POST", "/api/url/presign", {
        token,
        body: {
          url: `${remote.base}/files/report.bin`,
          s3_config_id: configId,
          metadata: { filename: "given.txt", contentType: "text/plain", size: 10 },
        },
      });
      expect(pre.status, pre.text).toBe(200);
      expect(remote.seenHeaders).toHaveLength(0);
      const cancel = await t.request("POST", "/api/url/cancel", {
        token,
        body: { file_id: pre.body.data.file_id },
      });
      expect(cancel.body.data).toEqual({
        file_id: pre.body.data.file_id,
        status: "cancelled",
        message: "File record deleted",
      });
      expect((await fileRows()).some((r) => r.id === pre.body.data.file_id)).toBe(false);
      const again = await t.request("POST", "/api/url/cancel", {
        token,
        body: { file_id: pre.body.data.file_id },
      });
      expect(again.status).toBe(404);
      expect(again.body.message).toBe("File does not exist or was deleted");
    });

    it("validates presign input with the 0.7.3 texts", async () => {
      const noConfig = await t.request("POST", "/api/url/presign", {
        token,
        body: { url: `${remote.base}/a.txt` },
      });
      expect(noConfig.status).toBe(400);
      expect(noConfig.body.message).toBe("Missing S3 config ID parameter");
      const noUrl = await t.request("POST", "/api/url/presign", { token, body: { s3_config_id: "x" } });
      expect(noUrl.body.message).toBe("Missing URL parameter");
    });
  });

  describe("url/multipart", () => {
    /** PUTs each part to its URL (signed LOCAL URLs on this server) and returns the ETags. */
    const sendParts = async (urls: { partNumber: number; url: string }[], partSize: number) => {
      const parts: { partNumber: number; etag: string }[] = [];
      for (const { partNumber, url } of urls) {
        const chunk = remote.eleven.subarray((partNumber - 1) * partSize, partNumber * partSize);
        const res = await t.app.request(url.replace(/^https?:\/\/[^/]+/, ""), { method: "PUT", body: chunk });
        expect(res.status, await res.clone().text()).toBe(200);
        parts.push({ partNumber, etag: (res.headers.get("etag") ?? "").replace(/"/g, "") });
      }
      return parts;
    };

    it("sizes the share from the remote file, takes the parts and completes byte-identical", async () => {
      const init = await t.request("POST", "/api/url/multipart/init", {
        token,
        body: {
          url: `${remote.base}/files/eleven.bin`,
          s3_config_id: (await t.request("GET", "/api/s3-configs", { token })).body.data[0].id,
          part_size: 5 * MiB,
          part_count: 3,
          password: "pw-multipart",
        },
      });
      expect(init.status, init.text).toBe(200);
      expect(init.body.data).toMatchObject({
        filename: "eleven.bin",
        contentType: "video/mp4",
        totalSize: remote.eleven.length,
        partCount: 3,
        hasPassword: true,
        sourceUrl: `${remote.base}/files/eleven.bin`,
      });
      expect(init.body.data.presigned_urls).toHaveLength(3);
      const parts = await sendParts(init.body.data.presigned_urls, 5 * MiB);
      const done = await t.request("POST", "/api/url/multipart/complete", {
        token,
        body: { file_id: init.body.data.file_id, upload_id: init.body.data.upload_id, parts },
      });
      expect(done.status, done.text).toBe(200);
      expect(done.body.data).toMatchObject({
        success: true,
        fileId: init.body.data.file_id,
        size: remote.eleven.length,
      });
      const row = (await fileRows()).find((r) => r.id === init.body.data.file_id)!;
      expect(row.status).toBe("active");
      expect(sha(await storedShareBytes(t, row.id))).toBe(sha(remote.eleven));
    });

    it("abort removes the record; a missing or bad part plan and an unknown size are refused", async () => {
      const configId = (await t.request("GET", "/api/s3-configs", { token })).body.data[0].id;
      const init = await t.request("POST", "/api/url/multipart/init", {
        token,
        body: {
          url: `${remote.base}/files/eleven.bin`,
          s3_config_id: configId,
          part_size: 5 * MiB,
          part_count: 3,
        },
      });
      const ref = { file_id: init.body.data.file_id, upload_id: init.body.data.upload_id };
      const abort = await t.request("POST", "/api/url/multipart/abort", { token, body: ref });
      expect(abort.status, abort.text).toBe(200);
      expect((await fileRows()).some((r) => r.id === ref.file_id)).toBe(false);
      const noPlan = await t.request("POST", "/api/url/multipart/init", {
        token,
        body: { url: `${remote.base}/files/eleven.bin`, s3_config_id: configId },
      });
      expect(noPlan.status).toBe(400);
      const badPlan = await t.request("POST", "/api/url/multipart/init", {
        token,
        body: {
          url: `${remote.base}/files/eleven.bin`,
          s3_config_id: configId,
          part_size: 5 * MiB,
          part_count: 2,
        },
      });
      expect(badPlan.status).toBe(400);
      expect(badPlan.body.message).toContain("smaller than total_size");
      const unknown = await t.request("POST", "/api/url/multipart/init", {
        token,
        body: {
          url: `${remote.base}/big-chunked`,
          s3_config_id: configId,
          part_size: 5 * MiB,
          part_count: 1,
        },
      });
      expect(unknown.status).toBe(400);
      expect(unknown.body.error).toBe("size_unknown");
      const missing = await t.request("POST", "/api/url/multipart/complete", {
        token,
        body: { file_id: ref.file_id, upload_id: ref.upload_id },
      });
      expect(missing.body.message).toBe("Missing part list parameter");
    });
  });
});
