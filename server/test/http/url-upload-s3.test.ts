/**
 * URL upload into S3 (Swift): parts PUT straight to the bucket's presigned
 * UploadPart URLs, and the server-side fetch task writing into the bucket.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createS3Storage, type StorageUnderTest, waitForTask } from "../support/fs-helpers";
import { MiB, type RemoteFiles, sha, startRemoteFiles, storedShareBytes } from "../support/remote-files";
import { describeS3 } from "../support/s3-env";
import { createTestApp, type TestApp } from "../support/test-app";

describeS3("URL upload into S3 (Swift)", (s3) => {
  let t: TestApp;
  let token: string;
  let storage: StorageUnderTest;
  let remote: RemoteFiles;

  beforeAll(async () => {
    remote = await startRemoteFiles();
    t = await createTestApp({ URL_FETCH_ALLOW: remote.allowEntry });
    token = await t.adminToken();
    storage = await createS3Storage(t, s3, "url-upload");
  });
  afterAll(async () => {
    await storage.cleanup();
    await t.close();
    await remote.close();
  });
  it("url/multipart: parts go to presigned S3 URLs, complete publishes the share", async () => {
    const init = await t.request("POST", "/api/url/multipart/init", {
      token,
      body: {
        url: `${remote.base}/files/eleven.bin`,
        s3_config_id: storage.configId,
        part_size: 5 * MiB,
        part_count: 3,
      },
    });
    expect(init.status, init.text).toBe(200);
    const parts = [];
    for (const { partNumber, url } of init.body.data.presigned_urls as {
      partNumber: number;
      url: string;
    }[]) {
      const res = await fetch(url, {
        method: "PUT",
        body: remote.eleven.subarray((partNumber - 1) * 5 * MiB, partNumber * 5 * MiB),
      });
      expect(res.status).toBe(200);
      parts.push({ partNumber, etag: (res.headers.get("etag") ?? "").replace(/"/g, "") });
    }
    const done = await t.request("POST", "/api/url/multipart/complete", {
      token,
      body: { file_id: init.body.data.file_id, upload_id: init.body.data.upload_id, parts },
    });
    expect(done.status, done.text).toBe(200);
    expect(done.body.data.filename).toBe("eleven.bin");
    expect(sha(await storedShareBytes(t, init.body.data.file_id))).toBe(sha(remote.eleven));
  });

  it("fetch on the server streams into the bucket, byte-identical", async () => {
    const queued = await t.request("POST", "/api/url/fetch", {
      token,
      body: { url: `${remote.base}/files/eleven.bin`, s3_config_id: storage.configId },
    });
    expect(queued.status, queued.text).toBe(202);
    const { task } = await waitForTask(t, queued.body.data.id, { token });
    expect(task.status, JSON.stringify(task)).toBe("completed");
    expect(sha(await storedShareBytes(t, (task.result as { id: string }).id))).toBe(sha(remote.eleven));
  });
});
