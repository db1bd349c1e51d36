import { randomBytes } from "node:crypto";
import {
  CreateBucketCommand,
  GetObjectCommand,
  ListMultipartUploadsCommand,
  PutObjectCommand,
  type S3Client,
} from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bufferStream, expectedSha256, generatedStream, readAll, sha256Of } from "../contract-helpers";
import { createDriver } from "../create-driver";
import { describeStorageDriver } from "../driver.contract";
import { S3Driver, type S3DriverConfig, uploadHeadersFor } from "./s3";

/**
 * Runs against a real S3-compatible server (OpenStack Swift's s3api in CI),
 * chosen by CLIPSHARE_TEST_S3_* variables. Each run works under a random
 * folder prefix and deletes it afterwards.
 */
function readEnv(): Omit<S3DriverConfig, "defaultFolder"> | null {
  const e = process.env;
  const endpoint = e.CLIPSHARE_TEST_S3_ENDPOINT;
  const accessKeyId = e.CLIPSHARE_TEST_S3_ACCESS_KEY;
  const secretAccessKey = e.CLIPSHARE_TEST_S3_SECRET_KEY;
  const bucket = e.CLIPSHARE_TEST_S3_BUCKET;
  if (!endpoint || !accessKeyId || !secretAccessKey || !bucket) return null;
  return {
    endpoint,
    region: e.CLIPSHARE_TEST_S3_REGION || "us-east-1",
    bucket,
    accessKeyId,
    secretAccessKey,
    pathStyle: true,
    providerType: "Other S3 Compatible",
  };
}

const env = readEnv();

if (!env && process.env.CLIPSHARE_REQUIRE_SERVICES === "1") {
  describe("S3 driver", () => {
    it("has a test S3 server configured", () => {
      throw new Error(
        "CLIPSHARE_REQUIRE_SERVICES=1 but the S3 test server is not configured: set CLIPSHARE_TEST_S3_ENDPOINT, " +
          "CLIPSHARE_TEST_S3_ACCESS_KEY, CLIPSHARE_TEST_S3_SECRET_KEY and CLIPSHARE_TEST_S3_BUCKET " +
          "(and optionally CLIPSHARE_TEST_S3_REGION), e.g. from scripts/test-services.",
      );
    });
  });
}

const runFolder = `clipshare-test-${Date.now().toString(36)}-${randomBytes(4).toString("hex")}`;
let bucketReady: Promise<void> | null = null;

async function ensureBucket(client: S3Client, bucket: string): Promise<void> {
  bucketReady ??= client
    .send(new CreateBucketCommand({ Bucket: bucket }))
    .then(() => undefined)
    .catch((e: Error) => {
      if (e.name !== "BucketAlreadyOwnedByYou" && e.name !== "BucketAlreadyExists") throw e;
    });
  return bucketReady;
}

function driverFor(folder: string, extra: Partial<S3DriverConfig> = {}): S3Driver {
  return new S3Driver({ ...env!, defaultFolder: folder, ...extra });
}

async function pendingUploads(client: S3Client, bucket: string, prefix: string): Promise<string[]> {
  const out = await client.send(new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: prefix }));
  return (out.Uploads ?? []).map((u) => `${u.Key} (upload ${u.UploadId})`);
}

