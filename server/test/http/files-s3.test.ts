import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createS3Config } from "../support/fs-helpers";
import { listenTestApp } from "../support/listen";
import { describeS3 } from "../support/s3-env";
import { createTestApp, type TestApp } from "../support/test-app";

describeS3("file shares on S3 (Swift)", (s3) => {
  let t: TestApp;
  let token: string;
  let configId: string;

  beforeAll(async () => {
    t = await createTestApp();
    token = await t.adminToken();
    configId = await createS3Config(t, s3, "files-test", { is_public: true });
  });
  afterAll(async () => {
    // Remove what the suite stored under its folder.
    const { driver } = await t.ctx.storageConfigs.driverById(configId);
    await driver.remove("", { recursive: true }).catch(() => undefined);
    await t.close();
  });

  it("the config test passes read, write, list, presign and CORS checks", async () => {
    const res = await t.request("POST", `/api/s3-configs/${configId}/test`, {
      token,
      headers: { origin: "http://localhost:5173" },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.success).toBe(true);
    expect(res.body.data.result.cors.exposesEtag).toBe(true);
    for (const check of ["write", "read", "list", "presign", "cors"])
      expect(res.body.data.result[check].success, check).toBe(true);
  });

  it("uploads through the server and serves it back through the proxy", async () => {
    const bytes = randomBytes(300_000);
    const up = await t.request("PUT", `/api/upload-direct/blob.bin?s3_config_id=${configId}`, {
      token,
      rawBody: bytes,
    });
    expect(up.status).toBe(201);
    expect(up.body.data.storage_type).toBe("S3");
    const pub = await t.request("GET", `/api/public/files/${up.body.data.slug}`);
    const dl = await t.app.request(pub.body.data.downloadUrl);
    expect(Buffer.from(await dl.arrayBuffer()).equals(bytes)).toBe(true);
    const part = await t.app.request(pub.body.data.previewUrl, { headers: { range: "bytes=100-199" } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(100, 200))).toBe(true);
  });

  it("a proxied download over a socket streams the object and logs the bytes that went out", async () => {
    const bytes = randomBytes(3 * 1024 * 1024 + 17);
    const up = await t.request("PUT", `/api/upload-direct/logged.bin?s3_config_id=${configId}`, {
      token,
      rawBody: bytes,
    });
    expect(up.status).toBe(201);
    const server = await listenTestApp(t);
    try {
      const url = `${server.base}/api/file-download/${up.body.data.slug}`;
      const whole = await fetch(url, { headers: { "user-agent": "curl/8.5.0" } });
      expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);
      const part = await fetch(url, { headers: { "user-agent": "curl/8.5.0", range: "bytes=10-109" } });
      expect(part.status).toBe(206);
      expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(10, 110))).toBe(true);
    } finally {
      await server.close();
    }
    let entries: Array<{ kind: string; bytes: number | null }> = [];
    for (let i = 0; i < 50 && entries.length < 2; i++) {
      await t.ctx.accessLog.flush();
      const log = await t.request("GET", `/api/files/${up.body.data.id}/access-log`, { token });
      entries = log.body.data.entries;
      if (entries.length < 2) await new Promise((r) => setTimeout(r, 50));
    }
    expect(entries.map((e) => e.bytes).sort((a, b) => a! - b!)).toEqual([100, bytes.length]);
  });

  it("presigned direct upload: the client PUTs to S3 itself, then commits", async () => {
    const payload = Buffer.from("# Straight to the bucket\n");
    const presign = await t.request("POST", "/api/s3/presign", {
      token,
      body: { s3_config_id: configId, filename: "direct.md", size: payload.length },
    });
    expect(presign.status).toBe(200);
    const d = presign.body.data;
    expect(d.upload_url.startsWith(s3.endpoint)).toBe(true);
    expect(d.contentType).toBe("text/markdown");
    const put = await fetch(d.upload_url, { method: "PUT", headers: d.upload_headers, body: payload });
    expect(put.status).toBe(200);
    const commit = await t.request("POST", "/api/s3/commit", {
      token,
      body: { file_id: d.file_id, etag: put.headers.get("etag") },
    });
    expect(commit.status).toBe(200);
    expect(commit.body.data).toMatchObject({ status: "active", size: payload.length });
    const dl = await t.app.request(commit.body.data.downloadUrl);
    expect(await dl.text()).toBe(payload.toString());
  });

  it("direct access mode redirects visitors to a presigned storage URL", async () => {
    const up = await t.request(
      "PUT",
      `/api/upload-direct/direct-mode.txt?s3_config_id=${configId}&use_proxy=false`,
      { token, rawBody: "via redirect" },
    );
    const pub = await t.request("GET", `/api/public/files/${up.body.data.slug}`);
    const res = await t.app.request(pub.body.data.downloadUrl);
    expect(res.status).toBe(302);
    const location = res.headers.get("location")!;
    expect(location.startsWith(s3.endpoint)).toBe(true);
    const fetched = await fetch(location);
    expect(await fetched.text()).toBe("via redirect");
    expect(fetched.headers.get("content-disposition")).toContain("attachment");
  });

  it("batch delete with both removes the object from the bucket", async () => {
    const up = await t.request("PUT", `/api/upload-direct/gone.txt?s3_config_id=${configId}`, {
      token,
      rawBody: "bye",
    });
    const { driver } = await t.ctx.storageConfigs.driverById(configId);
    expect(await driver.exists(up.body.data.storage_path)).toBe(true);
    await t.request("DELETE", "/api/files/batch-delete", { token, body: { ids: [up.body.data.id] } });
    expect(await driver.exists(up.body.data.storage_path)).toBe(false);
  });
});
