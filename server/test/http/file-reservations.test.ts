/**
 * Reserved uploads that never finished: a pending share holds its link suffix
 * and counts as used space, so the admin sees it in the file list with its
 * upload state, can release it, and housekeeping releases it once its upload
 * session has lapsed.
 */
import { existsSync, readdirSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Permission, SHARE_AREA } from "@clipshare/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveApp } from "../../src/http/node-server";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
let token: string;
let key: { id: string; key: string };
let server: ReturnType<typeof serveApp>;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  token = await t.adminToken();
  key = await t.createApiKey(Permission.FILE_SHARE);
  server = serveApp(t.app, { port: 0, hostname: "127.0.0.1", log: t.ctx.log });
  await new Promise<void>((r) => server.once("listening", () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await t.close();
});

/** Where share uploads of the default LOCAL storage live (its share area). */
const filesRoot = () => path.join(t.dataDir, "files", SHARE_AREA);
const storedNames = () =>
  existsSync(filesRoot()) ? readdirSync(filesRoot()).filter((n) => !n.startsWith(".")) : [];

async function adminList() {
  const res = await t.request("GET", "/api/files?limit=200", { token });
  expect(res.status, res.text).toBe(200);
  return res.body.data as { files: any[]; pagination: { total: number } };
}

/** Reserves `slug` with a presigned upload and PUTs `content` to the signed LOCAL URL without committing. */
async function reserve(
  slug: string,
  content?: string,
  auth: { token?: string; apiKey?: string } = { token },
) {
  const res = await t.request("POST", "/api/s3/presign", {
    ...auth,
    body: { filename: `${slug}.txt`, slug },
  });
  expect(res.status, res.text).toBe(200);
  if (content !== undefined) {
    const url = new URL(res.body.data.upload_url);
    expect((await t.app.request(url.pathname + url.search, { method: "PUT", body: content })).status).toBe(
      200,
    );
  }
  return res.body.data as { file_id: string; slug: string; upload_url: string };
}

const upload = (slug: string) =>
  t.request("PUT", `/api/upload-direct/${slug}.txt?slug=${slug}`, { token, rawBody: "done" });

describe("reserved uploads in the admin file list", () => {
  it("an unfinished upload is listed as uploading, and the list total matches the dashboard count", async () => {
    expect((await upload("finished-one")).status).toBe(201);
    const pending = await reserve("half-done", "partial bytes");
    const list = await adminList();
    const row = list.files.find((f) => f.id === pending.file_id);
    expect(row).toMatchObject({ slug: "half-done", status: "pending", upload_state: "uploading" });
    expect(Date.parse(row.upload_expires_at)).toBeGreaterThan(Date.now());
    expect(list.files.find((f) => f.slug === "finished-one")).toMatchObject({
      status: "active",
      upload_state: null,
      upload_expires_at: null,
    });
    const stats = await t.request("GET", "/api/admin/dashboard/stats", { token });
    expect(stats.body.data.totalFiles).toBe(list.pagination.total);
    // Visitors still never see it.
    expect((await t.request("GET", "/api/public/files/half-done")).status).toBe(404);
  });

  it("a key holder's list shows only published shares", async () => {
    const pending = await reserve("key-pending", undefined, { apiKey: key.key });
    const res = await t.request("GET", "/api/files", { apiKey: key.key });
    expect(res.body.data.files.map((f: any) => f.id)).not.toContain(pending.file_id);
    expect((await adminList()).files.map((f) => f.id)).toContain(pending.file_id);
  });

  it("once its session lapsed the row reads incomplete, and housekeeping frees the suffix", async () => {
    const pending = await reserve("lapsed-slug", "some bytes");
    await t.ctx.db
      .updateTable("upload_sessions")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("file_id", "=", pending.file_id)
      .execute();
    expect((await adminList()).files.find((f) => f.id === pending.file_id)).toMatchObject({
      upload_state: "incomplete",
    });
    expect((await upload("lapsed-slug")).status).toBe(409);
    await t.ctx.fileShares.sweep();
    expect((await adminList()).files.map((f) => f.id)).not.toContain(pending.file_id);
    expect(storedNames().filter((n) => n.endsWith("lapsed-slug.txt"))).toHaveLength(0);
    // The abandoned session goes with its share: no row is left for it.
    const sessions = await t.ctx.db
      .selectFrom("upload_sessions")
      .select("id")
      .where("file_id", "=", pending.file_id)
      .execute();
    expect(sessions).toEqual([]);
    const again = await upload("lapsed-slug");
    expect(again.status, again.text).toBe(201);
  });
});

