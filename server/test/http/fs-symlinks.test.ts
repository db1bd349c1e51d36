/**
 * Symlinks inside a LOCAL storage root against an API key's base path: a key
 * confined to /a/b must not reach /a/c through `b/link-sib -> ../c`, by any
 * route of the fs API or WebDAV, for reading or writing; links that stay
 * inside the base path keep working. Links to the storage root must not
 * break search, ZIP or listings for the admin either.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Permission } from "@clipshare/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Auth,
  createLocalStorage,
  createMount,
  MOUNT_AND_DAV,
  names,
  waitForTask,
} from "../support/fs-helpers";
import { createTestApp, type TestApp } from "../support/test-app";
import { unzipTo } from "../support/unzip";

const SECRET = "sibling secret 7f3a";
const ALL_BITS = MOUNT_AND_DAV | Permission.FILE_SHARE;

let t: TestApp;
let root: string;
let admin: Auth;
let key: Auth;
let keySecret: string;

/** Everything under the sibling directory, with contents: must never change. */
function siblingSnapshot(): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string, rel: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(path.join(dir, e.name), r);
      else out[r] = readFileSync(path.join(dir, e.name), "utf8");
    }
  };
  walk(path.join(root, "c"), "");
  return out;
}

const dav = (method: string, url: string, headers: Record<string, string> = {}, body?: string) =>
  t.app.request(url, {
    method,
    headers: { authorization: `Basic ${Buffer.from(`k:${keySecret}`).toString("base64")}`, ...headers },
    ...(body !== undefined ? { body } : {}),
  });

const zip = (paths: string[], auth: Auth) =>
  t.app.request("/api/fs/zip", {
    method: "POST",
    headers: {
      authorization: auth.token ? `Bearer ${auth.token}` : `ApiKey ${auth.apiKey}`,
      "content-type": "application/json",
    },
    body: JSON.stringify({ paths }),
  });

beforeAll(async () => {
  t = await createTestApp();
  admin = { token: await t.adminToken() };
  const storage = await createLocalStorage(t, "links");
  root = path.join(t.dataDir, "links");
  await createMount(t, storage, "/a");
  mkdirSync(path.join(root, "b", "inside-dir"), { recursive: true });
  mkdirSync(path.join(root, "c", "deeper"), { recursive: true });
  writeFileSync(path.join(root, "b", "inside.txt"), "inside");
  writeFileSync(path.join(root, "b", "inside-dir", "kept.txt"), "kept");
  writeFileSync(path.join(root, "c", "secret.txt"), SECRET);
  writeFileSync(path.join(root, "c", "deeper", "secret-2.txt"), SECRET);
  symlinkSync("../c", path.join(root, "b", "link-sib"));
  symlinkSync("../c/secret.txt", path.join(root, "b", "link-file"));
  symlinkSync("..", path.join(root, "b", "root-link"));
  symlinkSync("inside-dir", path.join(root, "b", "ok-link"));
  // Another storage mounted inside the base path, for copies between storages.
  await createMount(t, await createLocalStorage(t, "nested"), "/a/b/n");
  writeFileSync(path.join(t.dataDir, "nested", "far.txt"), "far");
  const created = await t.createApiKey(ALL_BITS, { basic_path: "/a/b" });
  keySecret = created.key;
  key = { apiKey: created.key };
});
afterAll(async () => {
  await t?.close();
});

