import {
  E2E_CHUNK_SIZE,
  encryptBytes,
  generateKeyBytes,
  importKey,
  openMetadata,
  sealMetadata,
} from "@clipshare/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalStorage, createS3Storage, type StorageUnderTest } from "../support/fs-helpers";
import { describeS3 } from "../support/s3-env";
import { createTestApp, type TestApp } from "../support/test-app";

/** Our own signed part and download URLs in-process, storage URLs over loopback. */
async function send(t: TestApp, url: string, init: RequestInit = {}) {
  const u = new URL(url, "http://in-process");
  if (u.pathname.startsWith("/api/")) return t.app.request(`${u.pathname}${u.search}`, init);
  return fetch(url, init);
}

function describeEncryptedShares(label: string, makeStorage: (t: TestApp) => Promise<StorageUnderTest>) {
  describe(`end-to-end encrypted file shares on ${label}`, () => {
    let t: TestApp;
    let token: string;
    let storage: StorageUnderTest;
    beforeAll(async () => {
      t = await createTestApp();
      token = await t.adminToken();
      storage = await makeStorage(t);
    });
    afterAll(async () => {
      await storage.cleanup();
      await t.close();
    });

    it("store an opaque name and type, the sealed metadata and the ciphertext as sent", async () => {
      const key = await importKey(generateKeyBytes());
      const meta = await sealMetadata(key, { name: "Quarterly report.pdf", type: "application/pdf" });
      const body = await encryptBytes(key, new Uint8Array(3 * E2E_CHUNK_SIZE).fill(7));
      const init = await t.request("POST", "/api/files/multipart/init", {
        token,
        body: {
          s3_config_id: storage.configId,
          filename: "encrypted.bin",
          total_size: body.length,
          part_size: 5 * 1024 * 1024,
          part_count: 1,
          encrypted_meta: meta,
        },
      });
      expect(init.status, JSON.stringify(init.body)).toBe(200);
      const put = await send(t, init.body.data.presigned_urls[0].url, { method: "PUT", body });
      expect(put.status).toBe(200);
      const done = await t.request("POST", "/api/files/multipart/complete", {
        token,
        body: {
          file_id: init.body.data.file_id,
          upload_id: init.body.data.upload_id,
          parts: [{ partNumber: 1, etag: put.headers.get("etag")!.replace(/"/g, "") }],
        },
      });
      expect(done.status, JSON.stringify(done.body)).toBe(200);

      const row = await t.ctx.db
        .selectFrom("files")
        .selectAll()
        .where("id", "=", init.body.data.file_id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        filename: "encrypted.bin",
        mimetype: "application/octet-stream",
        encrypted_meta: meta,
      });
      expect(row.filename).not.toContain("Quarterly");

      const visit = await t.request("GET", `/api/public/files/${row.slug}`);
      expect(visit.body.data).toMatchObject({
        filename: "encrypted.bin",
        encrypted_meta: meta,
        size: body.length,
      });
      expect(await openMetadata(key, visit.body.data.encrypted_meta)).toEqual({
        name: "Quarterly report.pdf",
        type: "application/pdf",
      });
      const detail = await t.request("GET", `/api/files/${row.id}`, { token });
      expect(detail.body.data.encrypted_meta).toBe(meta);
      // What storage holds and serves is exactly the ciphertext the browser sealed.
      const served = await send(t, visit.body.data.downloadUrl);
      expect(served.status).toBe(200);
      expect(Buffer.from(await served.arrayBuffer()).equals(Buffer.from(body))).toBe(true);
    });

    it("refuses metadata that is not base64url", async () => {
      const res = await t.request("POST", "/api/files/multipart/init", {
        token,
        body: {
          filename: "x.bin",
          total_size: 10,
          part_size: 10,
          part_count: 1,
          encrypted_meta: "not base64!",
        },
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toContain("encrypted_meta must be base64url");
    });
  });
}

describeEncryptedShares("LOCAL", (t) => createLocalStorage(t));
describeS3("S3 (Swift)", (s3) => {
  describeEncryptedShares("S3", (t) => createS3Storage(t, s3, "e2e-files"));
});
