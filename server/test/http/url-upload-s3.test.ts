/**
 * URL upload into S3 (Swift): parts PUT straight to the bucket's presigned
 * UploadPart URLs, and the server-side fetch task writing into the bucket.
 */
import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createS3Storage, type StorageUnderTest, waitForTask } from "../support/fs-helpers";
import { describeS3 } from "../support/s3-env";
import { createTestApp, type TestApp } from "../support/test-app";

const MiB = 1024 * 1024;
const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");

describeS3("URL upload into S3 (Swift)", (s3) => {
  let t: TestApp;
  let token: string;
  let storage: StorageUnderTest;
  const file = randomBytes(11 * MiB + 3);
  const remote = http.createServer((req, res) => {
    res.writeHead(200, { "content-type": "application/zip", "content-length": String(file.length) });
    res.end(req.method === "HEAD" ? undefined : file);
  });
  let base = "";

  beforeAll(async () => {
    const port = await new Promise<number>((r) =>
      remote.listen(0, "127.0.0.1", () => r((remote.address() as AddressInfo).port)),
    );
    base = `http://127.0.0.1:${port}`;
    t = await createTestApp({ URL_FETCH_ALLOW: `127.0.0.1:${port}` });
    token = await t.adminToken();
    storage = await createS3Storage(t, s3, "url-upload");
  });
  afterAll(async () => {
    await storage.cleanup();
    await t.close();
    await new Promise((r) => remote.close(r));
  });

  const storedHash = async (fileId: string) => {
    const row = await t.ctx.db
      .selectFrom("files")
      .selectAll()
      .where("id", "=", fileId)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe("active");
    const { driver } = await t.ctx.storageConfigs.driverById(storage.configId);
    const chunks: Buffer[] = [];
    for await (const c of (await driver.read(row.storage_path)).body) chunks.push(c as Buffer);
    return sha(Buffer.concat(chunks));
  };

  it("url/multipart: parts go to presigned S3 URLs, complete publishes the share", async () => {
    const init = await t.request("POST", "/api/url/multipart/init", {
      token,
      body: { url: `${base}/archive.zip`, s3_config_id: storage.configId, part_size: 5 * MiB, part_count: 3 },
    });
    expect(init.status, init.text).toBe(200);
    const parts = [];
    for (const { partNumber, url } of init.body.data.presigned_urls as {
      partNumber: number;
      url: string;
    }[]) {
      const res = await fetch(url, {
        method: "PUT",
        body: file.subarray((partNumber - 1) * 5 * MiB, partNumber * 5 * MiB),
      });
      expect(res.status).toBe(200);
      parts.push({ partNumber, etag: (res.headers.get("etag") ?? "").replace(/"/g, "") });
    }
    const done = await t.request("POST", "/api/url/multipart/complete", {
      token,
      body: { file_id: init.body.data.file_id, upload_id: init.body.data.upload_id, parts },
    });
    expect(done.status, done.text).toBe(200);
    expect(done.body.data.filename).toBe("archive.zip");
    expect(await storedHash(init.body.data.file_id)).toBe(sha(file));
  });

  it("fetch on the server streams into the bucket, byte-identical", async () => {
    const queued = await t.request("POST", "/api/url/fetch", {
      token,
      body: { url: `${base}/dir/fetched.zip`, s3_config_id: storage.configId },
    });
    expect(queued.status, queued.text).toBe(202);
    const { task } = await waitForTask(t, queued.body.data.id, { token });
    expect(task.status, JSON.stringify(task)).toBe("completed");
    expect(await storedHash((task.result as { id: string }).id)).toBe(sha(file));
  });
});