describe("a key confined to /a/b cannot read through links leaving it", () => {
  it("listings hide links that leave the base path and keep those inside it", async () => {
    expect(await names(t, "/a/b", key)).toEqual(["inside-dir", "inside.txt", "n", "ok-link"]);
    expect(await names(t, "/a/b/ok-link", key)).toEqual(["kept.txt"]);
    // The admin is bounded by the storage root only: the sibling link is fine for it.
    expect(await names(t, "/a/b", admin)).toContain("link-sib");
    // ...and a page the admin's listing cached is not what the key gets.
    expect(await names(t, "/a/b", key)).not.toContain("link-sib");
  });

  const readCorpus: Array<[string, string]> = [
    ["list a linked directory", "/api/fs/list?path=/a/b/link-sib"],
    ["list below a linked directory", "/api/fs/list?path=/a/b/link-sib/deeper"],
    ["list the root through a link", "/api/fs/list?path=/a/b/root-link"],
    ["get a file through a linked directory", "/api/fs/get?path=/a/b/link-sib/secret.txt"],
    ["get a linked file", "/api/fs/get?path=/a/b/link-file"],
    ["get the linked directory", "/api/fs/get?path=/a/b/link-sib"],
    ["download through a linked directory", "/api/fs/download?path=/a/b/link-sib/secret.txt"],
    ["download a linked file", "/api/fs/download?path=/a/b/link-file"],
    ["download through the root link", "/api/fs/download?path=/a/b/root-link/c/secret.txt"],
    ["file link through a linked directory", "/api/fs/file-link?path=/a/b/link-sib/secret.txt"],
    ["file link to a linked file", "/api/fs/file-link?path=/a/b/link-file"],
    ["directory search in a linked directory", "/api/fs/search?q=secret&scope=directory&path=/a/b/link-sib"],
  ];
  for (const [what, url] of readCorpus) {
    it(`${what}: 403, nothing of the sibling in the answer`, async () => {
      const res = await t.request("GET", url, key);
      expect(res.status, res.text).toBe(403);
      expect(res.body).toMatchObject({ success: false, code: 403 });
      expect(res.text).not.toContain(SECRET);
      expect(res.text).not.toContain(root);
    });
  }

  it("global, mount and directory searches find nothing of the sibling", async () => {
    for (const query of ["scope=global", "scope=directory&path=/a/b"]) {
      const res = await t.request("GET", `/api/fs/search?q=secret&${query}`, key);
      expect(res.status, res.text).toBe(200);
      expect(res.body.data.results).toEqual([]);
    }
    const mounts = await t.request("GET", "/api/fs/list?path=/a", admin);
    const mountId = mounts.body.data.mount_id as string;
    const inMount = await t.request("GET", `/api/fs/search?q=secret&scope=mount&mount_id=${mountId}`, key);
    expect(inMount.status, inMount.text).toBe(200);
    expect(inMount.body.data.results).toEqual([]);
    const mine = await t.request("GET", "/api/fs/search?q=kept&scope=global", key);
    expect(mine.body.data.results.map((r: { path: string }) => r.path)).toEqual(["/a/b/inside-dir/kept.txt"]);
  });

  it("a ZIP of the base path leaves the sibling out; a ZIP of a link is refused before any byte", async () => {
    const whole = await zip(["/a/b"], key);
    expect(whole.status).toBe(200);
    const files = unzipTo(Buffer.from(await whole.arrayBuffer()));
    expect([...files.keys()].sort()).toEqual(["b/inside-dir/kept.txt", "b/inside.txt", "b/n/far.txt"]);
    for (const paths of [
      ["/a/b/link-sib"],
      ["/a/b/link-file"],
      ["/a/b/inside.txt", "/a/b/link-sib/secret.txt"],
    ]) {
      const res = await zip(paths, key);
      expect(res.status, paths.join()).toBe(403);
      expect(await res.text()).not.toContain(SECRET);
    }
  });

  it("a share of a linked file is refused", async () => {
    for (const p of ["/a/b/link-file", "/a/b/link-sib/secret.txt"]) {
      const res = await t.request("POST", "/api/fs/create-share", { ...key, body: { path: p } });
      expect(res.status, res.text).toBe(403);
    }
  });

  it("WebDAV: PROPFIND hides the links, GET and PROPFIND through them are 403", async () => {
    const listing = await dav("PROPFIND", "/dav/a/b/", { depth: "1" });
    expect(listing.status).toBe(207);
    const xml = await listing.text();
    expect(xml).toContain("inside.txt");
    expect(xml).not.toContain("link-sib");
    expect(xml).not.toContain("link-file");
    for (const [method, url] of [
      ["GET", "/dav/a/b/link-file"],
      ["GET", "/dav/a/b/link-sib/secret.txt"],
      ["HEAD", "/dav/a/b/link-sib/secret.txt"],
      ["PROPFIND", "/dav/a/b/link-sib/"],
    ] as const) {
      const res = await dav(method, url, { depth: "0" });
      expect(res.status, `${method} ${url}`).toBe(403);
      expect(await res.text()).not.toContain(SECRET);
    }
  });
});

