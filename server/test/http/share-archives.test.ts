/**
 * Archives inside file shares: GET /api/file-archive/:slug lists a shared ZIP, TAR or TAR.GZ
 * without unpacking it, GET /api/file-archive/:slug/entry streams one entry out, under the
 * share's visitor rules (password, view limit, expiry). Archives are untrusted: zip bombs
 * (a 42.zip-like nesting, a 10 GB entry, a gzip bomb) are refused in under a second with
 * bounded memory, and names that would leave their folder are never served.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/test-app";
import { buildZip } from "../support/zip-builder";

let t: TestApp;
let token: string;

const README = "Read me first.\n".repeat(40);

async function share(filename: string, content: Buffer, query = ""): Promise<string> {
  const res = await t.request(
    "PUT",
    `/api/upload-direct/${encodeURIComponent(filename)}${query ? `?${query}` : ""}`,
    { token, rawBody: content, headers: { "content-type": "application/octet-stream" } },
  );
  expect(res.status, res.text).toBe(201);
  return res.body.data.slug as string;
}

const listing = async (slug: string, query = "", headers: Record<string, string> = {}): Promise<Response> =>
  t.app.request(`/api/file-archive/${slug}${query}`, { headers });
const entry = async (
  slug: string,
  name: string,
  query = "",
  headers: Record<string, string> = {},
): Promise<Response> =>
  t.app.request(`/api/file-archive/${slug}/entry?entry=${encodeURIComponent(name)}${query}`, { headers });
const paths = async (res: Response) =>
  ((await res.json()) as { data: { entries: Array<{ path: string }> } }).data.entries.map((e) => e.path);

/** A 42.zip-like archive: `depth` layers of `width` copies of the layer below, leaves declaring 4.3 GB each. */
function nestedBomb(depth: number, width: number): Buffer {
  let layer = buildZip([{ name: "0.dll", data: Buffer.alloc(1024 * 1024), declaredSize: 4_294_967_295 }]);
  for (let level = 0; level < depth; level++) {
    layer = buildZip(Array.from({ length: width }, (_, i) => ({ name: `lib ${i}.zip`, data: layer })));
  }
  return layer;
}

beforeAll(async () => {
  t = await createTestApp();
  token = await t.adminToken();
});
afterAll(async () => {
  await t?.close();
});

describe("a shared archive", () => {
  let zipSlug: string;
  let tgzSlug: string;

  beforeAll(async () => {
    const src = path.join(t.dataDir, "share-archive-src");
    mkdirSync(path.join(src, "docs"), { recursive: true });
    writeFileSync(path.join(src, "docs", "readme.txt"), README);
    writeFileSync(path.join(src, "docs", "page.html"), "<script>alert(1)</script>");
    execFileSync("zip", ["-qr", path.join(t.dataDir, "docs.zip"), "docs"], { cwd: src });
    execFileSync("tar", ["-czf", path.join(t.dataDir, "docs.tar.gz"), "docs"], { cwd: src });
    zipSlug = await share("docs.zip", readFileSync(path.join(t.dataDir, "docs.zip")));
    tgzSlug = await share("docs.tar.gz", readFileSync(path.join(t.dataDir, "docs.tar.gz")));
  });

  it.each([
    ["zip", () => zipSlug],
    ["tar.gz", () => tgzSlug],
  ])("%s: lists its entries for a visitor and streams one out", async (_kind, slug) => {
    const res = await listing(slug());
    expect(res.status).toBe(200);
    expect(await paths(res)).toEqual(expect.arrayContaining(["docs/readme.txt", "docs/page.html"]));
    const one = await entry(slug(), "docs/readme.txt");
    expect(one.status).toBe(200);
    expect(await one.text()).toBe(README);
  });

  it("an HTML entry is never served as a page on our origin", async () => {
    const res = await entry(zipSlug, "docs/page.html");
    expect(res.status).toBe(200);
    const type = res.headers.get("content-type") ?? "";
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(type.startsWith("text/html") ? csp.includes("sandbox") : true).toBe(true);
  });

  it("a file that is not an archive is a 400", async () => {
    const slug = await share("notes.txt", Buffer.from("just text"));
    const res = await listing(slug);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe("not_an_archive");
  });

  it("a password-protected share asks for its password first", async () => {
    const slug = await share(
      "locked.zip",
      readFileSync(path.join(t.dataDir, "docs.zip")),
      "password=zip-pass-1",
    );
    const without = await listing(slug);
    expect([401, 403]).toContain(without.status);
    expect(JSON.stringify(await without.json())).not.toContain("readme");
    const wrong = await listing(slug, "?password=nope");
    expect(wrong.status).toBe(403);
    const right = await listing(slug, "?password=zip-pass-1");
    expect(right.status).toBe(200);
    const file = await entry(slug, "docs/readme.txt", "&password=zip-pass-1");
    expect(await file.text()).toBe(README);
  });

  it("a one-view share: the page's view pays for the listing and entries, a fresh visitor gets nothing", async () => {
    const slug = await share("once.zip", readFileSync(path.join(t.dataDir, "docs.zip")), "max_views=1");
    const page = await t.app.request(`/api/public/files/${slug}`);
    expect(page.status).toBe(200);
    const cookie = (page.headers.get("set-cookie") ?? "").split(";")[0]!;
    expect(cookie).not.toBe("");
    expect((await listing(slug, "", { cookie })).status).toBe(200);
    expect((await entry(slug, "docs/readme.txt", "", { cookie })).status).toBe(200);
    const fresh = await listing(slug);
    expect(fresh.status).toBeGreaterThanOrEqual(400);
    expect(JSON.stringify(await fresh.json())).not.toContain("readme");
  });
});

