/**
 * Folder settings (docs/folder-settings.md): readme and header inherited by
 * sub-folders; hide globs that take entries out of listings, search, ZIP and
 * WebDAV for a key but not for the admin, with no way around them (traversal,
 * encodings, links, copy and move, upload targets, signed URLs, WebDAV);
 * a path password asked once, its pass scoped to the folder and its key, and
 * its checks rate-limited.
 */
import { readFileSync, symlinkSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Auth,
  createLocalStorage,
  createMount,
  MOUNT_AND_DAV,
  names,
  writeTree,
} from "../support/fs-helpers";
import { createTestApp, type TestApp } from "../support/test-app";
import { unzipTo } from "../support/unzip";

const SECRET = "folder secret 91c2";
const VAULT = "vault contents 3b7e";
const ALL_BITS = MOUNT_AND_DAV;

let t: TestApp;
let root: string;
let admin: Auth;
let key: Auth;
let keySecret: string;
let vaultKey: Auth;

const bearer = (auth: Auth) => (auth.token ? `Bearer ${auth.token}` : `ApiKey ${auth.apiKey}`);
const get = async (url: string, auth: Auth, headers: Record<string, string> = {}): Promise<Response> =>
  t.app.request(url, { headers: { authorization: bearer(auth), ...headers } });
const dav = async (method: string, url: string, headers: Record<string, string> = {}): Promise<Response> =>
  t.app.request(url, {
    method,
    headers: { authorization: `Basic ${Buffer.from(`k:${keySecret}`).toString("base64")}`, ...headers },
  });
const zipOf = async (paths: string[], auth: Auth, headers: Record<string, string> = {}) => {
  const res = await t.app.request("/api/fs/zip", {
    method: "POST",
    headers: { authorization: bearer(auth), "content-type": "application/json", ...headers },
    body: JSON.stringify({ paths }),
  });
  expect(res.status).toBe(200);
  return [...unzipTo(Buffer.from(await res.arrayBuffer())).keys()].sort();
};
const searchPaths = async (q: string, auth: Auth) => {
  const res = await t.request("GET", `/api/fs/search?q=${q}&scope=global`, auth);
  expect(res.status, res.text).toBe(200);
  return (res.body.data.results as Array<{ path: string }>).map((r) => r.path).sort();
};
const putSettings = async (body: Record<string, unknown>) => {
  const res = await t.request("PUT", "/api/admin/folder-settings", { ...admin, body });
  expect(res.status, res.text).toBe(200);
  return res.body.data;
};

beforeAll(async () => {
  t = await createTestApp();
  admin = { token: await t.adminToken() };
  const storage = await createLocalStorage(t, "folders");
  root = path.join(t.dataDir, "folders");
  await createMount(t, storage, "/m");
  writeTree(root, {
    "docs/a.txt": "a",
    "docs/sub/b.txt": "b",
    "docs/secret.key": SECRET,
    "docs/private/p.txt": SECRET,
    "vault/v.txt": VAULT,
    "vault/inner/w.txt": VAULT,
  });
  symlinkSync("secret.key", path.join(root, "docs", "link-to-key"));
  symlinkSync("private", path.join(root, "docs", "dirlink"));
  const created = await t.createApiKey(ALL_BITS, { basic_path: "/" });
  keySecret = created.key;
  key = { apiKey: created.key };
  vaultKey = { apiKey: (await t.createApiKey(ALL_BITS, { basic_path: "/m/vault" })).key };
  await putSettings({ path: "/m", hide_patterns: "*.key\ndocs/private" });
  await putSettings({ path: "/m/docs", readme: "# Docs\n\nRead me first.", header: "Team documents" });
  await putSettings({ path: "/m/vault", password: "open sesame" });
});
afterAll(async () => {
  await t?.close();
});

