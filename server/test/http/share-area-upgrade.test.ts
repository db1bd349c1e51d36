/**
 * Upgrading an installation laid out as the release before the share area:
 * a database at migration 0006 with a password-protected, view-limited file
 * share whose object lies at the top of the default LOCAL storage, mounted at
 * its whole root. After the upgrade the share link keeps its password, its view
 * count and its bytes, before and after housekeeping moves the object into the
 * share area; then no mount shows it. The same on S3 (the object put back
 * where the old release stored it), with a share whose upload is still running
 * moving only once it completes. SQLite or PostgreSQL, as the environment picks.
 */
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { SHARE_AREA } from "@clipshare/shared";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../src/auth/passwords";
import { migrateTo, nowIso } from "../../src/db/database";
import { createS3Storage, names, type StorageUnderTest } from "../support/fs-helpers";
import { legacyLocalStorage, scratchDatabase } from "../support/legacy-database";
import { describeS3 } from "../support/s3-env";
import { createTestApp, type TestApp } from "../support/test-app";

const PASSWORD = "old-share-pw";
const BYTES = "bytes shared before the upgrade";
const OLD_PATH = "a1b2c3d4-report.txt";

const download = async (t: TestApp, slug: string, password?: string) => {
  const res = await t.app.request(`/api/file-download/${slug}${password ? `?password=${password}` : ""}`);
  return { status: res.status, text: await res.text() };
};

const viewsOf = async (t: TestApp, slug: string) =>
  Number(
    (await t.ctx.db.selectFrom("files").select("views").where("slug", "=", slug).executeTakeFirstOrThrow())
      .views,
  );

describe("upgrading a LOCAL installation from the release before the share area", () => {
  let t: TestApp;
  let dropPg: (() => Promise<void>) | undefined;
  let dataDir: string;
  const slug = "old-share";

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), "clipshare-upgrade-"));
    const { db, pg } = await scratchDatabase(dataDir);
    dropPg = pg?.drop;
    // The schema and rows of the previous release, written as it wrote them.
    await migrateTo(db, "0006-access-log-partial-indexes");
    const files = path.join(dataDir, "files");
    mkdirSync(files, { recursive: true });
    writeFileSync(path.join(files, OLD_PATH), BYTES);
    const now = nowIso();
    const configId = randomUUID();
    await db
      .insertInto("storage_configs")
      .values(legacyLocalStorage({ id: configId, root: files, adminId: null, now, hostKey: false }))
      .execute();
    await db
      .insertInto("files")
      .values({
        id: randomUUID(),
        slug,
        filename: "report.txt",
        storage_config_id: configId,
        storage_type: "LOCAL",
        storage_path: OLD_PATH,
        file_path: null,
        mount_id: null,
        mimetype: "text/plain",
        size: BYTES.length,
        etag: null,
        remark: null,
        password_hash: await hashPassword(PASSWORD),
        expires_at: new Date(Date.now() + 86_400_000).toISOString(),
        max_views: 5,
        views: 1,
        use_proxy: 1,
        status: "active",
        delete_object_with_share: 1,
        created_by: "admin-before-upgrade",
        created_at: now,
        updated_at: now,
      })
      .execute();
    // A mount of the whole storage, in the old table (no root column yet).
    await sql`insert into mounts (id, name, storage_type, storage_config_id, mount_path, remark, is_active, created_by, sort_order, cache_ttl, web_proxy, webdav_policy, enable_sign, sign_expires, created_at, updated_at, last_used)
      values (${randomUUID()}, 'old', 'LOCAL', ${configId}, '/old', null, 1, 'admin-before-upgrade', 0, 0, 0, '302_redirect', 0, null, ${now}, ${now}, null)`.execute(
      db,
    );
    await db.destroy();
    t = await createTestApp({ DATA_DIR: dataDir, ...(pg ? { DATABASE_URL: pg.url } : {}) });
  });
  afterAll(async () => {
    await t?.close();
    await dropPg?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("after the schema upgrade the mount has the whole storage as its root, and the link still works", async () => {
    const mounts = await t.request("GET", "/api/admin/mounts", { token: await t.adminToken() });
    expect(mounts.body.data).toMatchObject([{ mount_path: "/old", root: "" }]);
    expect((await download(t, slug)).status).toBeGreaterThanOrEqual(400);
    expect(await download(t, slug, PASSWORD)).toEqual({ status: 200, text: BYTES });
    expect(await viewsOf(t, slug)).toBe(2);
  });

  it("housekeeping moves the object into the share area; password, views and bytes carry on", async () => {
    const report = await t.ctx.housekeeping.run();
    expect(report.sharesMoved).toBe(1);
    const files = path.join(dataDir, "files");
    expect(existsSync(path.join(files, OLD_PATH))).toBe(false);
    expect(existsSync(path.join(files, SHARE_AREA, OLD_PATH))).toBe(true);
    expect((await download(t, slug, "wrong")).status).toBeGreaterThanOrEqual(400);
    expect(await download(t, slug, PASSWORD)).toEqual({ status: 200, text: BYTES });
    expect(await viewsOf(t, slug)).toBe(3);
    expect((await t.ctx.housekeeping.run()).sharesMoved).toBe(0);
  });

  it("the old mount no longer shows the object", async () => {
    const admin = { token: await t.adminToken() };
    expect(await names(t, "/old", admin)).toEqual([]);
    const get = await t.request("GET", `/api/fs/get?path=/old/${SHARE_AREA}/${OLD_PATH}`, admin);
    expect(get.status).toBe(404);
  });
});

