import { Permission } from "@clipshare/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
let token: string;
let textKey: { id: string; key: string };
let otherKey: { id: string; key: string };
beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: "true" });
  token = await t.adminToken();
  textKey = await t.createApiKey(Permission.TEXT);
  otherKey = await t.createApiKey(Permission.TEXT);
});
afterAll(async () => t.close());

const createPaste = async (
  body: Record<string, unknown>,
  auth: { token?: string; apiKey?: string } = { token },
) => {
  const res = await t.request("POST", "/api/paste", { ...auth, body });
  return res;
};
const view = (slug: string, headers: Record<string, string> = {}) =>
  t.request("GET", `/api/paste/${slug}`, { headers });
let ip = 1;
const freshIp = () => ({ "x-forwarded-for": `10.1.${Math.floor(ip / 250)}.${ip++ % 250}` });

describe("creating pastes", () => {
  it("admin creates a paste; response carries slug, url and flags", async () => {
    const res = await createPaste({
      content: "# Hello\nworld",
      remark: "greeting",
      maxViews: 3,
      password: "pw-1234",
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ code: 201, success: true });
    expect(res.body.data).toMatchObject({
      remark: "greeting",
      maxViews: 3,
      hasPassword: true,
      authorizedBy: "admin",
    });
    expect(res.body.data.slug).toMatch(/^[A-Za-z0-9]{10}$/);
    expect(res.body.data.url).toBe(`/paste/${res.body.data.slug}`);
    const row = await t.ctx.db
      .selectFrom("pastes")
      .selectAll()
      .where("slug", "=", res.body.data.slug)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^scrypt\$/);
    expect(row.created_by).not.toMatch(/^apikey:/);
  });

  it("an API key with TEXT creates, recorded as apikey:<id>; snake_case fields are accepted", async () => {
    const res = await createPaste(
      { content: "from a key", max_views: 2, expires_at: new Date(Date.now() + 3600_000).toISOString() },
      { apiKey: textKey.key },
    );
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ maxViews: 2, authorizedBy: "apikey" });
    const row = await t.ctx.db
      .selectFrom("pastes")
      .selectAll()
      .where("slug", "=", res.body.data.slug)
      .executeTakeFirstOrThrow();
    expect(row.created_by).toBe(`apikey:${textKey.id}`);
    expect(row.expires_at).not.toBeNull();
  });

  it("needs sign-in and the TEXT permission", async () => {
    expect((await t.request("POST", "/api/paste", { body: { content: "x" } })).status).toBe(401);
    const fileOnly = await t.createApiKey(Permission.FILE_SHARE);
    const res = await createPaste({ content: "x" }, { apiKey: fileOnly.key });
    expect(res.status).toBe(403);
    expect(res.body.message).toContain("Text permission");
  });

  it.each([
    [{ content: "" }, 400, "Content cannot be empty"],
    [{ content: "   \n " }, 400, "Content cannot be empty"],
    [{}, 400, "Content cannot be empty"],
    [
      { content: "x", slug: "has space" },
      400,
      "Invalid link suffix format; only letters, digits, hyphen (-) and underscore (_)",
    ],
    [{ content: "x", slug: "a".repeat(51) }, 400, "Link suffix may be at most 50 characters"],
    [{ content: "x", slug: "Admin" }, 400, '"Admin" is a reserved word; choose another link suffix'],
    [{ content: "x", slug: "raw" }, 400, '"raw" is a reserved word; choose another link suffix'],
    [{ content: "x", maxViews: -1 }, 400, "Max views must be a whole number from 0 to 2147483647"],
    [
      { content: "x", max_views: 2_147_483_648 },
      400,
      "Max views must be a whole number from 0 to 2147483647",
    ],
    [
      { content: "x", maxViews: 3, max_views: 5 },
      400,
      "max_views and maxViews were both sent with different values; send one of them",
    ],
    [{ content: "x", expiresAt: "not-a-date" }, 400, "Invalid expiry time"],
    [{ content: "x", expiresAt: "2000-01-01T00:00:00Z" }, 400, "Expiry time must be in the future"],
    [{ content: 42 }, 400, null],
  ])("rejects %j", async (body, status, message) => {
    const res = await createPaste(body);
    expect(res.status).toBe(status);
    expect(res.body.success).toBe(false);
    if (message) expect(res.body.message).toBe(message);
  });

  it("keeps the largest view limit, 2,147,483,647, on both databases, sent in either spelling or both alike", async () => {
    for (const body of [
      { content: "x", max_views: 2_147_483_647 },
      { content: "x", maxViews: 2_147_483_647, max_views: 2_147_483_647 },
    ]) {
      const res = await createPaste(body);
      expect(res.status, res.text).toBe(201);
      const row = await t.ctx.db
        .selectFrom("pastes")
        .select("max_views")
        .where("slug", "=", res.body.data.slug)
        .executeTakeFirstOrThrow();
      expect(Number(row.max_views)).toBe(2_147_483_647);
    }
  });

  it("refuses 2,147,483,648 max views with the same text on file uploads and edits", async () => {
    const token = await t.adminToken();
    const up = await t.request("PUT", "/api/upload-direct/limit.txt?max_views=2147483648", {
      token,
      rawBody: "x",
      headers: { "content-type": "text/plain" },
    });
    expect(up.status).toBe(400);
    expect(up.body.message).toBe("Max views must be a whole number from 0 to 2147483647");
    const ok = await t.request("PUT", "/api/upload-direct/limit.txt?max_views=2147483647", {
      token,
      rawBody: "x",
      headers: { "content-type": "text/plain" },
    });
    expect(ok.status, ok.text).toBe(201);
    const edit = await t.request("PUT", `/api/files/${ok.body.data.id}`, {
      token,
      body: { max_views: 2_147_483_648 },
    });
    expect(edit.status).toBe(400);
    expect(edit.body.message).toBe("Max views must be a whole number from 0 to 2147483647");
  });

  it("refuses content over 10 MB with 413", async () => {
    const res = await createPaste({ content: "a".repeat(10 * 1024 * 1024 + 1) });
    expect(res.status).toBe(413);
    expect(res.body.error).toBe("content_too_large");
  });

  it("accepts a custom slug of exactly 50 characters and refuses it when taken (409 slug_taken)", async () => {
    const slug = `s${"x".repeat(49)}`;
    expect((await createPaste({ content: "one", slug })).status).toBe(201);
    const again = await createPaste({ content: "two", slug });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      error: "slug_taken",
      message: "Link suffix already taken, try another",
    });
  });

  it("concurrent creates of one slug: exactly one 201, the rest 409", async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => createPaste({ content: `racer ${i}`, slug: "race-slug" })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(11);
  });

  it("concurrent creates that share a commit: a taken slug fails only its own paste", async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        createPaste(i % 2 ? { content: `clash ${i}`, slug: "shared-commit" } : { content: `own ${i}` }),
      ),
    );
    const created = results.filter((r) => r.status === 201);
    expect(created).toHaveLength(11);
    expect(results.filter((r) => r.status === 409)).toHaveLength(9);
    expect(new Set(created.map((r) => r.body.data.slug)).size).toBe(11);
    for (const [i, r] of results.entries()) {
      if (i % 2 || r.status !== 201) continue;
      const read = await view(r.body.data.slug);
      expect(read.body.data.content).toBe(`own ${i}`);
    }
  });
});

