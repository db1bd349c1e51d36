import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { Permission } from "@clipshare/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
let token: string;
let fileKey: { id: string; key: string };
let otherKey: { id: string; key: string };
beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: "true" });
  token = await t.adminToken();
  fileKey = await t.createApiKey(Permission.FILE_SHARE);
  otherKey = await t.createApiKey(Permission.FILE_SHARE);
});
afterAll(async () => t.close());

let ipSeq = 1;
const freshIp = () => ({ "x-forwarded-for": `10.2.${Math.floor(ipSeq / 250)}.${ipSeq++ % 250}` });
const filesRoot = () => path.join(t.dataDir, "files");

/** All files under the LOCAL root (hidden temp dirs included), relative. */
function storedFiles(dir = filesRoot(), prefix = ""): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? storedFiles(path.join(dir, d.name), `${prefix}${d.name}/`) : [`${prefix}${d.name}`],
  );
}

async function uploadDirect(
  filename: string,
  content: string | Uint8Array,
  query = "",
  auth: { token?: string; apiKey?: string } = { token },
) {
  return t.request("PUT", `/api/upload-direct/${encodeURIComponent(filename)}${query ? `?${query}` : ""}`, {
    ...auth,
    rawBody: typeof content === "string" ? content : Buffer.from(content),
    headers: { "content-type": "application/octet-stream" },
  });
}

describe("default storage", () => {
  it("a LOCAL config under DATA_DIR/files exists, is default and public, and shows no secrets", async () => {
    const res = await t.request("GET", "/api/s3-configs", { token });
    expect(res.status).toBe(200);
    const [local] = res.body.data;
    expect(local).toMatchObject({
      storage_type: "LOCAL",
      is_default: true,
      is_public: true,
      root_path: filesRoot(),
    });
    expect(local.secret_access_key).toBeNull();
  });
});