describeS3("S3 (Swift)", (s3) => {
  describe("upgrading S3 shares stored before the share area", () => {
    let t: TestApp;
    let storage: StorageUnderTest;
    const token = () => t.adminToken();

    /** Puts a share's object back where the old release kept it, and the row with it. */
    const asOldRelease = async (slug: string) => {
      const row = await t.ctx.db
        .selectFrom("files")
        .selectAll()
        .where("slug", "=", slug)
        .executeTakeFirstOrThrow();
      const old = row.storage_path.slice(SHARE_AREA.length + 1);
      const { driver } = await t.ctx.storageConfigs.driverById(storage.configId);
      await driver.rename(row.storage_path, old);
      await t.ctx.db.updateTable("files").set({ storage_path: old }).where("id", "=", row.id).execute();
      return old;
    };

    beforeAll(async () => {
      t = await createTestApp();
      storage = await createS3Storage(t, s3, "upgrade");
      const mount = await t.request("POST", "/api/admin/mounts", {
        token: await token(),
        // No listing cache: the test looks again right after the move.
        body: { name: "s3", storage_config_id: storage.configId, mount_path: "/s3", cache_ttl: 0 },
      });
      expect(mount.status, mount.text).toBe(201);
    });
    afterAll(async () => {
      await storage?.cleanup();
      await t?.close();
    });

    it("an active share moves; its link keeps password and views; a running upload moves once complete", async () => {
      const up = await t.request(
        "PUT",
        `/api/upload-direct/report.txt?s3_config_id=${storage.configId}&password=${PASSWORD}&max_views=5`,
        { token: await token(), rawBody: BYTES, headers: { "content-type": "application/octet-stream" } },
      );
      expect(up.status, up.text).toBe(201);
      const old = await asOldRelease(up.body.data.slug);
      expect(await names(t, "/s3", { token: await token() })).toContain(old);

      // An upload that was running at the upgrade: pending, its multipart session bound to the old key.
      const { driver } = await t.ctx.storageConfigs.driverById(storage.configId);
      const pendingPath = "e5f6a7b8-running.bin";
      const uploadId = await driver.initMultipart!(pendingPath);
      const part = await driver.uploadPart!(
        pendingPath,
        uploadId,
        1,
        Readable.from([Buffer.from("running")]),
        7,
      );
      const pendingId = randomUUID();
      const now = nowIso();
      const base = await t.ctx.db
        .selectFrom("files")
        .selectAll()
        .where("slug", "=", up.body.data.slug)
        .executeTakeFirstOrThrow();
      await t.ctx.db
        .insertInto("files")
        .values({
          ...base,
          id: pendingId,
          slug: "running-upload",
          storage_path: pendingPath,
          status: "pending",
          created_at: now,
        })
        .execute();

      const first = await t.ctx.housekeeping.run();
      expect(first.sharesMoved).toBe(1);
      expect(await names(t, "/s3", { token: await token() })).not.toContain(old);
      expect(await download(t, up.body.data.slug, PASSWORD)).toEqual({ status: 200, text: BYTES });
      expect(await viewsOf(t, up.body.data.slug)).toBe(1);
      expect((await download(t, up.body.data.slug)).status).toBeGreaterThanOrEqual(400);

      // The running upload finishes at its old key, then moves on the next run.
      await driver.completeMultipart!(pendingPath, uploadId, [{ partNumber: 1, etag: part.etag }]);
      await t.ctx.db
        .updateTable("files")
        .set({ status: "active", size: 7 })
        .where("id", "=", pendingId)
        .execute();
      const second = await t.ctx.housekeeping.run();
      expect(second.sharesMoved).toBe(1);
      expect(await download(t, "running-upload", PASSWORD)).toEqual({ status: 200, text: "running" });
      expect(await driver.exists(pendingPath)).toBe(false);
    });
  });
});
