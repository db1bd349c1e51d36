/**
 * Uploads exactly as a 0.7.3 client sends them. The explorer's "direct"
 * upload is a multipart form in the order `file`, `path`, `use_multipart`:
 * the file part comes before the fields that say where it goes.
 */
import { createHash, randomBytes } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { Permission } from "@clipshare/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalStorage, createMount, readBytes } from "../support/fs-helpers";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = await t.adminToken();
  await createMount(t, await createLocalStorage(t, "compat-disk"), "/m");
});
afterAll(async () => t.close());

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
const spooled = () => {
  const dir = path.join(t.dataDir, "tmp", "uploads");
  return existsSync(dir) ? readdirSync(dir) : [];
};

/** The 0.7.3 explorer's form: file first, then path and use_multipart. */
function explorerForm(bytes: Buffer, name: string, dir: string, useMultipart: "true" | "false") {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)]), name);
  form.append("path", dir);
  form.append("use_multipart", useMultipart);
  return form;
}

const post = (url: string, form: FormData, auth = `Bearer ${token}`) =>
  t.app.request(url, { method: "POST", headers: { authorization: auth }, body: form });

describe("0.7.3 explorer upload (POST /api/fs/upload)", () => {
  it("file, path, use_multipart=false: stores the file where path says", async () => {
    const bytes = randomBytes(200_000);
    const res = await post("/api/fs/upload", explorerForm(bytes, "photo.jpg", "/m/album", "false"));
    const body = (await res.json()) as { data: Record<string, unknown> };
    expect(res.status, JSON.stringify(body)).toBe(201);
    expect(body.data).toMatchObject({ success: true, fileName: "photo.jpg", size: bytes.length });
    expect(sha(await readBytes(t, "/m/album/photo.jpg", { token }))).toBe(sha(bytes));
    expect(spooled()).toEqual([]);
  });

  it("with an API key holding MOUNT_UPLOAD, and a full file path as path", async () => {
    const key = await t.createApiKey(Permission.MOUNT_VIEW | Permission.MOUNT_UPLOAD);
    const bytes = Buffer.from("notes by key");
    const res = await post(
      "/api/fs/upload",
      explorerForm(bytes, "k.txt", "/m/keys/k.txt", "false"),
      `ApiKey ${key.key}`,
    );
    expect(res.status).toBe(201);
    expect((await readBytes(t, "/m/keys/k.txt", { token })).toString()).toBe("notes by key");
  });

  it("use_multipart=true answers the multipart upload to send the parts to, and storing nothing yet", async () => {
    const bytes = randomBytes(6 * 1024 * 1024);
    const res = await post("/api/fs/upload", explorerForm(bytes, "big.bin", "/m/mp", "true"));
    const body = (await res.json()) as {
      data: {
        uploadId: string;
        key: string;
        partSize: number;
        partCount: number;
        presignedUrls: Array<{ partNumber: number; url: string }>;
        path: string;
      };
    };
    expect(res.status, JSON.stringify(body)).toBe(200);
    const d = body.data;
    expect(d).toMatchObject({ partSize: 5 * 1024 * 1024, partCount: 2, path: "/m/mp/big.bin" });
    expect(d.presignedUrls.map((p) => p.partNumber)).toEqual([1, 2]);
    const listing = await t.request("GET", "/api/fs/list?path=/m/mp", { token });
    expect((listing.body.data?.items ?? []).map((i: { name: string }) => i.name)).not.toContain("big.bin");
    const parts = [];
    for (const { partNumber, url } of d.presignedUrls) {
      const u = new URL(url);
      const chunk = bytes.subarray((partNumber - 1) * d.partSize, partNumber * d.partSize);
      const put = await t.app.request(`${u.pathname}${u.search}`, {
        method: "PUT",
        body: new Uint8Array(chunk),
      });
      expect(put.status).toBe(200);
      parts.push({ partNumber, etag: put.headers.get("etag")!.replace(/"/g, "") });
    }
    const done = await t.request("POST", "/api/fs/multipart/complete", {
      token,
      body: { path: "/m/mp", uploadId: d.uploadId, fileName: "big.bin", parts },
    });
    expect(done.status, done.text).toBe(200);
    expect(sha(await readBytes(t, "/m/mp/big.bin", { token }))).toBe(sha(bytes));
  });

  it("a file over the max upload size is 413 whatever the order, and leaves nothing behind", async () => {
    await t.request("PUT", "/api/admin/system-settings", {
      token,
      body: { max_upload_size: 64, max_upload_size_unit: "KB" },
    });
    try {
      const res = await post(
        "/api/fs/upload",
        explorerForm(randomBytes(100_000), "huge.bin", "/m/limit", "false"),
      );
      expect(res.status).toBe(413);
      expect(await res.json()).toMatchObject({ success: false, error: "content_too_large" });
      const listing = await t.request("GET", "/api/fs/list?path=/m", { token });
      expect(listing.body.data.items.map((i: { name: string }) => i.name)).not.toContain("limit");
      expect(spooled()).toEqual([]);
    } finally {
      await t.request("PUT", "/api/admin/system-settings", {
        token,
        body: { max_upload_size: 100, max_upload_size_unit: "MB" },
      });
    }
  });

  it("a form without path is still 400 'Please provide file and path'", async () => {
    const form = new FormData();
    form.append("file", new Blob(["x"]), "x.txt");
    const res = await post("/api/fs/upload", form);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ message: "Please provide file and path", success: false });
    expect(spooled()).toEqual([]);
  });
});

describe("share upload form (POST /api/upload) with the file first", () => {
  it("applies the share fields that follow the file, including a password", async () => {
    const form = new FormData();
    form.append("file", new Blob(["secret report"]), "report.txt");
    form.append("password", "typed-after");
    form.append("max_views", "2");
    const res = await post("/api/upload", form);
    const body = (await res.json()) as { data: Record<string, unknown> };
    expect(res.status, JSON.stringify(body)).toBe(201);
    expect(body.data).toMatchObject({ filename: "report.txt", has_password: true, max_views: 2, size: 13 });
    const pub = await t.request("GET", `/api/public/files/${body.data.slug}`);
    expect(pub.body.data.requires_password).toBe(true);
    expect(spooled()).toEqual([]);
  });
});
