/**
 * A storage config's quota (`total_storage_bytes`) holds on every path that
 * adds bytes to it, with the answer share uploads give (507
 * insufficient_storage): explorer raw PUT and form uploads, presigned and
 * multipart explorer uploads, and WebDAV PUT in both upload modes. A refused
 * upload leaves no file behind.
 */
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createLocalStorage, createMount, names, putFile, readBytes } from "../support/fs-helpers";
import { ADMIN_PASSWORD, ADMIN_USERNAME, createTestApp, type TestApp } from "../support/test-app";

const KiB = 1024;
const QUOTA = 64 * KiB;

describe("storage quota on every upload path (LOCAL)", () => {
  let t: TestApp;
  let token: string;
  let configId: string;
  let root: string;
  const admin = () => ({ token });

  const setQuota = async (total_storage_bytes: number) => {
    const res = await t.request("PUT", `/api/s3-configs/${configId}`, {
      token,
      body: { total_storage_bytes },
    });
    expect(res.status, res.text).toBe(200);
  };

  /** A share of `size` bytes on the quota'd config, taking that much of the quota. */
  const shareOf = (size: number) =>
    t.request(
      "PUT",
      `/api/upload-direct/share-${randomBytes(3).toString("hex")}.bin?s3_config_id=${configId}`,
      {
        token,
        rawBody: new Uint8Array(randomBytes(size)),
        headers: { "content-type": "application/octet-stream" },
      },
    );

  /** The JSON envelope of the 507. */
  const expectQuotaRefusal = (res: { status: number; text: string; body?: unknown }) => {
    expect(res.status, res.text).toBe(507);
    const body = (res.body ?? JSON.parse(res.text)) as Record<string, unknown>;
    expect(body).toMatchObject({ success: false, error: "insufficient_storage", code: 507 });
    expect(body.message).toMatch(/^Insufficient storage space: .*exceeds remaining space/);
  };

  /** Nothing under the storage root but what the test put there on purpose. */
  const onDisk = (name: string) => existsSync(path.join(root, name));

  beforeAll(async () => {
    t = await createTestApp();
    token = await t.adminToken();
    const storage = await createLocalStorage(t, "quota-disk");
    configId = storage.configId;
    root = path.join(t.dataDir, "quota-disk");
    await createMount(t, storage, "/q");
  });
  afterAll(async () => t.close());

  beforeEach(async () => {
    // Start each case with an empty quota'd storage: remove every share and file on it.
    await t.ctx.db.deleteFrom("files").where("storage_config_id", "=", configId).execute();
    const paths = (await names(t, "/q", admin())).map((name) => `/q/${name}`);
    if (paths.length > 0) {
      const removed = await t.request("DELETE", "/api/fs/batch-remove", { token, body: { paths } });
      expect(removed.status, removed.text).toBe(200);
    }
    await setQuota(QUOTA);
  });

  it("share uploads answer 507 insufficient_storage when the file does not fit (the rule every path follows)", async () => {
    expect((await shareOf(40 * KiB)).status).toBe(201);
    expectQuotaRefusal(await shareOf(30 * KiB));
  });

  it("explorer raw PUT: refused when it does not fit what the shares leave free, accepted when it does", async () => {
    expect((await shareOf(40 * KiB)).status).toBe(201);
    expectQuotaRefusal(await putFile(t, "/q/big.bin", randomBytes(30 * KiB), admin()));
    expect(onDisk("big.bin")).toBe(false);
    const small = randomBytes(10 * KiB);
    expect((await putFile(t, "/q/small.bin", small, admin())).status).toBe(201);
    expect((await readBytes(t, "/q/small.bin", admin())).equals(small)).toBe(true);
  });

  it("explorer form upload: a body that streams past the free space is cut off with 507", async () => {
    await setQuota(20 * KiB);
    const form = new FormData();
    form.append("path", "/q");
    form.append("file", new Blob([new Uint8Array(randomBytes(30 * KiB))]), "form.bin");
    const res = await t.app.request("/api/fs/upload", {
      method: "POST",
      body: form,
      headers: { authorization: `Bearer ${token}` },
    });
    expectQuotaRefusal({ status: res.status, text: await res.text() });
    expect(onDisk("form.bin")).toBe(false);
  });

  it("explorer multipart: init refuses a size that does not fit; complete checks the real size and removes the file", async () => {
    await setQuota(30 * KiB);
    expectQuotaRefusal(
      await t.request("POST", "/api/fs/multipart/init", {
        token,
        body: { path: "/q", fileName: "huge.bin", fileSize: 40 * KiB, partSize: 10 * KiB, partCount: 4 },
      }),
    );
    const bytes = randomBytes(20 * KiB);
    const init = await t.request("POST", "/api/fs/multipart/init", {
      token,
      body: { path: "/q", fileName: "parts.bin", fileSize: bytes.length, partSize: 10 * KiB, partCount: 2 },
    });
    expect(init.status, init.text).toBe(200);
    const parts = [];
    for (const { partNumber, url } of init.body.data.presignedUrls as Array<{
      partNumber: number;
      url: string;
    }>) {
      const u = new URL(url);
      const res = await t.app.request(`${u.pathname}${u.search}`, {
        method: "PUT",
        body: new Uint8Array(bytes.subarray((partNumber - 1) * 10 * KiB, partNumber * 10 * KiB)),
      });
      expect(res.status).toBe(200);
      parts.push({ partNumber, etag: res.headers.get("etag")! });
    }
    // Meanwhile a share takes most of the space.
    expect((await shareOf(20 * KiB)).status).toBe(201);
    const done = await t.request("POST", "/api/fs/multipart/complete", {
      token,
      body: { path: "/q", uploadId: init.body.data.uploadId, fileName: "parts.bin", parts },
    });
    expectQuotaRefusal(done);
    expect(await names(t, "/q", admin())).not.toContain("parts.bin");
  });

  it("explorer presigned upload: presign checks the declared size, the signed PUT the bytes that arrive", async () => {
    expect((await shareOf(40 * KiB)).status).toBe(201);
    expectQuotaRefusal(
      await t.request("POST", "/api/fs/presign", {
        token,
        body: { path: "/q", fileName: "declared.bin", fileSize: 30 * KiB },
      }),
    );
    const pre = await t.request("POST", "/api/fs/presign", {
      token,
      body: { path: "/q", fileName: "undeclared.bin" },
    });
    expect(pre.status, pre.text).toBe(200);
    const u = new URL(pre.body.data.presignedUrl);
    const put = await t.app.request(`${u.pathname}${u.search}`, {
      method: "PUT",
      body: new Uint8Array(randomBytes(30 * KiB)),
    });
    expectQuotaRefusal({ status: put.status, text: await put.text() });
    expect(onDisk("undeclared.bin")).toBe(false);

    // Bytes that fitted when they arrived but no longer do at commit are removed again.
    const late = await t.request("POST", "/api/fs/presign", {
      token,
      body: { path: "/q", fileName: "late.bin" },
    });
    const lateUrl = new URL(late.body.data.presignedUrl);
    const stored = await t.app.request(`${lateUrl.pathname}${lateUrl.search}`, {
      method: "PUT",
      body: new Uint8Array(randomBytes(10 * KiB)),
    });
    expect(stored.status).toBe(200);
    expect((await shareOf(20 * KiB)).status).toBe(201);
    expectQuotaRefusal(
      await t.request("POST", "/api/fs/presign/commit", {
        token,
        body: { targetPath: "/q/late.bin", fileId: late.body.data.fileId },
      }),
    );
    expect(onDisk("late.bin")).toBe(false);
  });

  describe.each(["direct", "multipart"] as const)("WebDAV PUT (%s mode)", (mode) => {
    const davPut = async (name: string, body: Buffer) => {
      const res = await t.app.request(`/dav/q/${name}`, {
        method: "PUT",
        body: new Uint8Array(body),
        headers: {
          authorization: `Basic ${Buffer.from(`${ADMIN_USERNAME}:${ADMIN_PASSWORD}`).toString("base64")}`,
          "content-type": "application/octet-stream",
        },
      });
      return { status: res.status, text: await res.text() };
    };

    it("is refused with 507 when the file does not fit, and stores one that does", async () => {
      const settings = await t.request("PUT", "/api/admin/system-settings", {
        token,
        body: { webdav_upload_mode: mode },
      });
      expect(settings.status, settings.text).toBe(200);
      expect((await shareOf(40 * KiB)).status).toBe(201);
      // WebDAV answers in its own protocol: the status, with the message as text.
      const refused = await davPut("dav-big.bin", randomBytes(30 * KiB));
      expect(refused.status, refused.text).toBe(507);
      expect(refused.text).toMatch(/Insufficient storage space: .*exceeds remaining space/);
      expect(onDisk("dav-big.bin")).toBe(false);
      const small = randomBytes(10 * KiB);
      expect((await davPut("dav-small.bin", small)).status).toBe(201);
      expect((await readBytes(t, "/q/dav-small.bin", admin())).equals(small)).toBe(true);
    });
  });
});