describe("viewing pastes", () => {
  it("counts views and flags the last one; the next visitor gets 410", async () => {
    const { slug } = (await createPaste({ content: "twice", maxViews: 2 })).body.data;
    const first = await view(slug);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({
      content: "twice",
      views: 1,
      remainingViews: 1,
      isLastView: false,
      hasPassword: false,
    });
    const second = await view(slug);
    expect(second.body.data).toMatchObject({
      content: "twice",
      views: 2,
      remainingViews: 0,
      isLastView: true,
    });
    const third = await view(slug);
    expect(third.status).toBe(410);
    expect(third.body).toMatchObject({
      error: "paste_view_limit",
      message: "Paste has reached its maximum views",
    });
  });

  it("with max_views = N and many concurrent viewers exactly N succeed", async () => {
    const { slug } = (await createPaste({ content: "hot", maxViews: 5 })).body.data;
    const results = await Promise.all(Array.from({ length: 30 }, () => view(slug)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
    expect(results.filter((r) => r.status === 410)).toHaveLength(25);
    const views = results
      .filter((r) => r.status === 200)
      .map((r) => r.body.data.views)
      .sort();
    expect(views).toEqual([1, 2, 3, 4, 5]);
  });

  it("raw: with max_views = N, N concurrent raw reads and paste views together get the content, then 410", async () => {
    const { slug } = (await createPaste({ content: "hot raw", maxViews: 4 })).body.data;
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? view(slug) : t.request("GET", `/api/raw/${slug}`))),
    );
    const served = results.filter((r) => r.status === 200);
    expect(served).toHaveLength(4);
    for (const r of served) expect(r.text).toContain("hot raw");
    expect(results.filter((r) => r.status === 410)).toHaveLength(16);
    const owner = await t.request("GET", `/api/paste/${slug}`, { token });
    expect(owner.body.data.views).toBe(4);
  });

  it("unknown slug is 404, expired is 410", async () => {
    const missing = await view("no-such-paste");
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe("paste_not_found");
    const { slug } = (
      await createPaste({ content: "soon gone", expiresAt: new Date(Date.now() + 60_000).toISOString() })
    ).body.data;
    await t.ctx.db
      .updateTable("pastes")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("slug", "=", slug)
      .execute();
    const expired = await view(slug);
    expect(expired.status).toBe(410);
    expect(expired.body.error).toBe("paste_expired");
  });

  it("HEAD requests, link-preview bots, the admin and the creator never use up a view", async () => {
    const { slug } = (await createPaste({ content: "precious", maxViews: 1 }, { apiKey: textKey.key })).body
      .data;
    const head = await t.request("HEAD", `/api/paste/${slug}`);
    expect(head.status).toBe(200);
    for (const ua of [
      "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
      "facebookexternalhit/1.1",
      "TelegramBot (like TwitterBot)",
      "Mozilla/5.0 (compatible; Discordbot/2.0)",
      "WhatsApp/2.23",
    ]) {
      const bot = await view(slug, { "user-agent": ua });
      expect(bot.status).toBe(200);
      expect(bot.body.data.content).toBeUndefined();
    }
    const asAdmin = await t.request("GET", `/api/paste/${slug}`, { token });
    expect(asAdmin.body.data.content).toBe("precious");
    const asOwner = await t.request("GET", `/api/paste/${slug}`, { apiKey: textKey.key });
    expect(asOwner.body.data.content).toBe("precious");
    const visitor = await view(slug, { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/120" });
    expect(visitor.status).toBe(200);
    expect(visitor.body.data).toMatchObject({ content: "precious", views: 1, isLastView: true });
    expect((await view(slug)).status).toBe(410);
  });

  it("another key's view counts like a visitor's", async () => {
    const { slug } = (await createPaste({ content: "x", maxViews: 1 })).body.data;
    expect((await t.request("GET", `/api/paste/${slug}`, { apiKey: otherKey.key })).status).toBe(200);
    expect((await view(slug)).status).toBe(410);
  });
});

describe("password-protected pastes", () => {
  it("GET gives only what is needed to prompt; wrong password 401; right one returns content and counts", async () => {
    const { slug } = (await createPaste({ content: "secret text", password: "open-sesame", maxViews: 2 }))
      .body.data;
    const meta = await view(slug);
    expect(meta.status).toBe(200);
    expect(meta.body.data).toMatchObject({ requiresPassword: true, hasPassword: true, views: 0 });
    expect(meta.body.data.content).toBeUndefined();

    const headers = freshIp();
    const wrong = await t.request("POST", `/api/paste/${slug}`, { body: { password: "nope" }, headers });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ error: "wrong_password", message: "Incorrect password" });
    // A client that prefers Chinese reads 0.7.3's wording, under the same error id.
    const wrongZh = await t.request("POST", `/api/paste/${slug}`, {
      body: { password: "nope" },
      headers: { ...headers, "accept-language": "zh-CN,zh;q=0.9" },
    });
    expect(wrongZh.status).toBe(401);
    expect(wrongZh.body.error).toBe("wrong_password");
    expect(wrongZh.body.message).toContain("密码错误");
    const empty = await t.request("POST", `/api/paste/${slug}`, { body: {}, headers });
    expect(empty.status).toBe(400);

    const right = await t.request("POST", `/api/paste/${slug}`, {
      body: { password: "open-sesame" },
      headers,
    });
    expect(right.status).toBe(200);
    expect(right.body.data).toMatchObject({ content: "secret text", views: 1, hasPassword: true });
    expect(right.body.data.accessToken).toMatch(/^\d+\.[A-Za-z0-9_-]+$/);
    expect(right.body.data.plain_password).toBeUndefined();
  });

  it("password attempts are rate-limited per IP and paste", async () => {
    const { slug } = (await createPaste({ content: "guarded", password: "the-password" })).body.data;
    const headers = freshIp();
    for (let i = 0; i < 10; i++) {
      expect(
        (await t.request("POST", `/api/paste/${slug}`, { body: { password: `guess${i}` }, headers })).status,
      ).toBe(401);
    }
    const blocked = await t.request("POST", `/api/paste/${slug}`, {
      body: { password: "the-password" },
      headers,
    });
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get("retry-after")).toBeTruthy();
    const elsewhere = await t.request("POST", `/api/paste/${slug}`, {
      body: { password: "the-password" },
      headers: freshIp(),
    });
    expect(elsewhere.status).toBe(200);
  });

  it("a paste without password answers 400 to a password", async () => {
    const { slug } = (await createPaste({ content: "open" })).body.data;
    const res = await t.request("POST", `/api/paste/${slug}`, { body: { password: "x" } });
    expect(res.status).toBe(400);
  });
});