describe("readme and header", () => {
  it("a folder's readme and header show in its sub-folders until one overrides them", async () => {
    const docs = await t.request("GET", "/api/fs/folder?path=/m/docs/sub", key);
    expect(docs.status, docs.text).toBe(200);
    expect(docs.body.data).toMatchObject({
      path: "/m/docs/sub/",
      readme: "# Docs\n\nRead me first.",
      header: "Team documents",
      locked_at: null,
      can_manage: false,
      own: null,
    });
    await putSettings({ path: "/m/docs/sub", readme: "Only the sub-folder" });
    const sub = await t.request("GET", "/api/fs/folder?path=/m/docs/sub", admin);
    expect(sub.body.data).toMatchObject({ readme: "Only the sub-folder", header: "Team documents" });
    expect(sub.body.data.can_manage).toBe(true);
    expect(sub.body.data.own).toMatchObject({ path: "/m/docs/sub/", readme: "Only the sub-folder" });
    // Nothing left set: the row goes away and the folder inherits again.
    expect(await putSettings({ path: "/m/docs/sub", readme: "" })).toBeNull();
    const again = await t.request("GET", "/api/fs/folder?path=/m/docs/sub", key);
    expect(again.body.data.readme).toBe("# Docs\n\nRead me first.");
  });

  it("the admin lists every folder's settings, with whether it has a password and never its hash", async () => {
    const listed = await t.request("GET", "/api/admin/folder-settings", admin);
    expect(listed.body.data.map((s: { path: string }) => s.path)).toEqual(["/m/", "/m/docs/", "/m/vault/"]);
    expect(listed.body.data[2]).toMatchObject({ has_password: true });
    expect(JSON.stringify(listed.body)).not.toContain("scrypt");
  });

  it("a key can neither list nor edit folder settings (403)", async () => {
    expect((await t.request("GET", "/api/admin/folder-settings", key)).status).toBe(403);
    const byKey = await t.request("PUT", "/api/admin/folder-settings", { ...key, body: { path: "/m" } });
    expect(byKey.status).toBe(403);
  });

  it("a hide pattern leading out of the folder is a 400", async () => {
    const bad = await t.request("PUT", "/api/admin/folder-settings", {
      ...admin,
      body: { path: "/m", hide_patterns: "../outside" },
    });
    expect(bad.status).toBe(400);
  });

  it("a path that is not a string is a 400", async () => {
    const notAString = await t.request("PUT", "/api/admin/folder-settings", { ...admin, body: { path: 5 } });
    expect(notAString.status).toBe(400);
  });
});

