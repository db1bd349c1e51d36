import {
  E2E_CHUNK_SIZE,
  encryptBytes,
  generateKeyBytes,
  importKey,
  openMetadata,
  sealMetadata,
} from "@clipshare/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = await t.adminToken();
});
afterAll(async () => t.close());

describe("end-to-end encrypted file shares", () => {
  it("store an opaque name and type and the sealed metadata, which visitors get to open in the browser", async () => {
    const key = await importKey(generateKeyBytes());
    const meta = await sealMetadata(key, { name: "Quarterly report.pdf", type: "application/pdf" });
    const body = await encryptBytes(key, new Uint8Array(3 * E2E_CHUNK_SIZE).fill(7));
    const init = await t.request("POST", "/api/files/multipart/init", {
      token,
      body: {
        filename: "encrypted.bin",
        total_size: body.length,
        part_size: 5 * 1024 * 1024,
        part_count: 1,
        encrypted_meta: meta,
      },
    });
    expect(init.status, JSON.stringify(init.body)).toBe(200);
    const url = new URL(init.body.data.presigned_urls[0].url);
    const put = await t.app.request(`${url.pathname}${url.search}`, { method: "PUT", body });
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