describe("untrusted shared archives", () => {
  it("names that would leave the folder are listed as unsafe and never served", async () => {
    const slug = await share(
      "tricks.zip",
      buildZip([{ name: "../../etc/evil.txt", data: Buffer.from("x") }]),
    );
    const res = await listing(slug);
    const body = (await res.json()) as { data: { entries: Array<{ path: string; unsafe: boolean }> } };
    expect(body.data.entries).toEqual([
      expect.objectContaining({ path: "../../etc/evil.txt", unsafe: true }),
    ]);
    const served = await entry(slug, "../../etc/evil.txt");
    expect([400, 422]).toContain(served.status);
    expect(((await served.json()) as { error: string }).error).toBe("archive_entry_refused");
  });

  it("zip bombs are refused in under a second each, with bounded memory", async () => {
    const nested = await share("42.zip", nestedBomb(3, 16));
    const huge = await share(
      "huge.zip",
      buildZip([{ name: "10g.bin", data: Buffer.alloc(10 * 1024 * 1024), declaredSize: 10 * 1024 ** 3 }]),
    );
    const gzipBomb = await share("bomb.tar.gz", gzipSync(Buffer.alloc(256 * 1024 * 1024), { level: 9 }));
    global.gc?.();
    const before = process.memoryUsage();
    const timed = async (request: () => Promise<Response>) => {
      const started = performance.now();
      const res = await request();
      const body = await res.text();
      const ms = performance.now() - started;
      return { status: res.status, body, ms };
    };

    // 42.zip: the nested archives are entries like any other; nothing opens them.
    const nestedList = await timed(() => listing(nested));
    expect(nestedList.status).toBe(200);
    expect(nestedList.body).toContain("lib 15.zip");
    expect(nestedList.ms).toBeLessThan(1000);
    const inner = await timed(() => entry(nested, "lib 0.zip", "&download=1"));
    expect(inner.status).toBe(200);
    expect(inner.ms).toBeLessThan(1000);

    // A 10 GB entry: refused from its declared size, before a byte is inflated.
    const tenGb = await timed(() => entry(huge, "10g.bin"));
    expect(tenGb.status).toBe(422);
    expect(JSON.parse(tenGb.body).error).toBe("archive_entry_refused");
    expect(tenGb.ms).toBeLessThan(1000);

    // A gzip bomb: 256 MiB of zeros in about 250 KiB, refused once it inflates past the ratio.
    const gz = await timed(() => listing(gzipBomb));
    expect(gz.status).toBe(422);
    expect(JSON.parse(gz.body).error).toBe("archive_refused");
    expect(gz.ms).toBeLessThan(1000);

    const after = process.memoryUsage();
    expect(after.rss - before.rss).toBeLessThan(96 * 1024 * 1024);
    expect(after.heapUsed - before.heapUsed).toBeLessThan(64 * 1024 * 1024);
  });
});