describe("a key confined to /a/b cannot write or delete through links leaving it", () => {
  it("every write, delete, rename and copy through a link is refused and the sibling stays as it was", async () => {
    const before = siblingSnapshot();
    const json = (method: string, url: string, body: unknown) => t.request(method, url, { ...key, body });
    const form = new FormData();
    form.set("path", "/a/b/link-sib/");
    form.set("file", new Blob(["planted"]), "planted-form.txt");
    const refused = [
      await t.request("PUT", "/api/fs/upload?path=/a/b/link-sib/planted.txt", { ...key, rawBody: "planted" }),
      await t.request("POST", "/api/fs/upload", { ...key, rawBody: form }),
      await json("POST", "/api/fs/mkdir", { path: "/a/b/link-sib/planted-dir" }),
      await json("POST", "/api/fs/update", { path: "/a/b/link-sib/secret.txt", content: "overwritten" }),
      await json("POST", "/api/fs/update", { path: "/a/b/link-file", content: "overwritten" }),
      await json("POST", "/api/fs/rename", {
        oldPath: "/a/b/link-sib/secret.txt",
        newPath: "/a/b/stolen.txt",
      }),
      await json("POST", "/api/fs/rename", {
        oldPath: "/a/b/inside.txt",
        newPath: "/a/b/link-sib/moved.txt",
      }),
      await json("POST", "/api/fs/presign", { path: "/a/b/link-sib", fileName: "planted.txt", fileSize: 7 }),
      await json("POST", "/api/fs/multipart/init", {
        path: "/a/b/link-sib",
        fileName: "planted.bin",
        fileSize: 7,
      }),
    ];
    for (const res of refused) {
      expect(res.status, res.text).toBe(403);
      expect(res.body).toMatchObject({ success: false });
    }
    const removed = await json("DELETE", "/api/fs/batch-remove", {
      paths: ["/a/b/link-sib/secret.txt", "/a/b/link-sib/deeper"],
    });
    expect(removed.body.data.success).toBe(0);
    expect(removed.body.data.failed).toHaveLength(2);
    const copied = await json("POST", "/api/fs/batch-copy", {
      items: [
        { sourcePath: "/a/b/link-file", targetPath: "/a/b/stolen.txt" },
        { sourcePath: "/a/b/link-sib/", targetPath: "/a/b/stolen-dir/" },
        { sourcePath: "/a/b/inside.txt", targetPath: "/a/b/link-sib/" },
        { sourcePath: "/a/b/inside-dir/", targetPath: "/a/b/link-sib/" },
      ],
      skipExisting: false,
    });
    expect(copied.status, copied.text).toBe(200);
    expect(copied.body.data.success).toBe(0);
    expect(copied.body.data.failed).toBe(4);
    // Between storages: as a task, and as the 0.7.3 client-side copy (URL pairs) that must hand out no upload URL.
    const queued = await json("POST", "/api/fs/batch-copy", {
      items: [{ sourcePath: "/a/b/n/far.txt", targetPath: "/a/b/link-sib/far.txt" }],
      skipExisting: false,
    });
    expect(queued.status, queued.text).toBe(202);
    const { task } = await waitForTask(t, queued.body.data.taskId, key);
    expect(task.status).toBe("failed");
    const clientSide = await json("POST", "/api/fs/batch-copy", {
      items: [
        { sourcePath: "/a/b/n/far.txt", targetPath: "/a/b/link-sib/far.txt" },
        { sourcePath: "/a/b/n/", targetPath: "/a/b/link-sib/n-copy/" },
      ],
      skipExisting: false,
      clientSideCopy: true,
    });
    expect(clientSide.text).not.toContain("uploadUrl");
    const davRefused = [
      await dav("PUT", "/dav/a/b/link-sib/planted-dav.txt", {}, "planted"),
      await dav("DELETE", "/dav/a/b/link-sib/secret.txt"),
      await dav("MKCOL", "/dav/a/b/link-sib/planted-col"),
      await dav("COPY", "/dav/a/b/link-file", { destination: "/dav/a/b/stolen-dav.txt" }),
      await dav("MOVE", "/dav/a/b/link-sib/secret.txt", { destination: "/dav/a/b/stolen-dav.txt" }),
      await dav("COPY", "/dav/a/b/inside.txt", { destination: "/dav/a/b/link-sib/copied.txt" }),
      await dav("MOVE", "/dav/a/b/inside.txt", { destination: "/dav/a/b/link-sib/moved.txt" }),
    ];
    for (const res of davRefused) expect(res.status).toBe(403);
    expect(siblingSnapshot()).toEqual(before);
    expect(readFileSync(path.join(root, "b", "inside.txt"), "utf8")).toBe("inside");
    for (const name of ["stolen.txt", "stolen-dir", "stolen-dav.txt"]) {
      expect(existsSync(path.join(root, "b", name)), name).toBe(false);
    }
  });

  it("an upload over a link replaces the link itself inside the base path, never its target", async () => {
    const res = await t.request("PUT", "/api/fs/upload?path=/a/b/link-file", { ...key, rawBody: "replaced" });
    expect(res.status, res.text).toBe(201);
    expect(readFileSync(path.join(root, "c", "secret.txt"), "utf8")).toBe(SECRET);
    expect(readFileSync(path.join(root, "b", "link-file"), "utf8")).toBe("replaced");
    symlinkSync("../c/secret.txt", path.join(root, "b", "link-file-2"));
    // WebDAV looks at the existing resource first (locks, ETags), so it refuses instead.
    const put = await dav("PUT", "/dav/a/b/link-file-2", {}, "replaced too");
    expect(put.status).toBe(403);
    expect(readFileSync(path.join(root, "c", "secret.txt"), "utf8")).toBe(SECRET);
  });

  it("writes through a link that stays inside the base path still work", async () => {
    const res = await t.request("PUT", "/api/fs/upload?path=/a/b/ok-link/via-link.txt", {
      ...key,
      rawBody: "via link",
    });
    expect(res.status, res.text).toBe(201);
    expect(readFileSync(path.join(root, "b", "inside-dir", "via-link.txt"), "utf8")).toBe("via link");
  });
});