describe.skipIf(!env)("S3 driver against the test server", () => {
  const root = () => driverFor("");

  beforeAll(async () => {
    await ensureBucket(root().client, env!.bucket);
  });
  afterAll(async () => {
    if (await root().exists(runFolder)) await root().remove(runFolder, { recursive: true });
  });

  describeStorageDriver(
    "S3",
    async () => {
      const folder = `${runFolder}/contract`;
      const driver = driverFor(folder);
      await ensureBucket(driver.client, env!.bucket);
      return {
        driver,
        litter: () => pendingUploads(driver.client, env!.bucket, `${folder}/`),
        cleanup: async () => {
          if (await root().exists(folder)) await root().remove(folder, { recursive: true });
        },
      };
    },
    {
      presignRead: true,
      presignWrite: true,
      multipart: true,
      serverSideCopy: true,
      publicUrl: false,
      rangeRead: true,
    },
  );

  describe("S3-specific behaviour", () => {
    const folder = `${runFolder}/specific`;

    it("keeps everything under the default folder", async () => {
      const d = driverFor(`/${folder}/`);
      await d.write("inside/file.txt", bufferStream("scoped"));
      const raw = await d.client.send(
        new GetObjectCommand({ Bucket: env!.bucket, Key: `${folder}/inside/file.txt` }),
      );
      expect(await raw.Body?.transformToString()).toBe("scoped");
      expect(d.key("inside/file.txt")).toBe(`${folder}/inside/file.txt`);
      expect((await root().list(folder)).entries.map((e) => e.name)).toContain("inside");
    });

    it("treats prefixes without markers as directories and hides unaddressable keys", async () => {
      const d = driverFor(`${folder}/implicit`);
      const put = (Key: string) =>
        d.client.send(new PutObjectCommand({ Bucket: env!.bucket, Key, Body: "x", ContentLength: 1 }));
      await put(`${folder}/implicit/a/b/c.txt`);
      await put(`${folder}/implicit/a//double.txt`);
      await put(`${folder}/implicit/a/ctl\u0001name.txt`);
      expect(await d.stat("a/b")).toMatchObject({ isDirectory: true });
      expect((await d.list("a")).entries.map((e) => e.name)).toEqual(["b"]);
      await d.remove("a", { recursive: true });
      expect(await d.stat("a")).toBeNull();
    });

    it("creates a directory marker that stays hidden but keeps empty directories", async () => {
      const d = driverFor(`${folder}/markers`);
      await d.mkdir("empty");
      expect(await d.stat("empty")).toMatchObject({ isDirectory: true });
      expect((await d.list("empty")).entries).toEqual([]);
      expect((await d.list("")).entries.map((e) => e.name)).toEqual(["empty"]);
    });

    it("copies large objects part by part above the single-copy limit", async () => {
      const MiB = 1024 * 1024;
      const d = driverFor(`${folder}/bigcopy`, {
        tuning: { singleCopyLimit: 6 * MiB, copyPartSize: 5 * MiB },
      });
      const size = 11 * MiB + 17;
      await d.write("src.bin", generatedStream(size, 4), { size, contentType: "application/x-custom" });
      await d.copy("src.bin", "dst.bin");
      const got = await sha256Of((await d.read("dst.bin")).body);
      expect(got).toEqual({ hash: await expectedSha256(size, 4), bytes: size });
      expect((await d.stat("dst.bin"))?.contentType).toBe("application/x-custom");
      await d.rename("dst.bin", "moved.bin");
      expect(await d.stat("dst.bin")).toBeNull();
      expect((await d.stat("moved.bin"))?.size).toBe(size);
    });

    it("builds public URLs under a custom host", () => {
      const d = driverFor("media/files", { customHost: "https://cdn.example.test/" });
      expect(d.capabilities.publicUrl).toBe(true);
      expect(d.publicUrl?.("a dir/名 #1.png")).toBe(
        "https://cdn.example.test/media/files/a%20dir/%E5%90%8D%20%231.png",
      );
      expect(driverFor("").publicUrl).toBeUndefined();
      expect(createDriver({ type: "S3", ...env!, customHost: "cdn.example.test" }).publicUrl?.("x")).toBe(
        "https://cdn.example.test/x",
      );
    });

    it("tells clients the extra headers Backblaze B2 needs, and the server accepts them", async () => {
      expect(uploadHeadersFor("Backblaze B2")).toEqual({
        "X-Bz-Content-Sha1": "do_not_verify",
        "X-Requested-With": "XMLHttpRequest",
      });
      expect(uploadHeadersFor("Cloudflare R2")).toEqual({});
      const d = driverFor(`${folder}/b2`, { providerType: "Backblaze B2" });
      const put = await d.presignWrite("note.txt", { contentType: "text/plain" });
      expect(put.headers).toMatchObject({
        "Content-Type": "text/plain",
        "X-Bz-Content-Sha1": "do_not_verify",
      });
      const res = await fetch(put.url, { method: "PUT", headers: put.headers, body: "via b2 headers" });
      expect(res.status).toBe(200);
      expect((await readAll((await d.read("note.txt")).body)).toString()).toBe("via b2 headers");
      expect((await d.stat("note.txt"))?.contentType).toBe("text/plain");
    });

    it("serves inline presigned reads with an ASCII filename", async () => {
      const d = driverFor(`${folder}/inline`);
      await d.write("pic.png", bufferStream("not really a png"));
      const get = await d.presignRead("pic.png", { disposition: "inline", expiresIn: 60 });
      const res = await fetch(get.url);
      expect(res.headers.get("content-disposition")).toBe('inline; filename="pic.png"');
      expect(res.headers.get("content-type")).toBe("image/png");
    });

    it("reports missing uploads and server-side part failures in the storage vocabulary", async () => {
      const d = driverFor(`${folder}/mp-errors`);
      await expect(d.abortMultipart("x.bin", "no-such-upload")).rejects.toMatchObject({ status: 404 });
      await expect(d.uploadPart("x.bin", "no-such-upload", 1, bufferStream("x"))).rejects.toMatchObject({
        status: 400,
      });
    });
  });
});
