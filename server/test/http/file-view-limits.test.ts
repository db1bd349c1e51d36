/**
 * Max views on file shares hold on every path that hands out the content or a
 * URL to it: ranged downloads, link-preview bots, Office viewer URLs and
 * presigned redirects. A counted download continues (Range requests, video
 * seeking, resumes) with its access token, from the cookie or `?token=`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cookieFor } from "../support/cookies";
import { createS3Storage, type StorageUnderTest } from "../support/fs-helpers";
import { describeS3 } from "../support/s3-env";
import { createTestApp, type TestApp } from "../support/test-app";

const BOT_AGENTS = [
  "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
  "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)",
  "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
];
const BROWSER =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120 Safari/537.36";
const BODY = "0123456789abcdefghij";

async function upload(t: TestApp, filename: string, query: string, body = BODY) {
  const res = await t.request("PUT", `/api/upload-direct/${encodeURIComponent(filename)}?${query}`, {
    token: await t.adminToken(),
    rawBody: body,
    headers: { "content-type": "application/octet-stream" },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data.slug as string;
}

async function views(t: TestApp, slug: string): Promise<number> {
  const row = await t.ctx.db
    .selectFrom("files")
    .select("views")
    .where("slug", "=", slug)
    .executeTakeFirstOrThrow();
  return Number(row.views);
}

describe("file shares on LOCAL", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.request(url, { headers: { "user-agent": BROWSER, ...headers } });

  it("Range: bytes=0- without a token counts a view, so it cannot download past max views", async () => {
    const slug = await upload(t, "ranged.bin", "max_views=2");
    for (let i = 0; i < 2; i++) {
      const res = await get(`/api/file-download/${slug}`, { range: "bytes=0-" });
      expect(res.status).toBe(206);
      expect(await res.text()).toBe(BODY);
    }
    expect(await views(t, slug)).toBe(2);
    const third = await get(`/api/file-download/${slug}`, { range: "bytes=0-" });
    expect(third.status).toBe(410);
    expect(await third.text()).not.toContain(BODY);
  });

  it("a used-up download opened directly is explained in the browser's language", async () => {
    const slug = await upload(t, "zh.bin", "max_views=1");
    expect((await get(`/api/file-download/${slug}`)).status).toBe(200);
    const zh = await get(`/api/file-download/${slug}`, { "accept-language": "zh-CN,zh;q=0.9" });
    expect(zh.status).toBe(410);
    expect(await zh.text()).toBe("文件已达到最大查看次数\n");
    const en = await get(`/api/file-download/${slug}`, { "accept-language": "en-GB" });
    expect(await en.text()).toBe("File has reached its maximum views\n");
  });

  it("revalidations answered 304 use no view: a 3-view share after one download and two 304s has two left", async () => {
    const slug = await upload(t, "cached.bin", "max_views=3");
    const first = await get(`/api/file-download/${slug}`);
    expect(first.status).toBe(200);
    const etag = first.headers.get("etag")!;
    const modified = first.headers.get("last-modified")!;
    expect((await get(`/api/file-download/${slug}`, { "if-none-match": etag })).status).toBe(304);
    expect((await get(`/api/file-view/${slug}`, { "if-modified-since": modified })).status).toBe(304);
    expect(await views(t, slug)).toBe(1);
    // A validator that does not match is a download like any other, and counts.
    const changed = await get(`/api/file-download/${slug}`, { "if-none-match": '"something-else"' });
    expect(changed.status).toBe(200);
    expect(await changed.text()).toBe(BODY);
    expect(await views(t, slug)).toBe(2);
  });

  it("a revalidation still needs the password", async () => {
    const slug = await upload(t, "locked-cache.bin", "max_views=2&password=pw-cache-1");
    const first = await get(`/api/file-download/${slug}?password=pw-cache-1`);
    expect(first.status).toBe(200);
    const etag = first.headers.get("etag")!;
    expect((await get(`/api/file-download/${slug}`, { "if-none-match": etag })).status).toBe(401);
    const revalidated = await get(`/api/file-download/${slug}?password=pw-cache-1`, {
      "if-none-match": etag,
    });
    expect(revalidated.status).toBe(304);
    expect(await views(t, slug)).toBe(1);
  });

  it("a used-up share answers 410 to a revalidation, not 304", async () => {
    const slug = await upload(t, "used-cache.bin", "max_views=1");
    const first = await get(`/api/file-download/${slug}`);
    const etag = first.headers.get("etag")!;
    expect((await get(`/api/file-download/${slug}`, { "if-none-match": etag })).status).toBe(410);
  });

  it("a tokenless range that does not start at 0 counts too", async () => {
    const slug = await upload(t, "tail.bin", "max_views=1");
    const tail = await get(`/api/file-view/${slug}`, { range: "bytes=1-" });
    expect(tail.status).toBe(206);
    expect(await tail.text()).toBe(BODY.slice(1));
    expect((await get(`/api/file-view/${slug}`, { range: "bytes=0-0" })).status).toBe(410);
  });

  it("a counted download continues with its cookie: a player's many ranges use one view", async () => {
    const slug = await upload(t, "movie.mp4", "max_views=1");
    const first = await get(`/api/file-view/${slug}`, { range: "bytes=0-4" });
    expect(first.status).toBe(206);
    expect(await first.text()).toBe(BODY.slice(0, 5));
    const cookie = cookieFor(first, `/api/file-view/${slug}`);
    expect(cookie).toMatch(/=/);
    expect(first.headers.get("set-cookie")).toMatch(/HttpOnly/i);
    for (const range of ["bytes=5-9", "bytes=10-", "bytes=3-12", "bytes=0-"]) {
      const next = await get(`/api/file-view/${slug}`, { range, cookie });
      expect(next.status, range).toBe(206);
    }
    // The download route of the same share takes the same cookie (a "save" after watching).
    const save = await get(`/api/file-download/${slug}`, {
      cookie: cookieFor(first, `/api/file-download/${slug}`),
    });
    expect(await save.text()).toBe(BODY);
    expect(await views(t, slug)).toBe(1);
    // Anyone else has no view left.
    expect((await get(`/api/file-view/${slug}`, { range: "bytes=5-9" })).status).toBe(410);
    // A client without cookies resumes with the same token as ?token=.
    const token = cookie.split("=")[1]!;
    const resumed = await get(`/api/file-download/${slug}?token=${encodeURIComponent(token)}`, {
      range: "bytes=15-",
    });
    expect(await resumed.text()).toBe(BODY.slice(15));
  });

  it("a direct link with ?password= checks the password once per download, not once per range", async () => {
    const slug = await upload(t, "locked.mp4", "password=pw-123456");
    const first = await get(`/api/file-view/${slug}?password=pw-123456`, { range: "bytes=0-4" });
    expect(first.status).toBe(206);
    const cookie = cookieFor(first, `/api/file-view/${slug}`);
    expect(cookie).toMatch(/=/);
    // The continuation is authorized by the cookie: even a stale password in the URL is not checked again.
    const next = await get(`/api/file-view/${slug}?password=old-password`, { range: "bytes=5-", cookie });
    expect(next.status).toBe(206);
    expect(await next.text()).toBe(BODY.slice(5));
    expect(next.headers.getSetCookie()).toEqual([]);
  });

  it("a continuation token of another share, or a forged one, does not open this share", async () => {
    const other = await upload(t, "other.bin", "max_views=5");
    const first = await get(`/api/file-view/${other}`);
    const otherToken = cookieFor(first, `/api/file-view/${other}`).split("=")[1]!;
    const slug = await upload(t, "guarded.bin", "max_views=1");
    expect((await get(`/api/file-view/${slug}`)).status).toBe(200);
    for (const token of [otherToken, `${Math.floor(Date.now() / 1000) + 600}.forged`]) {
      const res = await get(`/api/file-view/${slug}`, { cookie: `clipshare_download=${token}` });
      expect(res.status).toBe(410);
    }
  });

  it("link-preview bots get no content from file-view or file-download and use no view", async () => {
    const slug = await upload(t, "unfurl.txt", "max_views=1");
    for (const ua of BOT_AGENTS) {
      for (const route of ["file-view", "file-download"]) {
        for (const range of [undefined, "bytes=0-"]) {
          const res = await t.app.request(`/api/${route}/${slug}`, {
            headers: { "user-agent": ua, ...(range ? { range } : {}) },
          });
          expect(res.status, `${ua} ${route} ${range}`).toBe(403);
          expect(await res.text()).not.toContain(BODY);
        }
      }
      // Metadata only, without URLs to the content.
      const meta = await t.request("GET", `/api/public/files/${slug}`, { headers: { "user-agent": ua } });
      expect(meta.status).toBe(200);
      expect(meta.body.data).toMatchObject({ filename: "unfurl.txt", size: BODY.length });
      expect(meta.body.data.previewUrl).toBeUndefined();
    }
    expect(await views(t, slug)).toBe(0);
    const visitor = await get(`/api/file-download/${slug}`);
    expect(await visitor.text()).toBe(BODY);
  });

  it("office-preview counts a view when it hands out a URL without a token; bots get none", async () => {
    const slug = await upload(t, "deck.pptx", "max_views=1");
    const bot = await t.request("GET", `/api/office-preview/${slug}`, {
      headers: { "user-agent": BOT_AGENTS[0]! },
    });
    expect(bot.status).toBe(403);
    expect(bot.text).not.toContain("token=");
    expect(await views(t, slug)).toBe(0);
    const first = await t.request("GET", `/api/office-preview/${slug}`, {
      headers: { "user-agent": BROWSER },
    });
    expect(first.status).toBe(200);
    expect(await views(t, slug)).toBe(1);
    // The URL it handed out works for the viewer service…
    expect(await (await t.app.request(first.body.url)).text()).toBe(BODY);
    // …and nobody gets another one.
    const second = await t.request("GET", `/api/office-preview/${slug}`, {
      headers: { "user-agent": BROWSER },
    });
    expect(second.status).toBe(410);
    expect((await get(`/api/file-download/${slug}`)).status).toBe(410);
  });

  it("office-preview with the page's token does not count again and does not extend the token", async () => {
    const slug = await upload(t, "sheet.xlsx", "max_views=1");
    const page = await t.request("GET", `/api/public/files/${slug}`, { headers: { "user-agent": BROWSER } });
    const token = new URL(page.body.data.previewUrl).searchParams.get("token")!;
    const res = await t.request("GET", `/api/office-preview/${slug}?token=${encodeURIComponent(token)}`);
    expect(res.status).toBe(200);
    expect(new URL(res.body.url).searchParams.get("token")).toBe(token);
    expect(await views(t, slug)).toBe(1);
  });

  it("a file that is not an Office document uses no view on office-preview", async () => {
    const slug = await upload(t, "plain.txt", "max_views=1");
    const res = await t.request("GET", `/api/office-preview/${slug}`, { headers: { "user-agent": BROWSER } });
    expect(res.status).toBe(400);
    expect(await views(t, slug)).toBe(0);
  });

  it("pastes keep their rules: a raw paste without a password does not count, bots get no content", async () => {
    const create = await t.request("POST", "/api/paste", {
      token: await t.adminToken(),
      body: { content: "paste body", maxViews: 1 },
    });
    const slug = create.body.data.slug;
    const bot = await t.request("GET", `/api/paste/${slug}`, { headers: { "user-agent": BOT_AGENTS[1]! } });
    expect(bot.body.data.content).toBeUndefined();
    const visitor = await t.request("GET", `/api/paste/${slug}`, { headers: { "user-agent": BROWSER } });
    expect(visitor.body.data.content).toBe("paste body");
    expect((await t.request("GET", `/api/paste/${slug}`)).status).toBe(410);
  });
});

describeS3("file shares on S3: presigned redirects", (s3) => {
  let t: TestApp;
  let swift: StorageUnderTest;

  beforeAll(async () => {
    t = await createTestApp();
    swift = await createS3Storage(t, s3, "view-limits");
  });
  afterAll(async () => {
    await swift.cleanup();
    await t.close();
  });

  it("a ranged request that is redirected to a presigned URL counts a view", async () => {
    const slug = await upload(t, "direct.bin", `s3_config_id=${swift.configId}&use_proxy=0&max_views=1`);
    const first = await t.app.request(`/api/file-download/${slug}`, {
      headers: { range: "bytes=0-", "user-agent": BROWSER },
    });
    expect(first.status).toBe(302);
    const stored = await fetch(first.headers.get("location")!);
    expect(await stored.text()).toBe(BODY);
    const again = await t.app.request(`/api/file-download/${slug}`, {
      headers: { range: "bytes=0-", "user-agent": BROWSER },
    });
    expect(again.status).toBe(410);
    expect(again.headers.get("location")).toBeNull();
  });

  it("office-preview hands out a presigned URL only for a counted view", async () => {
    const slug = await upload(t, "memo.docx", `s3_config_id=${swift.configId}&max_views=1`);
    const first = await t.request("GET", `/api/office-preview/${slug}`, {
      headers: { "user-agent": BROWSER },
    });
    expect(first.status).toBe(200);
    expect(await (await fetch(first.body.url)).text()).toBe(BODY);
    const second = await t.request("GET", `/api/office-preview/${slug}`, {
      headers: { "user-agent": BROWSER },
    });
    expect(second.status).toBe(410);
  });
});