describe("links to the storage root (admin)", () => {
  it("a listing through a link to the root never shows the temp directory", async () => {
    const listed = await names(t, "/a/b/root-link", admin);
    expect(listed).toEqual(expect.arrayContaining(["b", "c"]));
    expect(listed).not.toContain(".clipshare-tmp");
    const temp = await t.request("GET", "/api/fs/list?path=/a/b/root-link/.clipshare-tmp", admin);
    expect(temp.status).toBeGreaterThanOrEqual(400);
    expect(temp.status).toBeLessThan(500);
  });

  it("search answers 200 and walks each real file once, without descending into links", async () => {
    const res = await t.request("GET", "/api/fs/search?q=secret&scope=global", admin);
    expect(res.status, res.text).toBe(200);
    expect(res.text).not.toContain(root);
    expect(res.body.data.results.map((r: { path: string }) => r.path).sort()).toEqual([
      "/a/c/deeper/secret-2.txt",
      "/a/c/secret.txt",
    ]);
  });

  it("a ZIP of the whole mount is complete: linked folders appear empty, files once", async () => {
    const res = await zip(["/a"], admin);
    expect(res.status).toBe(200);
    const files = unzipTo(Buffer.from(await res.arrayBuffer()));
    expect([...files.keys()].filter((k) => !k.startsWith("a/b/via")).sort()).toEqual(
      expect.arrayContaining([
        "a/b/inside.txt",
        "a/c/secret.txt",
        "a/c/deeper/secret-2.txt",
        "a/b/link-file",
      ]),
    );
    expect([...files.keys()].some((k) => k.startsWith("a/b/root-link/"))).toBe(false);
    expect([...files.keys()].some((k) => k.includes(".clipshare-tmp"))).toBe(false);
  });
});