describe("upload through the server", () => {
  it.each([
    ["application/x-www-form-urlencoded", "image/png"],
    ["application/octet-stream", "image/png"],
    ["binary/octet-stream", "image/png"],
    ["image/gif", "image/gif"],
  ])(
    "PUT /upload-direct sent as %s stores a .png as %s (a generic type yields to the name)",
    async (sent, stored) => {
      const res = await t.request("PUT", "/api/upload-direct/shot.png", {
        token,
        rawBody: "x",
        headers: { "content-type": sent },
      });
      expect(res.status, res.text).toBe(201);
      expect(res.body.data.mimetype).toBe(stored);
    },
  );

  it("PUT /upload-direct decodes the file name once: %25 is a percent sign, a broken escape is 400", async () => {
    const percent = await uploadDirect("100%.txt", "full");
    expect(percent.status, percent.text).toBe(201);
    expect(percent.body.data.filename).toBe("100%.txt");
    const bare = await t.request("PUT", "/api/upload-direct/%25", { token, rawBody: "x" });
    expect(bare.status, bare.text).toBe(201);
    expect(bare.body.data.filename).toBe("%");
    for (const name of ["%E0%A4%A", "%zz.txt", "a%"]) {
      const res = await t.request("PUT", `/api/upload-direct/${name}`, { token, rawBody: "x" });
      expect(res.status, name).toBe(400);
      expect(res.body).toMatchObject({ success: false, error: "invalid_file_name" });
    }
    const slash = await t.request("PUT", "/api/upload-direct/a%2Fb.txt", { token, rawBody: "x" });
    expect(slash.status).toBe(400);
  });

  it("PUT /upload-direct stores the bytes and publishes a share a visitor can download", async () => {
    const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => i % 251));
    const res = await uploadDirect("data.bin", bytes, "remark=hello");
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      filename: "data.bin",
      size: 70_000,
      remark: "hello",
      mimetype: "application/octet-stream",
      status: "active",
    });
    const slug = res.body.data.slug;
    const pub = await t.request("GET", `/api/public/files/${slug}`);
    expect(pub.status).toBe(200);
    expect(pub.body.data).toMatchObject({
      filename: "data.bin",
      size: 70_000,
      views: 1,
      requires_password: false,
    });
    const dl = await t.app.request(pub.body.data.downloadUrl);
    expect(dl.status).toBe(200);
    expect(Buffer.from(await dl.arrayBuffer()).equals(bytes)).toBe(true);
    expect(dl.headers.get("content-disposition")).toBe('attachment; filename="data.bin"');
    expect(dl.headers.get("etag")).toBeTruthy();
  });

  it("POST /upload takes a multipart form with the fields before the file", async () => {
    const form = new FormData();
    form.append("remark", "form upload");
    form.append("slug", "form-file");
    form.append("max_views", "3");
    form.append("file", new Blob(["# Title\n\ntext"]), "notes.MD");
    const res = await t.app.request("/api/upload", {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    const body = (await res.json()) as any;
    expect(res.status).toBe(201);
    expect(body.data).toMatchObject({
      slug: "form-file",
      filename: "notes.MD",
      mimetype: "text/markdown",
      remark: "form upload",
      max_views: 3,
    });
  });

  it("takes the fields after the file too: they decide where the file goes", async () => {
    const late = new FormData();
    late.append("file", new Blob(["late fields"]), "a.txt");
    late.append("slug", "file-first");
    late.append("remark", "sent after the file");
    const res = await t.app.request("/api/upload", {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      body: late,
    });
    const body = (await res.json()) as { data: Record<string, unknown> };
    expect(res.status).toBe(201);
    expect(body.data).toMatchObject({ slug: "file-first", remark: "sent after the file", size: 11 });
    // A storage named after the file is honoured as well: an unknown one refuses the upload and keeps nothing.
    const elsewhere = new FormData();
    elsewhere.append("file", new Blob(["x"]), "b.txt");
    elsewhere.append("s3_config_id", "no-such-config");
    const refused = await t.app.request("/api/upload", {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      body: elsewhere,
    });
    expect(refused.status).toBe(404);
    expect(
      await t.ctx.db.selectFrom("files").select("id").where("filename", "=", "b.txt").execute(),
    ).toHaveLength(0);
    const none = new FormData();
    none.append("remark", "no file");
    const res2 = await t.app.request("/api/upload", {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      body: none,
    });
    expect(res2.status).toBe(400);
  });

  it("enforces the max upload size (413) and leaves no share and no stored object", async () => {
    await t.request("PUT", "/api/admin/system-settings", {
      token,
      body: { max_upload_size: 1, max_upload_size_unit: "KB" },
    });
    try {
      const before = storedFiles();
      const res = await uploadDirect("big.txt", "x".repeat(5000));
      expect(res.status).toBe(413);
      expect(res.body.error).toBe("content_too_large");
      expect(res.body.message).toContain("File size exceeds system limit");
      // The same without a Content-Length: the stream is cut at the limit.
      const chunked = new ReadableStream({
        start(controller) {
          for (let i = 0; i < 10; i++) controller.enqueue(new TextEncoder().encode("y".repeat(500)));
          controller.close();
        },
      });
      const res2 = await t.app.request("/api/upload-direct/stream.txt", {
        method: "PUT",
        headers: { authorization: `Bearer ${token}` },
        body: chunked,
        duplex: "half",
      } as RequestInit);
      expect(res2.status).toBe(413);
      expect(storedFiles()).toEqual(before);
      const rows = await t.ctx.db
        .selectFrom("files")
        .select("filename")
        .where("filename", "in", ["big.txt", "stream.txt"])
        .execute();
      expect(rows).toHaveLength(0);
    } finally {
      await t.request("PUT", "/api/admin/system-settings", {
        token,
        body: { max_upload_size: 100, max_upload_size_unit: "MB" },
      });
    }
  });

  it("an upload cut off mid-stream leaves no share and no visible or temporary object", async () => {
    const before = storedFiles();
    let sent = 0;
    const broken = new ReadableStream({
      pull(controller) {
        if (sent++ < 3) controller.enqueue(new Uint8Array(64 * 1024).fill(7));
        else controller.error(new Error("client went away"));
      },
    });
    const res = await Promise.resolve(
      t.app.request("/api/upload-direct/cut.bin", {
        method: "PUT",
        headers: { authorization: `Bearer ${token}` },
        body: broken,
        duplex: "half",
      } as RequestInit),
    ).catch((e: unknown) => e);
    if (res instanceof Response) expect(res.status).toBeGreaterThanOrEqual(400);
    expect(storedFiles()).toEqual(before);
    expect(
      await t.ctx.db.selectFrom("files").select("id").where("filename", "=", "cut.bin").execute(),
    ).toHaveLength(0);
  });

  it("applies slug rules: custom slug, taken (409 slug_taken), reserved (400)", async () => {
    expect((await uploadDirect("a.txt", "a", "slug=my-file")).status).toBe(201);
    const taken = await uploadDirect("b.txt", "b", "slug=my-file");
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({
      error: "slug_taken",
      message: "Link suffix already in use, try another suffix",
    });
    expect((await uploadDirect("c.txt", "c", "slug=admin")).status).toBe(400);
    expect((await uploadDirect("c.txt", "c", "slug=bad%20slug")).status).toBe(400);
  });

  it("two concurrent uploads to one slug: exactly one wins", async () => {
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => uploadDirect(`race${i}.txt`, `content ${i}`, "slug=file-race")),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(5);
    const rows = await t.ctx.db
      .selectFrom("files")
      .select("filename")
      .where("filename", "like", "race%")
      .execute();
    expect(rows).toHaveLength(1);
  });

  it("refuses bad filenames and needs FILE_SHARE", async () => {
    expect((await uploadDirect("a/b.txt", "x")).status).toBe(400);
    expect((await uploadDirect("a\u0001b.txt", "x")).status).toBe(400);
    expect((await t.request("PUT", "/api/upload-direct/x.txt", { rawBody: "x" })).status).toBe(401);
    const textKey = await t.createApiKey(Permission.TEXT);
    expect((await uploadDirect("x.txt", "x", "", { apiKey: textKey.key })).status).toBe(403);
  });
});