describe("raw pastes", () => {
  it("serves text/plain that cannot run as a page, and counts the view", async () => {
    const { slug } = (await createPaste({ content: "<script>alert(1)</script>", maxViews: 1 })).body.data;
    const res = await t.request("GET", `/api/raw/${slug}`);
    expect(res.status).toBe(200);
    expect(res.text).toBe("<script>alert(1)</script>");
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toContain("sandbox");
    const again = await t.request("GET", `/api/raw/${slug}`);
    expect(again.status).toBe(410);
    expect(again.text).toContain("maximum views");
    expect(again.headers.get("content-type")).toContain("text/plain");
  });

  it("answers a directly opened raw URL in the browser's language", async () => {
    const zh = { ...freshIp(), "accept-language": "zh-CN,zh;q=0.9,en;q=0.8" };
    const missing = await t.request("GET", "/api/raw/no-such-paste-zh", { headers: zh });
    expect(missing.status).toBe(404);
    expect(missing.text).toBe("文本分享不存在或已过期\n");
    expect(missing.headers.get("content-language")).toBe("zh");
    expect(missing.headers.get("vary")).toContain("Accept-Language");
    const { slug } = (await createPaste({ content: "zh secret", password: "zh-pass-1" })).body.data;
    const wrong = await t.request("GET", `/api/raw/${slug}?password=bad`, { headers: zh });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toBe("密码错误\n");
    // English is preferred here, and stays the default without the header.
    const en = await t.request("GET", "/api/raw/no-such-paste-zh", {
      headers: { ...freshIp(), "accept-language": "en-US,en;q=0.9,zh;q=0.5" },
    });
    expect(en.text).toBe("Paste does not exist or has expired\n");
    expect((await t.request("GET", "/api/raw/no-such-paste-zh", { headers: freshIp() })).text).toBe(
      "Paste does not exist or has expired\n",
    );
  });

  it("needs the password (plain-text 401s), accepts ?password= and the access token", async () => {
    const { slug } = (await createPaste({ content: "raw secret", password: "raw-pass-1", maxViews: 2 })).body
      .data;
    const none = await t.request("GET", `/api/raw/${slug}`, { headers: freshIp() });
    expect(none.status).toBe(401);
    expect(none.text).toContain("Password required");
    const wrong = await t.request("GET", `/api/raw/${slug}?password=bad`, { headers: freshIp() });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain("Incorrect password");
    const byPassword = await t.request("GET", `/api/raw/${slug}?password=raw-pass-1`, { headers: freshIp() });
    expect(byPassword.text).toBe("raw secret");
    const unlocked = await t.request("POST", `/api/paste/${slug}`, {
      body: { password: "raw-pass-1" },
      headers: freshIp(),
    });
    expect(unlocked.body.data.views).toBe(2);
    // The token was issued for a view already counted: it keeps working without counting again.
    const byToken = await t.request(
      "GET",
      `/api/raw/${slug}?token=${encodeURIComponent(unlocked.body.data.accessToken)}`,
    );
    expect(byToken.status).toBe(410);
  });

  it("a token opens the raw text while views remain, and is void after a password change", async () => {
    const { slug } = (await createPaste({ content: "tokened", password: "first-pass" })).body.data;
    const unlocked = await t.request("POST", `/api/paste/${slug}`, {
      body: { password: "first-pass" },
      headers: freshIp(),
    });
    const tokenParam = encodeURIComponent(unlocked.body.data.accessToken);
    const ok1 = await t.request("GET", `/api/raw/${slug}?token=${tokenParam}`);
    expect(ok1.text).toBe("tokened");
    await t.request("PUT", `/api/pastes/${slug}`, { token, body: { password: "second-pass" } });
    const after = await t.request("GET", `/api/raw/${slug}?token=${tokenParam}`, { headers: freshIp() });
    expect(after.status).toBe(401);
  });

  it("HEAD and bots get no content and use no view", async () => {
    const { slug } = (await createPaste({ content: "raw once", maxViews: 1 })).body.data;
    expect((await t.request("HEAD", `/api/raw/${slug}`)).status).toBe(200);
    const bot = await t.request("GET", `/api/raw/${slug}`, { headers: { "user-agent": "Twitterbot/1.0" } });
    expect(bot.text).not.toContain("raw once");
    expect((await t.request("GET", `/api/raw/${slug}`)).text).toBe("raw once");
  });
});

