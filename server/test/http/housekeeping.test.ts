/**
 * Crash leftovers and DATA_DIR modes, against a real server process: a share
 * upload interrupted by kill -9 leaves a LOCAL temp file or an S3 incomplete
 * multipart upload, and a pending row holding its custom slug; the
 * housekeeping sweep leaves fresh ones alone and removes them once they are
 * old enough, releasing the slug. A fresh DATA_DIR is owner-only.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ListMultipartUploadsCommand } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESERVATION_LEASE_SECONDS } from "../../src/domain/files/reservation-lease";
import { taggedTempName } from "../../src/lib/writer-tag";
import { LOCAL_TEMP_DIR } from "../../src/storage/drivers/local";
import { WRITE_TEMP } from "../../src/storage/drivers/local-confine";
import type { S3Driver } from "../../src/storage/drivers/s3";
import { createS3Storage } from "../support/fs-helpers";
import { describeS3 } from "../support/s3-env";
import { openUpload, type ServerProcess, startServer } from "../support/server-process";
import {
  ADMIN_PASSWORD,
  ADMIN_USERNAME,
  createPgDatabase,
  createTestApp,
  type TestApp,
  testDialect,
} from "../support/test-app";

const MiB = 1024 * 1024;
/** Ages that make anything already written count as abandoned. */
const AT_ONCE = { idleWriteMs: 0, multipartMs: 0 };
/** Starting a server process takes seconds on a busy machine. */
const PROCESS_TEST_MS = 120_000;

let t: TestApp;
let token: string;
const servers: ServerProcess[] = [];

/** A second process on the same DATA_DIR and database as `t`. */
async function startTwin(): Promise<ServerProcess> {
  const server = await startServer({
    DATA_DIR: t.dataDir,
    ADMIN_USERNAME,
    ADMIN_PASSWORD,
    WEB_DIST_DIR: path.join(t.dataDir, "no-web"),
    ...(t.config.database.dialect === "postgres" ? { DATABASE_URL: t.config.database.url } : {}),
  });
  servers.push(server);
  return server;
}

async function until<T>(
  what: string,
  probe: () => Promise<T | null> | T | null,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const pendingRow = (slug: string) =>
  t.ctx.db.selectFrom("files").select(["id", "status"]).where("slug", "=", slug).executeTakeFirst();

/** Once the reservation lease has lapsed: what the sweep sees a few minutes after the crash. */
const afterLease = () => new Date(Date.now() + (RESERVATION_LEASE_SECONDS + 1) * 1000);

async function uploadInProcess(slug: string, query = "") {
  return t.request("PUT", `/api/upload-direct/again.txt?slug=${slug}${query}`, {
    token,
    rawBody: "second try",
    headers: { "content-type": "text/plain" },
  });
}

beforeAll(async () => {
  t = await createTestApp();
  token = await t.adminToken();
});
afterAll(async () => {
  for (const s of servers) await s.stop().catch(() => undefined);
  await t?.close();
});

describe("kill -9 during a share upload to LOCAL storage", () => {
  it(
    "leaves a temp file and a held slug; the sweep removes both once they are old enough",
    async () => {
      const server = await startTwin();
      const tempDir = path.join(t.dataDir, "files", LOCAL_TEMP_DIR);
      const upload = openUpload(`${server.url}/api/upload-direct/big.bin?slug=crash-local`, {
        authorization: `Bearer ${token}`,
        "content-type": "application/octet-stream",
      });
      for (let i = 0; i < 4; i++) await upload.send(Buffer.alloc(MiB, i));
      const tempFile = await until("the temp file", () => {
        const names = existsSync(tempDir) ? readdirSync(tempDir).filter((n) => n.startsWith("w-")) : [];
        return names.length === 1 && statSync(path.join(tempDir, names[0]!)).size >= 2 * MiB
          ? names[0]!
          : null;
      });
      expect(await pendingRow("crash-local")).toMatchObject({ status: "pending" });
      await server.kill9();

      expect(readdirSync(tempDir)).toEqual([tempFile]);
      const taken = await uploadInProcess("crash-local");
      expect(taken.status).toBe(409);

      // The temp file names its writer, a process of this host that is gone: the next sweep
      // removes it at once. A temp file of a live writer stays (see below); the slug stays
      // held until its reservation lease lapses.
      const live = path.join(tempDir, taggedTempName(WRITE_TEMP));
      writeFileSync(live, "still being written");
      const early = await t.ctx.housekeeping.run();
      expect(early).toMatchObject({ reservations: 0, tempFiles: 1 });
      expect(readdirSync(tempDir)).toEqual([path.basename(live)]);
      rmSync(live);

      const report = await t.ctx.housekeeping.run({ now: afterLease(), ages: AT_ONCE });
      expect(report).toMatchObject({ reservations: 1, tempFiles: 0, storageErrors: 0 });
      expect(readdirSync(tempDir)).toEqual([]);
      expect(await pendingRow("crash-local")).toBeUndefined();
      const again = await uploadInProcess("crash-local");
      expect(again.status, again.text).toBe(201);
    },
    PROCESS_TEST_MS,
  );
});

describeS3("kill -9 during a share upload to S3 storage", (s3) => {
  it(
    "leaves an incomplete multipart upload; the sweep aborts it and frees the slug",
    async () => {
      const storage = await createS3Storage(t, s3, "crash");
      const { driver } = await t.ctx.storageConfigs.driverById(storage.configId);
      const { row } = await t.ctx.storageConfigs.driverById(storage.configId);
      const { client, bucket } = driver as S3Driver;
      const listUploads = async () =>
        (
          await client.send(
            new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: `${row.default_folder}/` }),
          )
        ).Uploads ?? [];
      const server = await startTwin();
      const upload = openUpload(
        `${server.url}/api/upload-direct/big.bin?slug=crash-s3&s3_config_id=${storage.configId}`,
        { authorization: `Bearer ${token}`, "content-type": "application/octet-stream" },
      );
      // No length given: the driver streams in 5 MiB parts, so the upload is multipart once a part is full.
      for (let i = 0; i < 12; i++) await upload.send(Buffer.alloc(MiB, i));
      await until("the multipart upload", async () => ((await listUploads()).length > 0 ? true : null));
      await server.kill9();
      expect(await listUploads()).toHaveLength(1);
      expect(await pendingRow("crash-s3")).toMatchObject({ status: "pending" });

      const early = await t.ctx.housekeeping.run();
      expect(early).toMatchObject({ reservations: 0, multipartUploads: 0 });
      expect(await listUploads()).toHaveLength(1);

      const report = await t.ctx.housekeeping.run({ now: afterLease(), ages: AT_ONCE });
      expect(report).toMatchObject({ reservations: 1, storageErrors: 0 });
      expect(report.multipartUploads).toBeGreaterThanOrEqual(1);
      expect(await listUploads()).toEqual([]);
      const again = await uploadInProcess("crash-s3", `&s3_config_id=${storage.configId}`);
      expect(again.status, again.text).toBe(201);
      await storage.cleanup();
    },
    PROCESS_TEST_MS,
  );
});