describe("serving shared files", () => {
  let slug: string;
  let previewUrl: string;
  const content = "0123456789abcdefghij";
  beforeAll(async () => {
    slug = (await uploadDirect("文档 report.txt", content)).body.data.slug;
    previewUrl = (await t.request("GET", `/api/public/files/${slug}`)).body.data.previewUrl;
  });

  it("names non-ASCII files per RFC 6266", async () => {
    const res = await t.app.request(`/api/file-download/${slug}`);
    expect(res.headers.get("content-disposition")).toBe(
      `attachment; filename="__ report.txt"; filename*=UTF-8''${encodeURIComponent("文档 report.txt")}`,
    );
  });

  it("answers a byte range with 206 and Content-Range", async () => {
    const res = await t.app.request(`/api/file-view/${slug}`, { headers: { range: "bytes=5-9" } });
    expect(res.status).toBe(206);
    expect(await res.text()).toBe("56789");
    expect(res.headers.get("content-range")).toBe(`bytes 5-9/${content.length}`);
  });

  it("answers a suffix range with the file's last bytes", async () => {
    const suffix = await t.app.request(`/api/file-view/${slug}`, { headers: { range: "bytes=-3" } });
    expect(await suffix.text()).toBe("hij");
  });

  it("answers a range past the end with 416", async () => {
    const bad = await t.app.request(`/api/file-view/${slug}`, { headers: { range: "bytes=500-600" } });
    expect(bad.status).toBe(416);
  });

  it("answers If-None-Match with the current ETag with 304", async () => {
    const first = await t.app.request(`/api/file-view/${slug}`);
    const etag = first.headers.get("etag")!;
    await first.arrayBuffer();
    const again = await t.app.request(`/api/file-view/${slug}`, { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
  });

  it("answers HEAD with the length and without a body", async () => {
    const head = await t.app.request(`/api/file-view/${slug}`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(content.length));
    expect(await head.text()).toBe("");
  });

  it("text is inline as text/plain, not sniffed", async () => {
    const view = await t.app.request(previewUrl);
    expect(view.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(view.headers.get("content-disposition")).toMatch(/^inline/);
    expect(view.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("HTML, SVG, XML and unknown types are attachments in a sandbox, never rendered inline", async () => {
    for (const [name, body] of [
      ["page.html", "<script>alert(1)</script>"],
      ["pic.svg", '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'],
      ["data.xml", "<a/>"],
      ["unknown.zzz", "?"],
    ] as const) {
      const s = (
        await uploadDirect(
          name,
          body,
          `mimetype=${encodeURIComponent(name.endsWith("html") ? "text/html" : name.endsWith("svg") ? "image/svg+xml" : "")}`,
        )
      ).body.data.slug;
      const res = await t.app.request(`/api/file-view/${s}`);
      expect(res.headers.get("content-disposition"), name).toMatch(/^attachment/);
      expect(res.headers.get("content-security-policy"), name).toContain("sandbox");
    }
  });

  it("audio and video are inline, may load themselves as media and run nothing", async () => {
    const s = (await uploadDirect("clip.mp4", "not really a video", "mimetype=video%2Fmp4")).body.data.slug;
    const res = await t.app.request(`/api/file-view/${s}`);
    expect(res.headers.get("content-disposition")).toMatch(/^inline/);
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("media-src 'self'");
    expect(csp).toMatch(/sandbox allow-same-origin$/);
    expect(csp).not.toContain("allow-scripts");
  });

  it("images are inline", async () => {
    const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
    const s = (await uploadDirect("pic.png", png, "mimetype=image%2Fpng")).body.data.slug;
    const res = await t.app.request(`/api/file-view/${s}`);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("content-disposition")).toMatch(/^inline/);
  });
});

describe("share rules for visitors", () => {
  it("password: prompt data only, 401 on a wrong one, URLs with a token on the right one", async () => {
    const s = (await uploadDirect("locked.txt", "locked content", "password=pw-123456")).body.data.slug;
    const pub = await t.request("GET", `/api/public/files/${s}`);
    expect(pub.body.data).toMatchObject({ requires_password: true, views: 0 });
    expect(pub.body.data.downloadUrl).toBeUndefined();
    const direct = await t.app.request(`/api/file-download/${s}`, { headers: freshIp() });
    expect(direct.status).toBe(401);
    const wrong = await t.request("POST", `/api/public/files/${s}/verify`, {
      body: { password: "nope" },
      headers: freshIp(),
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.message).toBe("Incorrect password");
    const right = await t.request("POST", `/api/public/files/${s}/verify`, {
      body: { password: "pw-123456" },
      headers: freshIp(),
    });
    expect(right.status).toBe(200);
    expect(right.body.data.views).toBe(1);
    const dl = await t.app.request(right.body.data.downloadUrl);
    expect(await dl.text()).toBe("locked content");
    const byPassword = await t.app.request(`/api/file-download/${s}?password=pw-123456`, {
      headers: freshIp(),
    });
    expect(await byPassword.text()).toBe("locked content");
  });

  it("max views: exactly N concurrent visitors get the file; the token keeps working for Range requests", async () => {
    const s = (await uploadDirect("limited.txt", "limited", "max_views=3")).body.data.slug;
    const results = await Promise.all(
      Array.from({ length: 15 }, () => t.request("GET", `/api/public/files/${s}`)),
    );
    const okOnes = results.filter((r) => r.status === 200);
    expect(okOnes).toHaveLength(3);
    expect(results.filter((r) => r.status === 410)).toHaveLength(12);
    const last = okOnes.find((r) => r.body.data.views === 3)!;
    const range = await t.app.request(last.body.data.previewUrl, { headers: { range: "bytes=0-2" } });
    expect(await range.text()).toBe("lim");
    const noToken = await t.app.request(`/api/file-download/${s}`);
    expect(noToken.status).toBe(410);
  });

  it("a direct download of a view-limited share counts a view; HEAD and bots do not", async () => {
    const s = (await uploadDirect("direct.txt", "d", "max_views=1")).body.data.slug;
    expect((await t.app.request(`/api/file-download/${s}`, { method: "HEAD" })).status).toBe(200);
    const bot = await t.request("GET", `/api/public/files/${s}`, {
      headers: { "user-agent": "Slackbot-LinkExpanding 1.0" },
    });
    expect(bot.body.data.downloadUrl).toBeUndefined();
    expect((await t.app.request(`/api/file-download/${s}`)).status).toBe(200);
    expect((await t.app.request(`/api/file-download/${s}`)).status).toBe(410);
  });

  it("expired shares answer 410 and unknown ones 404", async () => {
    const s = (await uploadDirect("old.txt", "old", "expires_in=1")).body.data.slug;
    await t.ctx.db
      .updateTable("files")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("slug", "=", s)
      .execute();
    const res = await t.request("GET", `/api/public/files/${s}`);
    expect(res.status).toBe(410);
    expect(res.body.message).toBe("File has expired");
    expect((await t.request("GET", "/api/public/files/nope-nope")).status).toBe(404);
  });

  it("the sweeper removes expired and used-up shares with their objects", async () => {
    const res = await uploadDirect("sweep-me.txt", "bye", "expires_in=1");
    const stored = res.body.data.storage_path;
    expect(existsSync(path.join(filesRoot(), stored))).toBe(true);
    await t.ctx.db
      .updateTable("files")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("id", "=", res.body.data.id)
      .execute();
    await t.ctx.fileShares.sweep();
    expect(existsSync(path.join(filesRoot(), stored))).toBe(false);
    expect(
      await t.ctx.db.selectFrom("files").select("id").where("id", "=", res.body.data.id).execute(),
    ).toHaveLength(0);
  });
});

describe("presigned upload on LOCAL storage", () => {
  it("presign → PUT to the signed URL → commit publishes the share", async () => {
    const presign = await t.request("POST", "/api/s3/presign", {
      token,
      body: { filename: "direct.md", size: 11, remark: "presigned" },
    });
    expect(presign.status).toBe(200);
    const d = presign.body.data;
    expect(d).toMatchObject({ provider_type: "LOCAL", contentType: "text/markdown", url: `/file/${d.slug}` });
    expect((await t.request("GET", `/api/public/files/${d.slug}`)).status).toBe(404);
    const url = new URL(d.upload_url);
    const put = await t.app.request(url.pathname + url.search, { method: "PUT", body: "# presigned" });
    expect(put.status).toBe(200);
    const commit = await t.request("POST", "/api/s3/commit", {
      token,
      body: { file_id: d.file_id, etag: put.headers.get("etag") },
    });
    expect(commit.status).toBe(200);
    expect(commit.body.data).toMatchObject({ status: "active", size: 11 });
    const pub = await t.request("GET", `/api/public/files/${d.slug}`);
    expect(pub.body.data.filename).toBe("direct.md");
  });

  it("refuses a tampered signature with 403", async () => {
    const d = (await t.request("POST", "/api/s3/presign", { token, body: { filename: "x.txt" } })).body.data;
    const url = new URL(d.upload_url);
    url.searchParams.set("sig", "AAAA");
    expect((await t.app.request(url.pathname + url.search, { method: "PUT", body: "x" })).status).toBe(403);
  });

  it("refuses an expired signature with 403", async () => {
    const d = (await t.request("POST", "/api/s3/presign", { token, body: { filename: "x.txt" } })).body.data;
    const past = new URL(d.upload_url);
    past.searchParams.set("expires", String(Math.floor(Date.parse("2001-01-01T00:00:00.000Z") / 1000)));
    expect((await t.app.request(past.pathname + past.search, { method: "PUT", body: "x" })).status).toBe(403);
  });

  it("a commit before the upload is 400", async () => {
    const d = (await t.request("POST", "/api/s3/presign", { token, body: { filename: "early.txt" } })).body
      .data;
    const early = await t.request("POST", "/api/s3/commit", { token, body: { file_id: d.file_id } });
    expect(early.status).toBe(400);
  });

  it("an uncommitted presign is swept once its session lapsed", async () => {
    const d = (await t.request("POST", "/api/s3/presign", { token, body: { filename: "never.txt" } })).body
      .data;
    await t.ctx.db
      .updateTable("upload_sessions")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("file_id", "=", d.file_id)
      .execute();
    await t.ctx.fileShares.sweep();
    expect(
      await t.ctx.db.selectFrom("files").select("id").where("id", "=", d.file_id).execute(),
    ).toHaveLength(0);
  });

  it("presign refuses a declared size over the limit", async () => {
    const res = await t.request("POST", "/api/s3/presign", {
      token,
      body: { filename: "huge.iso", size: 10 * 1024 ** 3 },
    });
    expect(res.status).toBe(413);
  });
});

describe("managing file shares", () => {
  describe("of two keys", () => {
    let mine: { id: string };
    beforeAll(async () => {
      mine = (await uploadDirect("mine.txt", "m", "", { apiKey: fileKey.key })).body.data;
      await uploadDirect("theirs.txt", "t", "", { apiKey: otherKey.key });
    });

    it("a key lists only its own files, a page at a time, with no password hash", async () => {
      const list = await t.request("GET", "/api/files", { apiKey: fileKey.key });
      expect(list.status).toBe(200);
      expect(list.body.data.files.map((f: { filename: string }) => f.filename)).toEqual(["mine.txt"]);
      expect(list.body.data.pagination).toMatchObject({ total: 1, limit: 50, offset: 0 });
      expect(JSON.stringify(list.body)).not.toContain("scrypt");
    });

    it("the admin finds another key's file", async () => {
      const admin = await t.request("GET", "/api/files?limit=200&search=theirs", { token });
      expect(admin.body.data.files).toHaveLength(1);
    });

    it("a page of more than 200 is a 400", async () => {
      const all = await t.request("GET", "/api/files?limit=500", { token });
      expect(all.status).toBe(400);
    });

    it("another key can neither read nor edit a key's file (404)", async () => {
      expect((await t.request("GET", `/api/files/${mine.id}`, { apiKey: otherKey.key })).status).toBe(404);
      expect(
        (await t.request("PUT", `/api/files/${mine.id}`, { apiKey: otherKey.key, body: { remark: "x" } }))
          .status,
      ).toBe(404);
    });
  });

  it("edits share settings: remark, slug, password set and clear, expiry, views, access mode", async () => {
    const f = (await uploadDirect("edit.txt", "e", "max_views=1", { apiKey: fileKey.key })).body.data;
    const upd = await t.request("PUT", `/api/files/${f.id}`, {
      apiKey: fileKey.key,
      body: { remark: "new", slug: "edited-file", password: "secret-1", max_views: 5, use_proxy: false },
    });
    expect(upd.status).toBe(200);
    expect(upd.body.data).toMatchObject({
      remark: "new",
      slug: "edited-file",
      has_password: true,
      max_views: 5,
      views: 0,
      use_proxy: false,
    });
    const cleared = await t.request("PUT", `/api/files/${f.id}`, {
      apiKey: fileKey.key,
      body: { password: "", expires_at: null },
    });
    expect(cleared.body.data.has_password).toBe(false);
    await uploadDirect("other.txt", "o", "slug=taken-file-slug");
    const clash = await t.request("PUT", `/api/files/${f.id}`, {
      apiKey: fileKey.key,
      body: { slug: "taken-file-slug" },
    });
    expect(clash.status).toBe(409);
  });

  it("batch delete: both removes the object, record_only keeps it", async () => {
    const a = (await uploadDirect("del-a.txt", "a")).body.data;
    const b = (await uploadDirect("del-b.txt", "b")).body.data;
    const both = await t.request("DELETE", "/api/files/batch-delete", {
      token,
      body: { ids: [a.id, "missing-id"] },
    });
    expect(both.body.data).toMatchObject({ success: 1, failed: [{ id: "missing-id" }] });
    expect(existsSync(path.join(filesRoot(), a.storage_path))).toBe(false);
    await t.request("DELETE", "/api/files/batch-delete", {
      token,
      body: { ids: [b.id], delete_mode: "record_only" },
    });
    expect(existsSync(path.join(filesRoot(), b.storage_path))).toBe(true);
    const bad = await t.request("DELETE", "/api/files/batch-delete", {
      token,
      body: { ids: [a.id], delete_mode: "everything" },
    });
    expect(bad.status).toBe(400);
  });
});

describe("storage configs API", () => {
  const s3Body = {
    name: "Bucket",
    provider_type: "Backblaze B2",
    endpoint_url: "https://s3.example.com",
    bucket_name: "bucket",
    region: "us-west-1",
    access_key_id: "AKIAEXAMPLE1234567890",
    secret_access_key: "super-secret-value",
  };

  it("creates an S3 config with sealed secrets and never returns them", async () => {
    const res = await t.request("POST", "/api/s3-configs", { token, body: s3Body });
    expect(res.status).toBe(201);
    expect(JSON.stringify(res.body)).not.toContain("super-secret-value");
    expect(JSON.stringify(res.body)).not.toContain("AKIAEXAMPLE1234567890");
    expect(res.body.data).toMatchObject({
      storage_type: "S3",
      provider_type: "Backblaze B2",
      secret_access_key: "********",
      access_key_id: "AKIA************7890",
    });
    const row = await t.ctx.db
      .selectFrom("storage_configs")
      .selectAll()
      .where("id", "=", res.body.data.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain("super-secret-value");
    expect(t.ctx.secretBox.open(row.secret_access_key_enc!)).toBe("super-secret-value");
  });

  it("an update with the masked values keeps the stored secrets", async () => {
    const created = (
      await t.request("POST", "/api/s3-configs", { token, body: { ...s3Body, name: "Masked" } })
    ).body.data;
    const got = (await t.request("GET", `/api/s3-configs/${created.id}`, { token })).body.data;
    const upd = await t.request("PUT", `/api/s3-configs/${created.id}`, {
      token,
      body: { ...got, region: "eu-central-1" },
    });
    expect(upd.status).toBe(200);
    const row = await t.ctx.db
      .selectFrom("storage_configs")
      .selectAll()
      .where("id", "=", created.id)
      .executeTakeFirstOrThrow();
    expect(t.ctx.secretBox.open(row.secret_access_key_enc!)).toBe("super-secret-value");
    expect(t.ctx.secretBox.open(row.access_key_id_enc!)).toBe("AKIAEXAMPLE1234567890");
    expect(row.region).toBe("eu-central-1");
  });

  it("a short access key's mask sent back is not mistaken for a new key", async () => {
    const created = (
      await t.request("POST", "/api/s3-configs", {
        token,
        body: { ...s3Body, name: "Short key", access_key_id: "test:tester" },
      })
    ).body.data;
    expect(created.access_key_id).toBe("test***ster");
    await t.request("PUT", `/api/s3-configs/${created.id}`, {
      token,
      body: { access_key_id: created.access_key_id, secret_access_key: created.secret_access_key },
    });
    const row = await t.ctx.db
      .selectFrom("storage_configs")
      .selectAll()
      .where("id", "=", created.id)
      .executeTakeFirstOrThrow();
    expect(t.ctx.secretBox.open(row.access_key_id_enc!)).toBe("test:tester");
    expect(t.ctx.secretBox.open(row.secret_access_key_enc!)).toBe("super-secret-value");
  });

  it.each([
    [{ ...s3Body, endpoint_url: "ftp://x" }, "URL must be http or https"],
    [{ ...s3Body, secret_access_key: undefined }, "Missing required field: secret_access_key"],
    [{ ...s3Body, provider_type: "Floppy" }, null],
    [{ storage_type: "LOCAL", name: "rel", root_path: "relative/dir" }, "root_path must be an absolute path"],
  ])("validates %#", async (body, message) => {
    const res = await t.request("POST", "/api/s3-configs", { token, body });
    expect(res.status).toBe(400);
    if (message) expect(res.body.message).toBe(message);
  });

  it("set-default, in-use delete 409, free delete, and keys see only public configs", async () => {
    const local = (await t.request("GET", "/api/s3-configs", { token })).body.data.find(
      (c: { storage_type: string }) => c.storage_type === "LOCAL",
    );
    const extra = (
      await t.request("POST", "/api/s3-configs", {
        token,
        body: { storage_type: "LOCAL", name: "Second disk", root_path: path.join(t.dataDir, "second") },
      })
    ).body.data;
    expect((await t.request("PUT", `/api/s3-configs/${extra.id}/set-default`, { token })).status).toBe(200);
    const list = (await t.request("GET", "/api/s3-configs", { token })).body.data;
    expect(list.find((c: { id: string }) => c.id === extra.id).is_default).toBe(true);
    expect(list.filter((c: { is_default: boolean }) => c.is_default)).toHaveLength(1);
    const keyView = (await t.request("GET", "/api/s3-configs", { apiKey: fileKey.key })).body.data;
    expect(keyView.map((c: { id: string }) => c.id)).toEqual([local.id]);
    expect((await t.request("GET", `/api/s3-configs/${extra.id}`, { apiKey: fileKey.key })).status).toBe(403);
    const inUse = await t.request("DELETE", `/api/s3-configs/${local.id}`, { token });
    expect(inUse.status).toBe(409);
    expect(inUse.body.message).toMatch(/^Cannot delete this config because \d+ files are using it$/);
    await t.request("PUT", `/api/s3-configs/${local.id}/set-default`, { token });
    expect((await t.request("DELETE", `/api/s3-configs/${extra.id}`, { token })).status).toBe(200);
    expect((await t.request("POST", "/api/s3-configs", { apiKey: fileKey.key, body: s3Body })).status).toBe(
      403,
    );
  });

  it("tests a LOCAL config: write, read, list succeed", async () => {
    const local = (await t.request("GET", "/api/s3-configs", { token })).body.data.find(
      (c: { storage_type: string }) => c.storage_type === "LOCAL",
    );
    const res = await t.request("POST", `/api/s3-configs/${local.id}/test`, { token });
    expect(res.status).toBe(200);
    expect(res.body.data.success).toBe(true);
    expect(res.body.data.result.write.success).toBe(true);
    expect(res.body.data.result.read.success).toBe(true);
    expect(res.body.data.result.list.success).toBe(true);
    expect(storedFiles().some((f) => f.includes(".clipshare-test-"))).toBe(false);
  });
});