describe("managing pastes", () => {
  it("admin lists everything with pagination (default limit 10); a key lists only its own", async () => {
    const mine = await t.createApiKey(Permission.TEXT);
    for (let i = 0; i < 3; i++)
      await createPaste({ content: `mine ${i}`, remark: "mine" }, { apiKey: mine.key });
    const adminList = await t.request("GET", "/api/pastes", { token });
    expect(adminList.status).toBe(200);
    expect(adminList.body.data.length).toBe(10);
    expect(adminList.body.pagination.total).toBeGreaterThan(10);
    expect(adminList.body.pagination.hasMore).toBe(true);
    const page2 = await t.request("GET", "/api/pastes?page=2&limit=5", { token });
    expect(page2.body.pagination).toMatchObject({ page: 2, limit: 5, offset: 5 });
    const keyList = await t.request("GET", "/api/pastes", { apiKey: mine.key });
    expect(keyList.body.data).toHaveLength(3);
    expect(keyList.body.data.every((p: { created_by: string }) => p.created_by === `apikey:${mine.id}`)).toBe(
      true,
    );
    expect(keyList.body.data[0].content_preview).toMatch(/^mine \d$/);
    expect(keyList.body.data[0].key_name).toBeTruthy();
  });

  it("searches slug, remark and content; filters by creator and expiry state", async () => {
    await createPaste({ content: "needle-in-content", remark: "hay" });
    await createPaste({ content: "plain", remark: "needle-in-remark" });
    await createPaste({ content: "plain", slug: "needle-in-slug" });
    const found = await t.request("GET", "/api/pastes?search=needle-in&limit=50", { token });
    expect(found.body.data).toHaveLength(3);
    const pct = await t.request("GET", `/api/pastes?search=${encodeURIComponent("%")}&limit=50`, { token });
    expect(pct.body.data).toHaveLength(0);
    const byCreator = await t.request(
      "GET",
      `/api/pastes?created_by=${encodeURIComponent(`apikey:${textKey.id}`)}&limit=50`,
      { token },
    );
    expect(
      byCreator.body.data.every((p: { created_by: string }) => p.created_by === `apikey:${textKey.id}`),
    ).toBe(true);
    const expired = await t.request("GET", "/api/pastes?expired=true&limit=200", { token });
    expect(expired.body.data.every((p: { is_expired: boolean }) => p.is_expired)).toBe(true);
    expect(expired.body.data.length).toBeGreaterThan(0);
  });

  it("owner reads and edits; a foreign key gets 404; edits reset views and handle slugs", async () => {
    const created = (await createPaste({ content: "v1", maxViews: 1 }, { apiKey: textKey.key })).body.data;
    await view(created.slug);
    expect((await t.request("GET", `/api/pastes/${created.id}`, { apiKey: otherKey.key })).status).toBe(404);
    const got = await t.request("GET", `/api/pastes/${created.id}`, { apiKey: textKey.key });
    expect(got.body.data).toMatchObject({ content: "v1", views: 1 });

    const upd = await t.request("PUT", `/api/pastes/${created.slug}`, {
      apiKey: textKey.key,
      body: { content: "v2", remark: "edited", password: "now-locked", maxViews: 5, newSlug: "edited-slug" },
    });
    expect(upd.status).toBe(200);
    expect(upd.body.data).toMatchObject({
      slug: "edited-slug",
      remark: "edited",
      has_password: true,
      max_views: 5,
      views: 0,
    });
    expect((await view(created.slug)).status).toBe(404);
    const meta = await view("edited-slug");
    expect(meta.body.data.requiresPassword).toBe(true);

    const cleared = await t.request("PUT", `/api/pastes/${created.id}`, {
      apiKey: textKey.key,
      body: { clearPassword: true, expiresAt: null, maxViews: 0 },
    });
    expect(cleared.body.data).toMatchObject({ has_password: false, max_views: null, expires_at: null });
    expect((await view("edited-slug")).body.data.content).toBe("v2");

    await createPaste({ content: "other", slug: "taken-by-other" });
    const clash = await t.request("PUT", `/api/pastes/${created.id}`, {
      apiKey: textKey.key,
      body: { newSlug: "taken-by-other" },
    });
    expect(clash.status).toBe(409);
    expect(clash.body.error).toBe("slug_taken");
    const random = await t.request("PUT", `/api/pastes/${created.id}`, {
      apiKey: textKey.key,
      body: { newSlug: "" },
    });
    expect(random.body.data.slug).toMatch(/^[A-Za-z0-9]{10}$/);
    expect(
      (
        await t.request("PUT", `/api/pastes/${created.id}`, {
          apiKey: otherKey.key,
          body: { content: "hijack" },
        })
      ).status,
    ).toBe(404);
  });

  it("batch delete removes only what the caller owns", async () => {
    const mine = (await createPaste({ content: "a" }, { apiKey: textKey.key })).body.data;
    const theirs = (await createPaste({ content: "b" }, { apiKey: otherKey.key })).body.data;
    const res = await t.request("DELETE", "/api/pastes/batch-delete", {
      apiKey: textKey.key,
      body: { ids: [mine.id, theirs.id] },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.deleted).toBe(1);
    expect((await view(theirs.slug)).status).toBe(200);
    const bad = await t.request("DELETE", "/api/pastes/batch-delete", { token, body: { ids: [] } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("Please provide a valid ID array");
  });

  it("clear-expired removes expired and used-up pastes: admin all, a key only its own", async () => {
    const own = (await createPaste({ content: "k", maxViews: 1 }, { apiKey: otherKey.key })).body.data;
    await view(own.slug);
    const adminOwned = (await createPaste({ content: "a", maxViews: 1 })).body.data;
    await view(adminOwned.slug);
    const byKey = await t.request("POST", "/api/pastes/clear-expired", {
      apiKey: otherKey.key,
      body: { clearExpired: true },
    });
    expect(byKey.body.data.cleared).toBe(1);
    expect((await view(own.slug)).status).toBe(404);
    expect((await view(adminOwned.slug)).status).toBe(410);
    expect(
      (await t.request("POST", "/api/admin/pastes/clear-expired", { apiKey: otherKey.key })).status,
    ).toBe(403);
    const byAdmin = await t.request("POST", "/api/admin/pastes/clear-expired", { token });
    expect(byAdmin.body.data.cleared).toBeGreaterThanOrEqual(1);
    expect((await view(adminOwned.slug)).status).toBe(404);
  });
});
