/**
 * The creator rule over every owner route: a key owns the rows it created,
 * recorded as `apikey:<id>`, and rows that carry its bare id (how 0.7.3
 * recorded them, kept by a restored backup), and nothing of another key's;
 * the admin owns everything. Lists, single reads, edits, deletes and "clear
 * expired" all answer the same.
 */
import { Permission } from "@clipshare/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileRow, pasteRow } from "../support/rows";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
let token: string;
let mine: { id: string; key: string };
let other: { id: string; key: string };
const past = "2020-01-01T00:00:00.000Z";

beforeAll(async () => {
  t = await createTestApp();
  token = await t.adminToken();
  mine = await t.createApiKey(Permission.TEXT | Permission.FILE_SHARE);
  other = await t.createApiKey(Permission.TEXT | Permission.FILE_SHARE);
  await t.ctx.db
    .insertInto("pastes")
    .values([
      pasteRow("cr-prefixed", `apikey:${mine.id}`),
      pasteRow("cr-bare", mine.id),
      pasteRow("cr-bare-expired", mine.id, { expires_at: past }),
      pasteRow("cr-other", `apikey:${other.id}`),
      pasteRow("cr-other-bare-expired", other.id, { expires_at: past }),
    ])
    .execute();
  await t.ctx.db
    .insertInto("files")
    .values([
      fileRow("crf-prefixed", `apikey:${mine.id}`),
      fileRow("crf-bare", mine.id),
      fileRow("crf-other", other.id),
    ])
    .execute();
});
afterAll(async () => t.close());

const slugsOf = (rows: Array<{ slug: string }>) => rows.map((r) => r.slug).sort();

describe("pastes", () => {
  it("a key lists its own rows, prefixed or bare, and none of another key's", async () => {
    const res = await t.request("GET", "/api/pastes?limit=200&search=cr-", { apiKey: mine.key });
    expect(res.status, res.text).toBe(200);
    expect(slugsOf(res.body.data)).toEqual(["cr-bare", "cr-bare-expired", "cr-prefixed"]);
  });

  it("the admin lists every key's rows", async () => {
    const admin = await t.request("GET", "/api/pastes?limit=200&search=cr-", { token });
    expect(slugsOf(admin.body.data)).toHaveLength(5);
  });

  it("a key reads and edits a bare-id row of its own", async () => {
    expect((await t.request("GET", "/api/pastes/cr-bare", { apiKey: mine.key })).status).toBe(200);
    const edit = await t.request("PUT", "/api/pastes/cr-bare", {
      apiKey: mine.key,
      body: { remark: "edited by its key" },
    });
    expect(edit.status, edit.text).toBe(200);
    expect(edit.body.data.remark).toBe("edited by its key");
  });

  it("a key gets 404 paste_not_found for another key's row", async () => {
    const foreign = await t.request("GET", "/api/pastes/cr-other", { apiKey: mine.key });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ success: false, error: "paste_not_found" });
  });

  it("clear expired clears only the key's own expired row", async () => {
    const cleared = await t.request("POST", "/api/pastes/clear-expired", { apiKey: mine.key });
    expect(cleared.body.data).toEqual({ cleared: 1 });
  });

  it("batch delete deletes only the key's own rows", async () => {
    const deleted = await t.request("DELETE", "/api/pastes/batch-delete", {
      apiKey: mine.key,
      body: { ids: ["cr-bare", "cr-other"] },
    });
    expect(deleted.body.data).toEqual({ deleted: 1 });
    const left = await t.request("GET", "/api/pastes?limit=200&search=cr-", { token });
    expect(slugsOf(left.body.data)).toEqual(["cr-other", "cr-other-bare-expired", "cr-prefixed"]);
  });
});

describe("file shares", () => {
  it("a key lists its own shares, prefixed or bare, and deletes only those", async () => {
    const res = await t.request("GET", "/api/files?limit=100&search=crf-", { apiKey: mine.key });
    expect(res.status, res.text).toBe(200);
    expect(slugsOf(res.body.data.files)).toEqual(["crf-bare", "crf-prefixed"]);
    const deleted = await t.request("DELETE", "/api/files/batch-delete", {
      apiKey: mine.key,
      body: { ids: ["id-crf-bare", "id-crf-other"], delete_mode: "record_only" },
    });
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body.data.success).toBe(1);
    expect(deleted.body.data.failed).toEqual([
      { id: "id-crf-other", error: "File does not exist or no permission to delete" },
    ]);
    const left = await t.request("GET", "/api/files?limit=100&search=crf-", { token });
    expect(slugsOf(left.body.data.files)).toEqual(["crf-other", "crf-prefixed"]);
  });
});
