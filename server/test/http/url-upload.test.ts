/**
 * URL upload against a real local HTTP server reached through URL_FETCH_ALLOW:
 * url/info, url/proxy, url/presign → PUT → url/commit, url/cancel, and the
 * server-side fetch task (success, cancel, size limit, SSRF refusal).
 */
import { createHash, randomBytes } from "node:crypto";
import { readdirSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Permission } from "@clipshare/shared";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createLocalStorage, createMount, readBytes, waitForTask } from "../support/fs-helpers";
import { createTestApp, type TestApp } from "../support/test-app";

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");

function listen(server: http.Server, host: string): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, host, () => resolve((server.address() as AddressInfo).port)),
  );
}

describe("URL upload", () => {
  let t: TestApp;
  let token: string;
  const payload = randomBytes(3 * 1024 * 1024 + 123);
  let remotePort = 0;
  let base = "";
  const seenHeaders: http.IncomingHttpHeaders[] = [];
  // Endless, slow body for the cancel test; ended when the test is over.
  const slowResponses = new Set<http.ServerResponse>();
  let slowClosed = 0;
  const remote = http.createServer((req, res) => {
    seenHeaders.push(req.headers);
    const url = new URL(req.url ?? "/", "http://x");
    switch (url.pathname) {
      case "/files/report.bin": {
        const headers = {
          "content-type": "application/x-custom",
          "content-length": String(payload.length),
          "content-disposition": `attachment; filename="ignored.bin"; filename*=UTF-8''%E6%8A%A5%E5%91%8A.bin`,
          "last-modified": "Wed, 21 Oct 2026 07:28:00 GMT",
          "accept-ranges": "bytes",
        };
        res.writeHead(200, headers);
        if (req.method === "HEAD") res.end();
        else res.end(payload);
        return;
      }
      case "/no-head/photo.png": {
        if (req.method === "HEAD") {
          res.writeHead(405).end();
          return;
        }
        res.writeHead(206, { "content-type": "image/png", "content-range": "bytes 0-0/4096" });
        res.end(Buffer.alloc(1));
        return;
      }
      case "/big": {
        res.writeHead(200, { "content-length": String(5 * 1024 * 1024) });
        res.end(Buffer.alloc(5 * 1024 * 1024));
        return;
      }
      case "/big-chunked": {
        res.writeHead(200, { "content-type": "application/octet-stream" });
        const chunk = Buffer.alloc(256 * 1024);
        for (let i = 0; i < 20; i++) res.write(chunk);
        res.end();
        return;
      }
      case "/slow": {
        res.writeHead(200, { "content-type": "application/octet-stream" });
        slowResponses.add(res);
        const timer = setInterval(() => res.write(Buffer.alloc(16 * 1024)), 20);
        res.on("close", () => {
          clearInterval(timer);
          slowClosed++;
        });
        return;
      }
      case "/to-private":
        res.writeHead(302, { location: `http://127.0.0.1:${targetPort}/secret` }).end();
        return;
      case "/page.html":
        res.writeHead(200, { "content-type": "text/html" }).end("<script>alert(1)</script>");
        return;
      default:
        res.writeHead(404).end();
    }
  });
  // Never to be reached.
  const target = http.createServer((_q, r) => r.end("secret"));
  let targetPort = 0;
  let targetConnections = 0;

  beforeAll(async () => {
    remotePort = await listen(remote, "127.0.0.1");
    targetPort = await listen(target, "::");
    target.on("connection", () => targetConnections++);
    base = `http://127.0.0.1:${remotePort}`;
    t = await createTestApp({ URL_FETCH_ALLOW: `127.0.0.1:${remotePort}` });
    token = await t.adminToken();
  });
  afterEach(() => {
    for (const res of slowResponses) res.destroy();
    slowResponses.clear();
  });
  afterAll(async () => {
    await t.close();
    await new Promise((r) => remote.close(r));
    await new Promise((r) => target.close(r));
  });

  const setMaxUpload = (max_upload_size: number, max_upload_size_unit: string) =>
    t.request("PUT", "/api/admin/system-settings", {
      token,
      body: { max_upload_size, max_upload_size_unit },
    });

  /** Every file under the default LOCAL storage, temp files included. */
  const storedFiles = () =>
    readdirSync(path.join(t.dataDir, "files"), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.join(e.parentPath, e.name))
      .sort();

  const fileRows = () => t.ctx.db.selectFrom("files").selectAll().execute();

  describe("url/info", () => {
    it("describes a remote file from its HEAD answer", async () => {
      const res = await t.request("POST", "/api/url/info", {
        token,
        body: { url: `${base}/files/report.bin` },
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.data).toEqual({
        url: `${base}/files/report.bin`,
        filename: "报告.bin",
        contentType: "application/x-custom",
        size: payload.length,
        lastModified: "2026-10-21T07:28:00.000Z",
        method: "HEAD",
        corsSupported: false,
        rangesSupported: true,
      });
    });

    it("falls back to a one-byte GET when HEAD is refused, naming the file after the path", async () => {
      const res = await t.request("POST", "/api/url/info", {
        token,
        body: { url: `${base}/no-head/photo.png` },
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
        `http://127.0.0.1:${targetPort}/`,
        `http://[::1]:${targetPort}/`,
        `${base}/to-private`,
      ]) {
        const res = await t.request("POST", "/api/url/info", { token, body: { url } });
        expect(res.status, url).toBe(400);
        expect(res.body.error).toBe("url_not_allowed");
      }
      expect(targetConnections).toBe(0);
    });

    it("reports a remote error status as 502 with the 0.7.3 text", async () => {
      const res = await t.request("POST", "/api/url/info", { token, body: { url: `${base}/missing` } });
      expect(res.status).toBe(502);
      expect(res.body.message).toBe("Server returned error status: 404");
    });

    it("needs the file-share permission", async () => {
      expect((await t.request("POST", "/api/url/info", { body: { url: `${base}/x` } })).status).toBe(401);
      const key = await t.createApiKey(Permission.TEXT);
      const res = await t.request("POST", "/api/url/info", { apiKey: key.key, body: { url: `${base}/x` } });
      expect(res.status).toBe(403);
    });
  });

  describe("url/proxy", () => {
    it("streams the remote file as an attachment that cannot run script, forwarding no credentials", async () => {
      seenHeaders.length = 0;
      const res = await t.app.request(
        `/api/url/proxy?url=${encodeURIComponent(`${base}/files/report.bin`)}`,
        {
          headers: { authorization: `Bearer ${token}`, cookie: "session=abc" },
        },
      );
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(payload)).toBe(true);
      expect(res.headers.get("content-disposition")).toMatch(/^attachment;/);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("content-security-policy")).toContain("sandbox");
      expect(seenHeaders[0]?.cookie).toBeUndefined();
      expect(seenHeaders[0]?.authorization).toBeUndefined();
      const html = await t.app.request(`/api/url/proxy?url=${encodeURIComponent(`${base}/page.html`)}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(html.headers.get("content-disposition")).toMatch(/^attachment;/);
      expect(html.headers.get("content-security-policy")).toContain("default-src 'none'");
    });

    it("refuses a remote file above the max upload size before streaming it", async () => {
      await setMaxUpload(1, "MB");
      try {
        const res = await t.request("GET", `/api/url/proxy?url=${encodeURIComponent(`${base}/big`)}`, {
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
        `/api/url/proxy?url=${encodeURIComponent(`http://127.1:${targetPort}/`)}`,
        {
          token,
        },
      );
      expect(res.status).toBe(400);
      expect(targetConnections).toBe(0);
    });
  });

  describe("browser path: presign, PUT, commit, cancel", () => {
    it("reserves a share named after the remote file with its options applied, then commits", async () => {
      const configId = (await t.request("GET", "/api/s3-configs", { token })).body.data[0].id;
      const pre = await t.request("POST", "/api/url/presign", {
        token,
        body: {
          url: `${base}/files/report.bin`,
          s3_config_id: configId,
          password: "pw-123456",
          max_views: 3,
        },
      });
      expect(pre.status, pre.text).toBe(200);
      expect(pre.body.data).toMatchObject({
        sourceUrl: `${base}/files/report.bin`,
        corsSupported: false,
        hasPassword: true,
        maxViews: 3,
        contentType: "application/x-custom",
      });
      const put = await t.app.request(pre.body.data.upload_url.replace(/^https?:\/\/[^/]+/, ""), {
        method: "PUT",
        body: payload,
      });
      expect(put.status).toBe(200);
      const commit = await t.request("POST", "/api/url/commit", {
        token,
        body: { file_id: pre.body.data.file_id },
      });
      expect(commit.status, commit.text).toBe(200);
      expect(commit.body.data).toMatchObject({
        filename: "报告.bin",
        size: payload.length,
        status: "active",
      });
    });

    it("uses complete client metadata without asking the remote server", async () => {
      const configId = (await t.request("GET", "/api/s3-configs", { token })).body.data[0].id;
      seenHeaders.length = 0;
      const pre = await t.request("POST", "/api/url/presign", {
        token,
        body: {
          url: `${base}/files/report.bin`,
          s3_config_id: configId,
          metadata: { filename: "given.txt", contentType: "text/plain", size: 10 },
        },
      });
      expect(pre.status, pre.text).toBe(200);
      expect(seenHeaders).toHaveLength(0);
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
      const noConfig = await t.request("POST", "/api/url/presign", { token, body: { url: `${base}/a.txt` } });
      expect(noConfig.status).toBe(400);
      expect(noConfig.body.message).toBe("Missing S3 config ID parameter");
      const noUrl = await t.request("POST", "/api/url/presign", { token, body: { s3_config_id: "x" } });
      expect(noUrl.body.message).toBe("Missing URL parameter");
    });
  });

  describe("fetch on the server (task)", () => {
    it("streams the remote file into a new share, byte-identical, with the password sealed in the task", async () => {
      const queued = await t.request("POST", "/api/url/fetch", {
        token,
        body: { url: `${base}/files/report.bin`, password: "sekret-pw", remark: "fetched" },
      });
      expect(queued.status, queued.text).toBe(202);
      expect(queued.text).not.toContain("sekret-pw");
      const { task } = await waitForTask(t, queued.body.data.id, { token });
      expect(task).toMatchObject({
        status: "completed",
        type: "download",
        processed_bytes: payload.length,
        progress: 100,
      });
      const share = task.result as { id: string; slug: string; size: number; requires_password: boolean };
      expect(share.size).toBe(payload.length);
      const row = (await fileRows()).find((r) => r.id === share.id)!;
      expect(row).toMatchObject({ status: "active", filename: "报告.bin", remark: "fetched" });
      expect(row.password_hash).not.toBeNull();
      const { driver } = await t.ctx.storageConfigs.driverById(row.storage_config_id!);
      const chunks: Buffer[] = [];
      for await (const c of (await driver.read(row.storage_path)).body) chunks.push(c as Buffer);
      expect(sha(Buffer.concat(chunks))).toBe(sha(payload));
      expect(JSON.stringify(await t.ctx.db.selectFrom("tasks").selectAll().execute())).not.toContain(
        "sekret-pw",
      );
    });

    it("writes into an explorer directory", async () => {
      const storage = await createLocalStorage(t);
      await createMount(t, storage, "/fetched");
      const queued = await t.request("POST", "/api/url/fetch", {
        token,
        body: { url: `${base}/files/report.bin`, target_path: "/fetched", filename: "copy.bin" },
      });
      const { task } = await waitForTask(t, queued.body.data.id, { token });
      expect(task.status, JSON.stringify(task)).toBe("completed");
      expect(sha(await readBytes(t, "/fetched/copy.bin", { token }))).toBe(sha(payload));
    });

    it("cancels a running download: no share row and no stored bytes remain", async () => {
      const before = (await fileRows()).length;
      const storedBefore = storedFiles();
      const queued = await t.request("POST", "/api/url/fetch", { token, body: { url: `${base}/slow` } });
      const id = queued.body.data.id;
      // Wait until bytes flow, then cancel.
      for (let i = 0; i < 200; i++) {
        const cur = await t.request("GET", `/api/fs/tasks/${id}`, { token });
        if (cur.body.data.processed_bytes > 0) break;
        await new Promise((r) => setTimeout(r, 25));
      }
      const cancel = await t.request("POST", `/api/fs/tasks/${id}/cancel`, { token });
      expect(cancel.status, cancel.text).toBe(200);
      const { task } = await waitForTask(t, id, { token }, 15_000);
      expect(task.status).toBe("cancelled");
      expect((await fileRows()).length).toBe(before);
      expect(storedFiles()).toEqual(storedBefore);
      // The remote connection was dropped, not left streaming into nowhere.
      expect(slowClosed).toBe(1);
    });

    it.each(["/big", "/big-chunked"])(
      "fails over the max upload size (%s) and keeps nothing",
      async (path) => {
        await setMaxUpload(1, "MB");
        try {
          const before = (await fileRows()).length;
          const queued = await t.request("POST", "/api/url/fetch", {
            token,
            body: { url: `${base}${path}` },
          });
          const { task } = await waitForTask(t, queued.body.data.id, { token });
          expect(task.status).toBe("failed");
          expect(task.error).toContain("File size exceeds system limit");
          expect((await fileRows()).length).toBe(before);
        } finally {
          await setMaxUpload(100, "MB");
        }
      },
    );

    it("refuses private targets: literal ones at once, redirects when the task runs", async () => {
      const direct = await t.request("POST", "/api/url/fetch", {
        token,
        body: { url: `http://0x7f000001:${targetPort}/` },
      });
      expect(direct.status).toBe(400);
      expect(direct.body.error).toBe("url_not_allowed");
      const queued = await t.request("POST", "/api/url/fetch", {
        token,
        body: { url: `${base}/to-private` },
      });
      const { task } = await waitForTask(t, queued.body.data.id, { token });
      expect(task.status).toBe("failed");
      expect(task.error).toContain("loopback");
      expect(targetConnections).toBe(0);
    });
  });
});
