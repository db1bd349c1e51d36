import {
  decryptBytes,
  encryptBytes,
  fromBase64Url,
  generateKeyBytes,
  importKey,
  toBase64Url,
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

const MARKER = "PLAINTEXT-MARKER-4711";

async function sealed(text: string) {
  const key = await importKey(generateKeyBytes());
  return { key, content: toBase64Url(await encryptBytes(key, new TextEncoder().encode(text))) };
}

async function createEncrypted(extra: Record<string, unknown> = {}) {
  const { key, content } = await sealed(`# Secret\n${MARKER}`);
  const res = await t.request("POST", "/api/paste", {
    token,
    body: { content, encrypted: true, remark: "sealed note", ...extra },
  });
  expect(res.status).toBe(201);
  return { key, content, slug: res.body.data.slug as string, data: res.body.data };
}

describe("end-to-end encrypted pastes", () => {
  it("stores and serves the ciphertext only, flagged encrypted, and the key opens it", async () => {
    const { key, content, slug, data } = await createEncrypted();
    expect(data).toMatchObject({ encrypted: true, hasPassword: false });
    const row = await t.ctx.db
      .selectFrom("pastes")
      .selectAll()
      .where("slug", "=", slug)
      .executeTakeFirstOrThrow();
    expect(row.encrypted).toBe(1);
    expect(row.content).toBe(content);
    expect(row.content).not.toContain(MARKER);

    const res = await t.request("GET", `/api/paste/${slug}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ encrypted: true, content, views: 1 });
    const plain = await decryptBytes(key, fromBase64Url(res.body.data.content)!);
    expect(new TextDecoder().decode(plain)).toContain(MARKER);
  });

  it("refuses plaintext marked encrypted, and a server password on an encrypted paste", async () => {
    const plain = await t.request("POST", "/api/paste", {
      token,
      body: { content: MARKER, encrypted: true },
    });
    expect(plain.status).toBe(400);
    expect(plain.body).toMatchObject({ success: false, error: "encrypted_paste" });
    expect(plain.body.message).toContain("encrypted stream");

    const { content } = await sealed("x");
    const withPassword = await t.request("POST", "/api/paste", {
      token,
      body: { content, encrypted: true, password: "secret-pw" },
    });
    expect(withPassword.status).toBe(400);
    expect(withPassword.body.error).toBe("encrypted_paste");
  });

  it("has no raw form: 409 in the JSON envelope, and the refused raw request uses no view", async () => {
    const { slug } = await createEncrypted({ maxViews: 1 });
    const raw = await t.request("GET", `/api/raw/${slug}`);
    expect(raw.status).toBe(409);
    expect(raw.body).toMatchObject({ success: false, error: "encrypted_paste", code: 409 });
    expect(raw.body.message).toContain("end-to-end encrypted");
    // The one allowed view is still there for the page, then it is used up.
    expect((await t.request("GET", `/api/paste/${slug}`)).body.data.isLastView).toBe(true);
    expect((await t.request("GET", `/api/paste/${slug}`)).status).toBe(410);
    expect((await t.request("GET", `/api/raw/${slug}`)).status).toBe(409);
  });

  it("is found by slug and remark but never by its ciphertext, and lists without a preview", async () => {
    const { slug, content } = await createEncrypted({ remark: "findable-remark-93" });
    const byRemark = await t.request("GET", "/api/pastes?search=findable-remark-93", { token });
    expect(byRemark.body.data.map((p: { slug: string }) => p.slug)).toEqual([slug]);
    expect(byRemark.body.data[0]).toMatchObject({ encrypted: true, content_preview: "" });
    const byCipher = await t.request("GET", `/api/pastes?search=${content.slice(30, 60)}`, { token });
    expect(byCipher.body.data).toEqual([]);
  });

  it("cannot be edited on the server, but its remark and limits can", async () => {
    const { slug, content } = await createEncrypted();
    const replacement = await sealed("new");
    const edit = await t.request("PUT", `/api/pastes/${slug}`, {
      token,
      body: { content: replacement.content },
    });
    expect(edit.status).toBe(409);
    expect(edit.body).toMatchObject({ success: false, error: "encrypted_paste" });
    const password = await t.request("PUT", `/api/pastes/${slug}`, { token, body: { password: "pw-12345" } });
    expect(password.status).toBe(400);
    const remark = await t.request("PUT", `/api/pastes/${slug}`, {
      token,
      body: { remark: "renamed", maxViews: 5 },
    });
    expect(remark.status).toBe(200);
    expect(remark.body.data).toMatchObject({ remark: "renamed", max_views: 5, encrypted: true });
    const detail = await t.request("GET", `/api/pastes/${slug}`, { token });
    expect(detail.body.data.content).toBe(content);
  });

  it("plain pastes say encrypted: false and keep their raw form", async () => {
    const res = await t.request("POST", "/api/paste", { token, body: { content: "plain text" } });
    expect(res.body.data.encrypted).toBe(false);
    const raw = await t.request("GET", `/api/raw/${res.body.data.slug}`);
    expect(raw.status).toBe(200);
  });
});