describe("DATA_DIR permissions", () => {
  let base: string;
  let dropPg: (() => Promise<void>) | null = null;
  beforeAll(() => {
    base = mkdtempSync(path.join(os.tmpdir(), "clipshare-modes-"));
  });
  afterAll(async () => {
    for (const s of servers) await s.stop().catch(() => undefined);
    await dropPg?.();
    rmSync(base, { recursive: true, force: true });
  });

  it(
    "a fresh DATA_DIR, its database, secret key and stored files are owner-only",
    async () => {
      const dataDir = path.join(base, "data");
      const pg = testDialect() === "postgres" ? await createPgDatabase() : null;
      dropPg = pg?.drop ?? null;
      const server = await startServer({
        DATA_DIR: dataDir,
        ADMIN_USERNAME,
        ADMIN_PASSWORD,
        WEB_DIST_DIR: path.join(base, "no-web"),
        ...(pg ? { DATABASE_URL: pg.url } : {}),
      });
      servers.push(server);
      const login = await fetch(`${server.url}/api/admin/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username: ADMIN_USERNAME, password: ADMIN_PASSWORD }),
      });
      const { data } = (await login.json()) as { data: { token: string } };
      const put = await fetch(`${server.url}/api/upload-direct/private.txt`, {
        method: "PUT",
        headers: { authorization: `Bearer ${data.token}`, "content-type": "text/plain" },
        body: "paste-like content",
      });
      expect(put.status).toBe(201);
      const stored = ((await put.json()) as { data: { storage_path: string } }).data.storage_path;
      const mode = (p: string) => (statSync(path.join(dataDir, p)).mode & 0o777).toString(8);
      const expected: Record<string, string> = {
        ".": "700",
        "secret.key": "600",
        files: "700",
        [`files/${LOCAL_TEMP_DIR}`]: "700",
        [`files/${stored}`]: "600",
      };
      if (testDialect() === "sqlite") {
        expected["clipshare.db"] = "600";
        expected["clipshare.db-wal"] = "600";
      }
      const actual = Object.fromEntries(Object.keys(expected).map((p) => [p, mode(p)]));
      expect(actual).toEqual(expected);
      await server.stop();
    },
    PROCESS_TEST_MS,
  );
});
