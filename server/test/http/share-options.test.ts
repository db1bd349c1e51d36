/**
 * The share options (remark, slug, password, expiry, max views, access log)
 * are one schema on every create and edit path: max views is bounded the same
 * way with the same text everywhere, and the 0.7.3 camelCase spellings are
 * accepted at the edge (server/src/http/wire-aliases.ts), one test per alias,
 * while both spellings with different values are refused naming the field.
 */
import { MAX_VIEWS_MAX, MAX_VIEWS_PROBLEM, REMARK_MAX, REMARK_PROBLEM } from "@clipshare/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalStorage, createMount, type StorageUnderTest } from "../support/fs-helpers";
import { createTestApp, type TestApp, type TestResponse } from "../support/test-app";

let t: TestApp;
let token: string;
let disk: StorageUnderTest;
let fileId: string;
let pasteId: string;

beforeAll(async () => {
  t = await createTestApp();
  token = await t.adminToken();
  disk = await createLocalStorage(t, "share-options-disk");
  await createMount(t, disk, "/opts");
  const put = await t.request("PUT", "/api/fs/upload?path=/opts/shared.txt", {
    token,
    rawBody: "explorer file",
    headers: { "content-type": "text/plain" },
  });
  expect(put.status, put.text).toBeLessThan(300);
  const file = await t.request("PUT", `/api/upload-direct/base.txt?s3_config_id=${disk.configId}`, {
    token,
    rawBody: "base",
    headers: { "content-type": "text/plain" },
  });
  expect(file.status, file.text).toBe(201);
  fileId = file.body.data.id;
  const paste = await t.request("POST", "/api/paste", { token, body: { content: "base paste" } });
  pasteId = paste.body.data.id;
});
afterAll(async () => t.close());

type Send = (options: Record<string, string | number>) => Promise<TestResponse>;

function form(fields: Record<string, string | number>) {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, String(value));
  body.append("file", new Blob(["form body"]), "form.txt");
  return body;
}

/** Every path that creates or edits a share, sending the given share options. */
const PATHS: Record<string, Send> = {
  "POST /paste": (o) => t.request("POST", "/api/paste", { token, body: { content: "x", ...o } }),
  "PUT /pastes/:id": (o) => t.request("PUT", `/api/pastes/${pasteId}`, { token, body: o }),
  "PUT /files/:id": (o) => t.request("PUT", `/api/files/${fileId}`, { token, body: o }),
  "PUT /upload-direct/:name": (o) => {
    const query = new URLSearchParams({ s3_config_id: disk.configId, ...o } as Record<string, string>);
    return t.request("PUT", `/api/upload-direct/direct.txt?${query}`, {
      token,
      rawBody: "direct",
      headers: { "content-type": "text/plain" },
    });
  },
  "POST /upload (form)": (o) =>
    t.request("POST", "/api/upload", { token, rawBody: form({ s3_config_id: disk.configId, ...o }) }),
  "POST /s3/presign": (o) =>
    t.request("POST", "/api/s3/presign", {
      token,
      body: { s3_config_id: disk.configId, filename: "p.txt", size: 1, ...o },
    }),
  "POST /s3/commit": (o) => t.request("POST", "/api/s3/commit", { token, body: { file_id: "nope", ...o } }),
  "POST /url/presign": (o) =>
    t.request("POST", "/api/url/presign", {
      token,
      body: { url: "http://example.invalid/a.txt", s3_config_id: disk.configId, ...o },
    }),
  "POST /files/multipart/init": (o) =>
    t.request("POST", "/api/files/multipart/init", {
      token,
      body: { s3_config_id: disk.configId, filename: "m.bin", size: 10, part_size: 10, part_count: 1, ...o },
    }),
  "POST /fs/create-share": (o) =>
    t.request("POST", "/api/fs/create-share", { token, body: { path: "/opts/shared.txt", ...o } }),
};

const storedMaxViews = async (table: "pastes" | "files", id: string) => {
  const row = await t.ctx.db
    .selectFrom(table)
    .select("max_views")
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
  return Number(row.max_views);
};