describe("releasing a reserved upload", () => {
  it("batch-delete releases the suffix and removes the bytes that had arrived", async () => {
    const pending = await reserve("release-me", "partial");
    expect(storedNames().filter((n) => n.endsWith("release-me.txt"))).toHaveLength(1);
    const del = await t.request("DELETE", "/api/files/batch-delete", {
      token,
      body: { ids: [pending.file_id], delete_mode: "record_only" },
    });
    expect(del.status, del.text).toBe(200);
    expect(del.body.data).toMatchObject({ success: 1, failed: [] });
    expect(storedNames().filter((n) => n.endsWith("release-me.txt"))).toHaveLength(0);
    expect(
      await t.ctx.db
        .selectFrom("upload_sessions")
        .select("id")
        .where("file_id", "=", pending.file_id)
        .execute(),
    ).toHaveLength(0);
    // The signed URL and the commit no longer lead anywhere; the suffix is free.
    const url = new URL(pending.upload_url);
    expect((await t.app.request(url.pathname + url.search, { method: "PUT", body: "late" })).status).toBe(
      404,
    );
    const commit = await t.request("POST", "/api/s3/commit", { token, body: { file_id: pending.file_id } });
    expect(commit.status).toBe(404);
    expect((await upload("release-me")).status).toBe(201);
  });

  it("a multipart upload released by the admin is aborted: resume says it is gone", async () => {
    const size = 6 * 1024 * 1024;
    const init = await t.request("POST", "/api/files/multipart/init", {
      token,
      body: { filename: "big.bin", total_size: size, slug: "mp-release", part_size: size, part_count: 1 },
    });
    expect(init.status, init.text).toBe(200);
    const fileId = init.body.data.file_id;
    expect((await adminList()).files.find((f) => f.id === fileId)).toMatchObject({
      upload_state: "uploading",
    });
    const del = await t.request("DELETE", "/api/files/batch-delete", {
      token,
      body: { ids: [fileId], delete_mode: "both" },
    });
    expect(del.body.data.success).toBe(1);
    const resume = await t.request("POST", "/api/files/multipart/resume", {
      token,
      body: { file_id: fileId, upload_id: init.body.data.upload_id },
    });
    expect(resume.status).toBe(404);
    expect((await upload("mp-release")).status).toBe(201);
  });

  it("an upload still streaming when released fails with 409 and leaves no share and no bytes", async () => {
    const req = http.request(`${base}/api/upload-direct/streaming.txt?slug=streaming-slug`, {
      method: "PUT",
      headers: { authorization: `Bearer ${token}`, "content-type": "text/plain" },
    });
    const answer = new Promise<{ status: number; body: any }>((resolve, reject) => {
      req.on("error", reject);
      req.on("response", (res) => {
        let text = "";
        res.on("data", (c) => {
          text += c;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      });
    });
    req.write("first chunk ");
    let row: any;
    for (let i = 0; i < 50 && !row; i++) {
      await new Promise((r) => setTimeout(r, 50));
      row = (await adminList()).files.find((f) => f.slug === "streaming-slug");
    }
    expect(row).toMatchObject({ upload_state: "uploading" });
    const del = await t.request("DELETE", "/api/files/batch-delete", {
      token,
      body: { ids: [row.id], delete_mode: "record_only" },
    });
    expect(del.body.data.success).toBe(1);
    req.end("last chunk");
    const res = await answer;
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ success: false, error: "upload_released" });
    expect((await t.request("GET", "/api/public/files/streaming-slug")).status).toBe(404);
    expect(storedNames().filter((n) => n.endsWith("streaming.txt"))).toHaveLength(0);
    expect((await adminList()).files.map((f) => f.slug)).not.toContain("streaming-slug");
  });
});
