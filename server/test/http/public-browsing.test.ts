/**
 * Public browsing (docs/public-browsing.md): a mount, or a folder in one,
 * readable by visitors without credentials; the explorer's reads (list,
 * search, download, ZIP, archives, links) and, when the setting is on,
 * WebDAV's, for exactly the public part; downloads limited per address and
 * logged per mount; and no way out of the public part (traversal, encodings,
 * links, copy targets, signed URLs, WebDAV Depth: infinity).
 */
import { symlinkSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Auth, createLocalStorage, createMount, MOUNT_AND_DAV, writeTree } from "../support/fs-helpers";
import { createTestApp, type TestApp } from "../support/test-app";
import { unzipTo } from "../support/unzip";

const SECRET = "not for visitors 5d1e";
const PUBLIC = "for everyone 7a0c";

let t: TestApp;
let root: string;
let admin: Auth;
let mountId: string;
let openMountId: string;

/** A request without credentials. */
const visit = async (url: string, init: RequestInit = {}): Promise<Response> => t.app.request(url, init);
// biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field
const visitJson = async (url: string): Promise<{ status: number; body: any }> => {
  const res = await visit(url);
  return { status: res.status, body: await res.json() };
};
const listNames = async (dir: string): Promise<string[]> => {
  const res = await visitJson(`/api/fs/list?path=${encodeURIComponent(dir)}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.data.items as Array<{ name: string }>).map((i) => i.name).sort();
};
const visitorZip = async (paths: string[]) => {
  const res = await visit("/api/fs/zip", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ paths }),
  });
  return res;
};
const putSettings = async (body: Record<string, unknown>) => {
  const res = await t.request("PUT", "/api/admin/folder-settings", { ...admin, body });
  expect(res.status, res.text).toBe(200);
};
const setSettings = async (body: Record<string, unknown>) => {
  const res = await t.request("PUT", "/api/admin/system-settings", { ...admin, body });
  expect(res.status, res.text).toBe(200);
};
const mountLog = async (id: string) => {
  await t.ctx.accessLog.flush();
  const res = await t.request("GET", `/api/admin/mounts/${id}/access-log`, admin);
  expect(res.status, res.text).toBe(200);
  return res.body.data.entries as Array<{ kind: string; path: string; bytes: number | null }>;
};

beforeAll(async () => {
  t = await createTestApp();
  admin = { token: await t.adminToken() };
  const storage = await createLocalStorage(t, "public-tree");
  root = path.join(t.dataDir, "public-tree");
  mountId = await createMount(t, storage, "/m");
  writeTree(root, {
    "top.txt": SECRET,
    "private/p.txt": SECRET,
    "pub/readme.txt": PUBLIC,
    "pub/sub/b.txt": PUBLIC,
    "pub/secret.key": SECRET,
    "pub/closed/c.txt": SECRET,
    "pub/vault/v.txt": "vault 9f",
  });
  symlinkSync("../private", path.join(root, "pub", "link-out"));
  symlinkSync("../private/p.txt", path.join(root, "pub", "link-file"));
  const open = await createLocalStorage(t, "open-tree");
  writeTree(path.join(t.dataDir, "open-tree"), { "o.txt": PUBLIC });
  openMountId = await createMount(t, open, "/open", { public_browse: true });
  const closed = await createLocalStorage(t, "closed-tree");
  writeTree(path.join(t.dataDir, "closed-tree"), { "c.txt": SECRET });
  await createMount(t, closed, "/closed");
  await putSettings({ path: "/m/pub", public_list: true, hide_patterns: "*.key" });
  await putSettings({ path: "/m/pub/closed", public_list: false });
  await putSettings({ path: "/m/pub/vault", password: "vault words" });
});
afterAll(async () => {
  await t?.close();
});

describe("what visitors see", () => {
  it("the public roots: a public folder and a public mount", async () => {
    const res = await visitJson("/api/fs/public");
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ roots: ["/m/pub/", "/open/"], webdav: false });
  });

  it("listings: the way to the public part, then only what is public", async () => {
    expect(await listNames("/")).toEqual(["m", "open"]);
    expect(await listNames("/m")).toEqual(["pub"]);
    expect(await listNames("/m/pub")).toEqual(["readme.txt", "sub", "vault"]);
    expect(await listNames("/open")).toEqual(["o.txt"]);
  });

  it("downloads, previews and file links of public files", async () => {
    const file = await visit("/api/fs/download?path=/m/pub/sub/b.txt");
    expect(file.status).toBe(200);
    expect(await file.text()).toBe(PUBLIC);
    const info = await visitJson("/api/fs/get?path=/m/pub/readme.txt");
    expect(info.status).toBe(200);
    // A visitor's URLs lead through the server, which counts and logs them.
    const preview = new URL(info.body.data.preview_url);
    expect(preview.pathname).toBe("/api/p/m/pub/readme.txt");
    expect(preview.searchParams.get("sign")).toMatch(/^v:/);
    const viaLink = await visit(`${preview.pathname}${preview.search}`);
    expect(viaLink.status).toBe(200);
    expect(await viaLink.text()).toBe(PUBLIC);
  });

  it("ZIP of a public folder holds its public files only", async () => {
    const res = await visitorZip(["/m/pub"]);
    expect(res.status).toBe(200);
    const files = [...unzipTo(Buffer.from(await res.arrayBuffer())).keys()].sort();
    expect(files).toEqual(["pub/readme.txt", "pub/sub/b.txt"]);
  });

  it("ZIP through a signed link a visitor made", async () => {
    const link = await visit("/api/fs/zip/link", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ paths: ["/m/pub/sub"] }),
    });
    expect(link.status).toBe(200);
    const url = new URL(((await link.json()) as { data: { url: string } }).data.url);
    const res = await visit(`${url.pathname}${url.search}`);
    expect(res.status).toBe(200);
    expect([...unzipTo(Buffer.from(await res.arrayBuffer())).keys()]).toEqual(["sub/b.txt"]);
  });

  it("search finds public entries only, from the top of the tree", async () => {
    const res = await visitJson("/api/fs/search?q=.txt&scope=global");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const paths = (res.body.data.results as Array<{ path: string }>).map((r) => r.path).sort();
    expect(paths).toEqual(["/m/pub/readme.txt", "/m/pub/sub/b.txt", "/open/o.txt"]);
    const named = await visitJson("/api/fs/search?q=closed&scope=global");
    expect(named.body.data.results).toEqual([]);
  });

  it("a password-protected public folder asks the visitor once, and its pass opens it", async () => {
    const locked = await visitJson("/api/fs/list?path=/m/pub/vault");
    expect(locked.status).toBe(403);
    expect(locked.body.error).toBe("folder_locked");
    const unlock = await visit("/api/fs/unlock", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ path: "/m/pub/vault", password: "vault words" }),
    });
    expect(unlock.status).toBe(200);
    const token = ((await unlock.json()) as { data: { token: string } }).data.token;
    const file = await visit("/api/fs/download?path=/m/pub/vault/v.txt", {
      headers: { "x-folder-token": token },
    });
    expect(file.status).toBe(200);
    expect(await file.text()).toBe("vault 9f");
  });

  it("the admin and keys see what they saw before", async () => {
    const res = await t.request("GET", "/api/fs/list?path=/m", admin);
    expect((res.body.data.items as Array<{ name: string }>).map((i) => i.name).sort()).toEqual([
      "private",
      "pub",
      "top.txt",
    ]);
    const key = { apiKey: (await t.createApiKey(MOUNT_AND_DAV, { basic_path: "/m/private" })).key };
    const own = await t.request("GET", "/api/fs/download?path=/m/private/p.txt", key);
    expect(own.status).toBe(200);
  });
});

describe("nothing outside the public part", () => {
  const json = (body: unknown): RequestInit => ({
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const escapes: Array<[string, () => Promise<Response>]> = [
    ["a file of the mount above", () => visit("/api/fs/download?path=/m/top.txt")],
    ["a folder beside the public one", () => visit("/api/fs/list?path=/m/private")],
    ["traversal out of the public folder", () => visit("/api/fs/download?path=/m/pub/../private/p.txt")],
    ["encoded traversal", () => visit("/api/fs/download?path=%2Fm%2Fpub%2F%2E%2E%2Fprivate%2Fp.txt")],
    ["double slashes and dots", () => visit("/api/fs/get?path=//m/./pub//..//private/p.txt")],
    ["through a link to a folder outside", () => visit("/api/fs/download?path=/m/pub/link-out/p.txt")],
    ["a link to a file outside", () => visit("/api/fs/download?path=/m/pub/link-file")],
    ["a sub-folder made not public", () => visit("/api/fs/download?path=/m/pub/closed/c.txt")],
    ["a hidden file inside the public folder", () => visit("/api/fs/download?path=/m/pub/secret.key")],
    ["a mount that is not public", () => visit("/api/fs/list?path=/closed")],
    ["ZIP of a folder outside", () => visitorZip(["/m/private"])],
    ["ZIP naming a path out through dots", () => visitorZip(["/m/pub/../private"])],
    ["archive listing outside", () => visit("/api/fs/archive?path=/m/private/p.txt")],
    ["search in a folder outside", () => visit("/api/fs/search?q=p&scope=directory&path=/m/private")],
    ["search in a mount that is not public", () => visit("/api/fs/search?q=c&scope=directory&path=/closed")],
    ["file link outside", () => visit("/api/fs/file-link?path=/m/top.txt")],
    [
      "copy into the public folder",
      () =>
        visit(
          "/api/fs/batch-copy",
          json({ items: [{ sourcePath: "/m/pub/readme.txt", targetPath: "/m/pub/x" }] }),
        ),
    ],
    [
      "copy a file out to a public target",
      () =>
        visit(
          "/api/fs/batch-copy",
          json({ items: [{ sourcePath: "/m/top.txt", targetPath: "/m/pub/t.txt" }] }),
        ),
    ],
    [
      "rename",
      () => visit("/api/fs/rename", json({ oldPath: "/m/pub/readme.txt", newPath: "/m/pub/r.txt" })),
    ],
    ["mkdir", () => visit("/api/fs/mkdir", json({ path: "/m/pub/new" }))],
    [
      "upload",
      () =>
        visit("/api/fs/upload?path=/m/pub/up.txt", {
          method: "PUT",
          headers: { "content-type": "application/octet-stream" },
          body: "written",
        }),
    ],
    [
      "a visitor signature on another path",
      async () => {
        const info = await visitJson("/api/fs/get?path=/m/pub/readme.txt");
        const sign = new URL(info.body.data.download_url).searchParams.get("sign")!;
        return visit(`/api/p/m/private/p.txt?sign=${encodeURIComponent(sign)}`);
      },
    ],
    ["an unsigned proxy URL", () => visit("/api/p/m/private/p.txt")],
    ["WebDAV without the setting", () => visit("/dav/m/pub/readme.txt")],
  ];
  for (const [what, request] of escapes) {
    it(`${what}: refused, nothing of it in the answer`, async () => {
      const res = await request();
      expect([400, 401, 403, 404], `${what}: ${res.status}`).toContain(res.status);
      const text = await res.text();
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(root);
    });
  }

  it("outside the public part a visitor is asked to sign in (401), hidden entries are not found (404)", async () => {
    expect((await visit("/api/fs/download?path=/m/top.txt")).status).toBe(401);
    expect((await visit("/api/fs/download?path=/m/pub/secret.key")).status).toBe(404);
    expect((await visit("/api/fs/download?path=/m/pub/link-out/p.txt")).status).toBe(404);
  });

  it("nothing was written or copied by the attempts", async () => {
    const res = await t.request("GET", "/api/fs/list?path=/m/pub", admin);
    const names = (res.body.data.items as Array<{ name: string }>).map((i) => i.name).sort();
    expect(names).toEqual(["closed", "link-file", "link-out", "readme.txt", "secret.key", "sub", "vault"]);
  });

  it("a visitor's link stops working when its folder stops being public", async () => {
    const info = await visitJson("/api/fs/get?path=/m/pub/sub/b.txt");
    const url = new URL(info.body.data.download_url);
    await putSettings({ path: "/m/pub/sub", public_list: false });
    try {
      const res = await visit(`${url.pathname}${url.search}`);
      expect(res.status).toBe(401);
      expect(await res.text()).not.toContain(PUBLIC);
    } finally {
      await t.request("DELETE", "/api/admin/folder-settings?path=/m/pub/sub", admin);
    }
  });
});

describe("WebDAV for visitors", () => {
  beforeAll(async () => {
    await setSettings({ public_webdav: true });
  });
  afterAll(async () => {
    await setSettings({ public_webdav: false });
  });

  it("lists and reads the public part without credentials", async () => {
    const res = await visit("/dav/m/pub/", { method: "PROPFIND", headers: { depth: "1" } });
    expect(res.status).toBe(207);
    const xml = await res.text();
    expect(xml).toContain("readme.txt");
    for (const hidden of ["secret.key", "closed", "link-out", "link-file"]) expect(xml).not.toContain(hidden);
    const file = await visit("/dav/m/pub/readme.txt");
    expect(file.status).toBe(200);
    expect(await file.text()).toBe(PUBLIC);
    expect((await visitJson("/api/fs/public")).body.data.webdav).toBe(true);
  });

  const davEscapes: Array<[string, string, Record<string, string>]> = [
    ["GET", "/dav/m/private/p.txt", {}],
    ["GET", "/dav/m/pub/link-out/p.txt", {}],
    ["GET", "/dav/m/pub/%2e%2e/private/p.txt", {}],
    ["PROPFIND", "/dav/m/pub/", { depth: "infinity" }],
    ["PROPFIND", "/dav/closed/", { depth: "1" }],
    ["PUT", "/dav/m/pub/new.txt", {}],
    ["COPY", "/dav/m/pub/readme.txt", { destination: "http://localhost/dav/m/pub/copy.txt" }],
    ["MOVE", "/dav/m/top.txt", { destination: "http://localhost/dav/m/pub/top.txt" }],
    ["DELETE", "/dav/m/pub/readme.txt", {}],
  ];
  for (const [method, url, headers] of davEscapes) {
    it(`${method} ${url}${headers.depth ? ` (Depth: ${headers.depth})` : ""}: refused`, async () => {
      const res = await visit(url, { method, headers, ...(method === "PUT" ? { body: "x" } : {}) });
      expect([401, 403, 404], `${method} ${url}: ${res.status}`).toContain(res.status);
      expect(await res.text()).not.toContain(SECRET);
    });
  }

  it("a refused write asks for credentials", async () => {
    const res = await visit("/dav/m/pub/new.txt", { method: "PUT", body: "x" });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toContain("Basic");
  });
});

describe("visitors' downloads", () => {
  it("appear in the mount's access log", async () => {
    const before = (await mountLog(openMountId)).length;
    expect((await visit("/api/fs/download?path=/open/o.txt")).status).toBe(200);
    const entries = await mountLog(openMountId);
    expect(entries.length).toBe(before + 1);
    expect(entries[0]).toMatchObject({ kind: "download", path: "/open/o.txt", bytes: PUBLIC.length });
    const zips = (await mountLog(mountId)).filter((e) => e.kind === "zip");
    expect(zips.map((e) => e.path)).toContain("/m/pub");
  });

  it("by the admin or a key are not logged there", async () => {
    const before = (await mountLog(openMountId)).length;
    expect((await t.request("GET", "/api/fs/download?path=/open/o.txt", admin)).status).toBe(200);
    expect((await mountLog(openMountId)).length).toBe(before);
  });

  it("are limited per address: past the limit 429 with Retry-After, the admin not limited", async () => {
    await setSettings({ public_download_limit: 3 });
    await t.ctx.db.deleteFrom("rate_limits").where("bucket", "=", "public_download").execute();
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await visit("/api/fs/download?path=/open/o.txt")).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const refused = await visit("/api/fs/download?path=/open/o.txt");
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
      expect((await t.request("GET", "/api/fs/download?path=/open/o.txt", admin)).status).toBe(200);
    } finally {
      await setSettings({ public_download_limit: 600 });
      await t.ctx.db.deleteFrom("rate_limits").where("bucket", "=", "public_download").execute();
    }
  });

  it("turning the mount's switch off closes it to visitors at once", async () => {
    const res = await t.request("PUT", `/api/admin/mounts/${openMountId}`, {
      ...admin,
      body: { public_browse: false },
    });
    expect(res.status, res.text).toBe(200);
    expect((await visit("/api/fs/list?path=/open")).status).toBe(401);
    expect((await visitJson("/api/fs/public")).body.data.roots).toEqual(["/m/pub/"]);
  });
});