describe("max views", () => {
  it.each(Object.keys(PATHS))("%s refuses 2,147,483,648 with the one text", async (name) => {
    const res = await PATHS[name]!({ max_views: MAX_VIEWS_MAX + 1 });
    expect(res.status, res.text).toBe(400);
    expect(res.body).toMatchObject({ error: "validation_failed", message: MAX_VIEWS_PROBLEM });
  });

  it("stores 2,147,483,647 on a paste and a file share (the database's 32-bit column holds it)", async () => {
    const paste = await PATHS["POST /paste"]!({ max_views: MAX_VIEWS_MAX });
    expect(paste.status, paste.text).toBe(201);
    expect(await storedMaxViews("pastes", paste.body.data.id)).toBe(MAX_VIEWS_MAX);
    const edit = await PATHS["PUT /files/:id"]!({ max_views: MAX_VIEWS_MAX });
    expect(edit.status, edit.text).toBe(200);
    expect(await storedMaxViews("files", fileId)).toBe(MAX_VIEWS_MAX);
  });
});

describe("remark", () => {
  it.each(Object.keys(PATHS))("%s refuses a remark over the limit with the one text", async (name) => {
    const res = await PATHS[name]!({ remark: "r".repeat(REMARK_MAX + 1) });
    expect(res.status, res.text).toBe(400);
    expect(res.body).toMatchObject({ error: "validation_failed", message: REMARK_PROBLEM });
  });
});

describe("a share made in the explorer", () => {
  it("keeps the remark, link suffix and access-log choice it is sent", async () => {
    const res = await PATHS["POST /fs/create-share"]!({
      remark: "quarterly figures",
      slug: "explorer-share-options",
      no_log: "true",
    });
    expect(res.status, res.text).toBe(201);
    const row = await t.ctx.db
      .selectFrom("files")
      .select(["slug", "remark", "no_log"])
      .where("id", "=", res.body.data.id)
      .executeTakeFirstOrThrow();
    expect({ ...row, no_log: Number(row.no_log) }).toEqual({
      slug: "explorer-share-options",
      remark: "quarterly figures",
      no_log: 1,
    });
  });
});

describe("0.7.3 spellings at the edge", () => {
  it.each(Object.keys(PATHS))(
    "%s refuses maxViews and max_views with different values, naming the field",
    async (name) => {
      const res = await PATHS[name]!({ maxViews: 3, max_views: 5 });
      expect(res.status, res.text).toBe(400);
      expect(res.body.error).toBe("conflicting_fields");
      expect(res.body.message).toBe(
        "max_views and maxViews were both sent with different values; send one of them",
      );
      expect(res.body.details).toEqual({ field: "max_views", alias: "maxViews" });
    },
  );

  it("maxViews (0.7.3 paste form) sets max_views; the same value in both spellings is accepted", async () => {
    const res = await PATHS["POST /paste"]!({ maxViews: 4, max_views: 4 });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.maxViews).toBe(4);
  });

  it("expiresAt (0.7.3 paste form) sets expires_at", async () => {
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const res = await PATHS["POST /paste"]!({ expiresAt: at });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.expiresAt).toBe(at);
    const clash = await PATHS["PUT /pastes/:id"]!({ expiresAt: at, expires_at: "" });
    expect(clash.status).toBe(400);
    expect(clash.body.message).toMatch(/^expires_at and expiresAt/);
  });

  it("newSlug and clearPassword (0.7.3 paste edit dialog) rename and unlock the paste", async () => {
    const created = await PATHS["POST /paste"]!({ password: "pw-1" });
    const id = created.body.data.id;
    const edit = await t.request("PUT", `/api/pastes/${id}`, {
      token,
      body: { newSlug: "edge-alias-slug", clearPassword: true },
    });
    expect(edit.status, edit.text).toBe(200);
    const view = await t.request("GET", "/api/paste/edge-alias-slug");
    expect(view.status).toBe(200);
    expect(view.body.data).toMatchObject({ hasPassword: false, content: "x" });
    const clash = await t.request("PUT", `/api/pastes/${id}`, {
      token,
      body: { newSlug: "one-slug", new_slug: "other-slug" },
    });
    expect(clash.status).toBe(400);
    expect(clash.body.details).toEqual({ field: "new_slug", alias: "newSlug" });
  });
});
