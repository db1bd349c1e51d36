/**
 * Copies and moves of S3 objects above S3_MULTIPART_COPY_ABOVE go part by part
 * (UploadPartCopy) on every path that copies: explorer batch-copy, rename
 * (a move), and WebDAV COPY/MOVE. Lowered to 6 MiB here so small objects
 * exercise it against the real Swift S3; a multipart object's ETag ends in
 * "-<parts>", which proves which path ran.
 */
import { createHash, randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  createMount,
  createS3Storage,
  readBytes,
  type StorageUnderTest,
  waitForTask,
} from "../support/fs-helpers";
import { describeS3 } from "../support/s3-env";
import { ADMIN_PASSWORD, ADMIN_USERNAME, createTestApp, type TestApp } from "../support/test-app";

const MiB = 1024 * 1024;
const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");

describeS3("large S3 copies (UploadPartCopy)", (s3) => {
  let t: TestApp;
  let storage: StorageUnderTest;
  let admin: { token: string };
  const big = randomBytes(13 * MiB + 5); // 6 + 6 + 1 MiB parts
  const small = randomBytes(MiB);
  const dav = `Basic ${Buffer.from(`${ADMIN_USERNAME}:${ADMIN_PASSWORD}`).toString("base64")}`;

  beforeAll(async () => {
    t = await createTestApp({ S3_MULTIPART_COPY_ABOVE: "6M" });
    admin = { token: await t.adminToken() };
    storage = await createS3Storage(t, s3, "large-copy");
    await createMount(t, storage, "/s3big");
    await putSingle("src.bin", big);
    await putSingle("small.bin", small);
  }, 60_000);
  afterAll(async () => {
    await storage.cleanup();
    await t.close();
  });

  /** One PutObject, so the source has a plain MD5 ETag and only a part-by-part copy can give "-N". */
  const putSingle = async (path: string, bytes: Buffer) => {
    const { driver } = await t.ctx.storageConfigs.driverById(storage.configId);
    await driver.write(path, Readable.from([bytes]), { size: bytes.length });
    expect(await etagOf(path)).toMatch(/^[0-9a-f]{32}$/);
  };

  const etagOf = async (path: string) => {
    const { driver } = await t.ctx.storageConfigs.driverById(storage.configId);
    return (await driver.stat(path))?.etag ?? "";
  };

  it("explorer batch-copy copies part by part, byte-identical", async () => {
    const res = await t.request("POST", "/api/fs/batch-copy", {
      ...admin,
      body: { items: [{ sourcePath: "/s3big/src.bin", targetPath: "/s3big/copied.bin" }] },
    });
    expect([200, 202]).toContain(res.status);
    if (res.status === 202)
      expect((await waitForTask(t, res.body.data.taskId, admin)).task.status).toBe("completed");
    expect(await etagOf("copied.bin")).toMatch(/-3$/);
    expect(sha(await readBytes(t, "/s3big/copied.bin", admin))).toBe(sha(big));
  });

  it("rename (a move) copies part by part and removes the source", async () => {
    await putSingle("to-move.bin", big);
    const res = await t.request("POST", "/api/fs/rename", {
      ...admin,
      body: { oldPath: "/s3big/to-move.bin", newPath: "/s3big/moved.bin" },
    });
    expect(res.status, res.text).toBe(200);
    expect(await etagOf("moved.bin")).toMatch(/-3$/);
    expect(await etagOf("to-move.bin")).toBe("");
    expect(sha(await readBytes(t, "/s3big/moved.bin", admin))).toBe(sha(big));
  });

  it("WebDAV COPY and MOVE copy part by part", async () => {
    const copy = await t.app.request("/dav/s3big/src.bin", {
      method: "COPY",
      headers: { authorization: dav, destination: "http://localhost/dav/s3big/dav-copy.bin" },
    });
    expect(copy.status).toBe(201);
    expect(await etagOf("dav-copy.bin")).toMatch(/-3$/);
    const move = await t.app.request("/dav/s3big/dav-copy.bin", {
      method: "MOVE",
      headers: { authorization: dav, destination: "http://localhost/dav/s3big/dav-moved.bin" },
    });
    expect(move.status).toBe(201);
    expect(await etagOf("dav-moved.bin")).toMatch(/-3$/);
    expect(sha(await readBytes(t, "/s3big/dav-moved.bin", admin))).toBe(sha(big));
  });

  it("objects at or below the limit still take one CopyObject", async () => {
    const res = await t.request("POST", "/api/fs/batch-copy", {
      ...admin,
      body: { items: [{ sourcePath: "/s3big/small.bin", targetPath: "/s3big/small-copy.bin" }] },
    });
    expect(res.status, res.text).toBe(200);
    expect(await etagOf("small-copy.bin")).toMatch(/^[0-9a-f]{32}$/);
    expect(sha(await readBytes(t, "/s3big/small-copy.bin", admin))).toBe(sha(small));
  });
});