describe("hide patterns", () => {
  it("take entries out of listings for a key, not for the admin", async () => {
    expect(await names(t, "/m/docs", key)).toEqual(["a.txt", "sub"]);
    expect(await names(t, "/m/docs", admin)).toEqual([
      "a.txt",
      "dirlink",
      "link-to-key",
      "private",
      "secret.key",
      "sub",
    ]);
  });

  it("take entries out of search", async () => {
    expect(await searchPaths("secret", key)).toEqual([]);
    expect(await searchPaths("p.txt", key)).toEqual([]);
    expect(await searchPaths("secret", admin)).toEqual(["/m/docs/secret.key"]);
  });

  it("take entries out of ZIP archives", async () => {
    expect(await zipOf(["/m/docs"], key)).toEqual(["docs/a.txt", "docs/sub/b.txt"]);
    expect(await zipOf(["/m/docs"], admin)).toContain("docs/secret.key");
  });

  it("take entries out of PROPFIND", async () => {
    const res = await dav("PROPFIND", "/dav/m/docs", { depth: "1" });
    expect(res.status).toBe(207);
    const xml = await res.text();
    expect(xml).toContain("a.txt");
    for (const hidden of ["secret.key", "private", "link-to-key", "dirlink"])
      expect(xml).not.toContain(hidden);
  });

  const escapes: Array<[string, () => Promise<Response>]> = [
    ["direct download", () => get("/api/fs/download?path=/m/docs/secret.key", key)],
    ["traversal", () => get("/api/fs/download?path=/m/docs/sub/../secret.key", key)],
    ["encoded traversal", () => get("/api/fs/download?path=%2Fm%2Fdocs%2Fsub%2F%2E%2E%2Fsecret.key", key)],
    ["double slashes and dots", () => get("/api/fs/get?path=//m/./docs//private/p.txt", key)],
    ["a link to a hidden file", () => get("/api/fs/download?path=/m/docs/link-to-key", key)],
    ["through a link to a hidden folder", () => get("/api/fs/download?path=/m/docs/dirlink/p.txt", key)],
    ["listing a hidden folder", () => get("/api/fs/list?path=/m/docs/private", key)],
    ["ZIP of a hidden folder", () => postJson("/api/fs/zip", { paths: ["/m/docs/private"] })],
    [
      "copy a hidden source",
      () =>
        postJson("/api/fs/batch-copy", { items: [{ sourcePath: "/m/docs/secret.key", targetPath: "/m/x" }] }),
    ],
    [
      "copy onto a hidden target",
      () =>
        postJson("/api/fs/batch-copy", {
          items: [{ sourcePath: "/m/docs/a.txt", targetPath: "/m/docs/private/a.txt" }],
        }),
    ],
    [
      "copy a folder holding hidden entries",
      () => postJson("/api/fs/batch-copy", { items: [{ sourcePath: "/m/docs", targetPath: "/m/copied" }] }),
    ],
    [
      "rename a hidden file",
      () => postJson("/api/fs/rename", { oldPath: "/m/docs/secret.key", newPath: "/m/docs/s.txt" }),
    ],
    [
      "move a folder holding hidden entries",
      () => postJson("/api/fs/rename", { oldPath: "/m/docs", newPath: "/m/d2" }),
    ],
    [
      "upload onto a hidden name",
      async () =>
        t.app.request("/api/fs/upload?path=/m/docs/secret.key", {
          method: "PUT",
          headers: { authorization: bearer(key), "content-type": "application/octet-stream" },
          body: "overwritten",
        }),
    ],
    [
      "search inside a hidden folder",
      () => get("/api/fs/search?q=p&scope=directory&path=/m/docs/private", key),
    ],
    ["WebDAV GET", () => dav("GET", "/dav/m/docs/secret.key")],
    ["WebDAV GET through a link", () => dav("GET", "/dav/m/docs/dirlink/p.txt")],
    ["WebDAV PROPFIND Depth: infinity", () => dav("PROPFIND", "/dav/m/docs", { depth: "infinity" })],
    ["WebDAV PROPFIND of a hidden folder", () => dav("PROPFIND", "/dav/m/docs/private", { depth: "1" })],
    [
      "WebDAV COPY onto a hidden target",
      () => dav("COPY", "/dav/m/docs/a.txt", { destination: "http://localhost/dav/m/docs/c.key" }),
    ],
    [
      "WebDAV MOVE of a hidden source",
      () => dav("MOVE", "/dav/m/docs/secret.key", { destination: "http://localhost/dav/m/docs/c.txt" }),
    ],
  ];
  async function postJson(url: string, body: unknown): Promise<Response> {
    return t.app.request(url, {
      method: "POST",
      headers: { authorization: bearer(key), "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  }
  for (const [what, request] of escapes) {
    it(`${what}: refused, nothing hidden in the answer`, async () => {
      const res = await request();
      expect([400, 403, 404, 409], `${what}: ${res.status}`).toContain(res.status);
      const text = await res.text();
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(root);
    });
  }

  it("left the hidden files as they were, and nothing was copied out", async () => {
    expect(readFileSync(path.join(root, "docs", "secret.key"), "utf8")).toBe(SECRET);
    expect(await names(t, "/m", admin)).toEqual(["docs", "vault"]);
    expect(await names(t, "/m/docs", admin)).not.toContain("c.key");
  });

  it("a signed file link the admin made does not open a hidden file to its holder", async () => {
    const link = await t.request("GET", "/api/fs/file-link?path=/m/docs/secret.key", admin);
    expect(link.status, link.text).toBe(200);
    const url = new URL(link.body.data.presignedUrl, "http://localhost");
    expect(url.pathname).toBe("/api/p/m/docs/secret.key");
    const res = await t.app.request(`${url.pathname}${url.search}`);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain(SECRET);
  });
});

describe("path password", () => {
  it("is asked for the folder and what lies below it, naming the folder", async () => {
    for (const url of ["/api/fs/list?path=/m/vault", "/api/fs/download?path=/m/vault/inner/w.txt"]) {
      const res = await get(url, key);
      expect(res.status).toBe(403);
      const body = await res.json();
      expect(body).toMatchObject({ success: false, error: "folder_locked", details: { path: "/m/vault/" } });
    }
    // The folder itself still shows in its parent's listing.
    expect(await names(t, "/m", key)).toEqual(["docs", "vault"]);
    // Not in search or ZIP of a parent without the pass.
    expect(await searchPaths("w.txt", key)).toEqual([]);
    expect(await zipOf(["/m"], key)).not.toContain("m/vault/v.txt");
  });

  it("once entered, its pass opens the folder's downloads, for that key only", async () => {
    const wrong = await t.request("POST", "/api/fs/unlock", {
      ...key,
      body: { path: "/m/vault/inner", password: "nope" },
    });
    expect(wrong.status).toBe(403);
    expect(wrong.body.error).toBe("folder_password_wrong");
    const right = await t.request("POST", "/api/fs/unlock", {
      ...key,
      body: { path: "/m/vault/inner", password: "open sesame" },
    });
    expect(right.status, right.text).toBe(200);
    expect(right.body.data.path).toBe("/m/vault/");
    const pass = { "x-folder-token": right.body.data.token as string };
    const file = await get("/api/fs/download?path=/m/vault/inner/w.txt", key, pass);
    expect(file.status).toBe(200);
    expect(await file.text()).toBe(VAULT);
    expect(await zipOf(["/m"], key, pass)).toContain("m/vault/v.txt");
    // Another caller gets nothing from the same pass.
    const other = await t.createApiKey(ALL_BITS, { basic_path: "/" });
    expect((await get("/api/fs/download?path=/m/vault/v.txt", { apiKey: other.key }, pass)).status).toBe(403);
    // A new password revokes the pass.
    await putSettings({ path: "/m/vault", password: "changed" });
    expect((await get("/api/fs/download?path=/m/vault/v.txt", key, pass)).status).toBe(403);
    await putSettings({ path: "/m/vault", password: "open sesame" });
  });

  it("a signed ZIP link of a folder above holds the locked folder the caller had opened", async () => {
    const right = await t.request("POST", "/api/fs/unlock", {
      ...key,
      body: { path: "/m/vault", password: "open sesame" },
    });
    expect(right.status, right.text).toBe(200);
    const zipByLink = async (headers: Record<string, string>) => {
      const link = await t.app.request("/api/fs/zip/link", {
        method: "POST",
        headers: { authorization: bearer(key), "content-type": "application/json", ...headers },
        body: JSON.stringify({ paths: ["/m"] }),
      });
      expect(link.status).toBe(200);
      const url = new URL(((await link.json()) as { data: { url: string } }).data.url);
      // The browser follows the link as a plain download: no credentials, no folder passes.
      const res = await t.app.request(`${url.pathname}${url.search}`);
      expect(res.status).toBe(200);
      return [...unzipTo(Buffer.from(await res.arrayBuffer())).keys()];
    };
    expect(await zipByLink({ "x-folder-token": right.body.data.token })).toContain("m/vault/v.txt");
    expect(await zipByLink({})).not.toContain("m/vault/v.txt");
  });

  it("is not asked of a key scoped inside the folder, nor of the admin; WebDAV without rights is refused", async () => {
    expect((await get("/api/fs/download?path=/m/vault/v.txt", vaultKey)).status).toBe(200);
    expect((await get("/api/fs/download?path=/m/vault/v.txt", admin)).status).toBe(200);
    const res = await dav("GET", "/dav/m/vault/v.txt");
    expect(res.status).toBe(403);
    expect(await res.text()).not.toContain(VAULT);
  });

  it("is rate-limited like every password check: past ten failures even the right one waits", async () => {
    const unlock = (password: string) =>
      t.request("POST", "/api/fs/unlock", { ...key, body: { path: "/m/vault", password } });
    // One failure is already counted by the test above.
    for (let i = 0; i < 9; i++) expect((await unlock(`guess-${i}`)).status).toBe(403);
    const refused = await unlock("open sesame");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
  });
});
