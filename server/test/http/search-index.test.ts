/**
 * Search on the mount index (docs/decisions/0035-mount-index.md), on SQLite and,
 * with CLIPSHARE_TEST_DB=postgres, on PostgreSQL: a crawl fills it; every
 * write path through ClipShare (upload, mkdir, rename, move, copy, delete,
 * WebDAV, tasks) is searchable in the same request; a key with a base path
 * sees nothing outside it, not even through a planted symlink; filters and
 * ranking; no truncation; a mount without an index is still walked.
 */
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Permission } from "@clipshare/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Auth, createLocalStorage, createMount, mustPut, waitForTask } from "../support/fs-helpers";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
let admin: Auth;
let root: string;
let mountId: string;
let plainId: string;

const search = async (query: string, auth: Auth = admin) => {
  const res = await t.request("GET", `/api/fs/search?${query}`, auth);
  expect(res.status, res.text).toBe(200);
  return res.body.data as {
    results: Array<{ path: string; name: string; size: number; type: string; modified: string | null }>;
    total: number;
    truncated: boolean;
    source: string;
  };
};
const paths = async (query: string, auth: Auth = admin) =>
  (await search(query, auth)).results.map((r) => r.path);

async function crawl(id = mountId, body: Record<string, unknown> = {}) {
  const res = await t.request("POST", `/api/admin/indexes/${id}/crawl`, { ...admin, body });
  expect(res.status, res.text).toBe(202);
  const { task } = await waitForTask(t, res.body.data.id, admin);
  expect(task.status, JSON.stringify(task)).toBe("completed");
  return task;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = { token: await t.adminToken() };
  const storage = await createLocalStorage(t, "indexed");
  root = path.join(t.dataDir, "indexed");
  mkdirSync(path.join(root, "team", "private"), { recursive: true });
  mkdirSync(path.join(root, "public", "docs"), { recursive: true });
  writeFileSync(path.join(root, "team", "private", "salary-report.txt"), "secret");
  writeFileSync(path.join(root, "public", "docs", "report.pdf"), "x".repeat(5000));
  writeFileSync(path.join(root, "public", "docs", "annual-report.txt"), "small");
  writeFileSync(path.join(root, "public", "report"), "exact name");
  // A link inside the key's base path that leads out of it.
  symlinkSync("../team", path.join(root, "public", "team-link"));
  mountId = await createMount(t, storage, "/idx", { index_enabled: true });
  const plain = await createLocalStorage(t, "plain");
  writeFileSync(path.join(t.dataDir, "plain", "plain-report.txt"), "walked");
  plainId = await createMount(t, plain, "/plain");
});
afterAll(async () => t.close());

describe("the mount index", () => {
  it("is not used before a full crawl; a crawl fills it and the Indexes answer says so", async () => {
    expect((await search(`q=report&scope=mount&mount_id=${mountId}`)).source).toBe("walk");
    const task = await crawl();
    expect(task.type).toBe("index");
    expect(task.processed_items).toBeGreaterThanOrEqual(8);
    const res = await t.request("GET", "/api/admin/indexes", admin);
    expect(res.status).toBe(200);
    const state = res.body.data.find((s: { mount_id: string }) => s.mount_id === mountId);
    expect(state).toMatchObject({ index_enabled: true, complete: true, last_error: null });
    expect(state.entries).toBe(task.processed_items);
    expect(state.last_duration_ms).toBeGreaterThanOrEqual(0);
    const plainState = res.body.data.find((s: { mount_id: string }) => s.mount_id === plainId);
    expect(plainState).toMatchObject({ index_enabled: false, complete: false, task: null });
  });

  it("answers substring and prefix in every scope, exact and prefix first", async () => {
    const inMount = await search(`q=report&scope=mount&mount_id=${mountId}`);
    expect(inMount.source).toBe("index");
    expect(inMount.truncated).toBe(false);
    expect(inMount.results.map((r) => r.path)).toEqual([
      "/idx/public/report",
      "/idx/public/docs/report.pdf",
      // then the substring matches, newest first
      ...inMount.results.slice(2).map((r) => r.path),
    ]);
    expect(
      inMount.results
        .slice(2)
        .map((r) => r.path)
        .sort(),
    ).toEqual(["/idx/public/docs/annual-report.txt", "/idx/team/private/salary-report.txt"]);
    expect(inMount.total).toBe(4);
    const inFolder = await paths("q=EPOR&scope=directory&path=/idx/public/docs");
    expect(inFolder.sort()).toEqual(["/idx/public/docs/annual-report.txt", "/idx/public/docs/report.pdf"]);
    // Two characters: below the trigram length, still found.
    expect(await paths("q=df&scope=directory&path=/idx/public")).toEqual(["/idx/public/docs/report.pdf"]);
    // All mounts: the indexed one from the index, the other walked; the answer says both.
    const global = await search("q=report");
    expect(global.source).toBe("mixed");
    expect(global.results.map((r) => r.path)).toContain("/plain/plain-report.txt");
    expect(global.total).toBe(5);
    // Mount points are found by name too.
    expect(await paths("q=idx")).toEqual(["/idx/"]);
  });

  it("filters by type, size range and modification date", async () => {
    expect(await paths(`q=doc&scope=mount&mount_id=${mountId}&type=directory`)).toEqual([
      "/idx/public/docs/",
    ]);
    expect(await paths(`q=report&scope=mount&mount_id=${mountId}&min_size=1000`)).toEqual([
      "/idx/public/docs/report.pdf",
    ]);
    expect((await paths(`q=report&scope=mount&mount_id=${mountId}&max_size=6&type=file`)).sort()).toEqual([
      "/idx/public/docs/annual-report.txt",
      "/idx/team/private/salary-report.txt",
    ]);
    expect(await paths(`q=report&scope=mount&mount_id=${mountId}&modified_after=2999-01-01`)).toEqual([]);
    expect(
      (await search(`q=report&scope=mount&mount_id=${mountId}&modified_before=2999-01-01&type=file`)).total,
    ).toBe(4);
    const bad = await t.request("GET", "/api/fs/search?q=report&min_size=-1", admin);
    expect(bad.status).toBe(400);
    expect((await t.request("GET", "/api/fs/search?q=report&modified_after=yesterday", admin)).status).toBe(
      400,
    );
    expect((await t.request("GET", "/api/fs/search?q=report&type=link", admin)).status).toBe(400);
  });

  it("a key with a base path sees nothing outside it, not through a planted symlink either", async () => {
    const created = await t.createApiKey(Permission.MOUNT_VIEW, { basic_path: "/idx/public" });
    const key: Auth = { apiKey: created.key };
    const found = await search("q=report", key);
    expect(found.source).toBe("index");
    expect(found.results.map((r) => r.path).sort()).toEqual([
      "/idx/public/docs/annual-report.txt",
      "/idx/public/docs/report.pdf",
      "/idx/public/report",
    ]);
    expect(found.total).toBe(3);
    // The link is in the index (the admin sees it), but not for a key confined below the mount.
    expect(await paths("q=team-link")).toEqual(["/idx/public/team-link/"]);
    expect(await paths("q=team", key)).toEqual([]);
    expect(await paths("q=salary", key)).toEqual([]);
    expect(await paths(`q=salary&scope=mount&mount_id=${mountId}`, key)).toEqual([]);
    // A mount or folder outside the base path is refused, not searched.
    expect(
      (await t.request("GET", `/api/fs/search?q=report&scope=mount&mount_id=${plainId}`, key)).status,
    ).toBe(403);
    expect(
      (await t.request("GET", "/api/fs/search?q=report&scope=directory&path=/idx/team", key)).status,
    ).toBe(403);
    // A sibling whose name merely starts with the base path is outside it too.
    mkdirSync(path.join(root, "public-not"), { recursive: true });
    await mustPut(t, "/idx/public-not/report-sibling.txt", "x", admin);
    expect(await paths("q=report-sibling")).toEqual(["/idx/public-not/report-sibling.txt"]);
    expect(await paths("q=report-sibling", key)).toEqual([]);
  });

  it("every write through ClipShare is searchable at once", async () => {
    // Upload (PUT and multipart form), text update, mkdir.
    await mustPut(t, "/idx/w/upload-kiwi.txt", "k", admin);
    expect(await paths("q=kiwi")).toEqual(["/idx/w/upload-kiwi.txt"]);
    const form = new FormData();
    form.append("path", "/idx/w/");
    form.append("file", new Blob(["form"]), "form-mango.txt");
    const posted = await t.request("POST", "/api/fs/upload", { ...admin, rawBody: form });
    expect(posted.status, posted.text).toBeLessThan(300);
    expect(await paths("q=mango")).toEqual(["/idx/w/form-mango.txt"]);
    const updated = await t.request("POST", "/api/fs/update", {
      ...admin,
      body: { path: "/idx/w/note-papaya.md", content: "# hi" },
    });
    expect(updated.status, updated.text).toBeLessThan(300);
    expect(await paths("q=papaya")).toEqual(["/idx/w/note-papaya.md"]);
    expect(
      (await t.request("POST", "/api/fs/mkdir", { ...admin, body: { path: "/idx/w/dir-lime" } })).status,
    ).toBe(201);
    expect(await paths("q=lime")).toEqual(["/idx/w/dir-lime/"]);

    // Rename a folder: its contents move with it.
    await mustPut(t, "/idx/w/dir-lime/inner-grape.txt", "g", admin);
    const renamed = await t.request("POST", "/api/fs/rename", {
      ...admin,
      body: { oldPath: "/idx/w/dir-lime", newPath: "/idx/w/dir-lemon" },
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(await paths("q=lime")).toEqual([]);
    expect(await paths("q=grape")).toEqual(["/idx/w/dir-lemon/inner-grape.txt"]);
    // Move a file to another folder.
    await t.request("POST", "/api/fs/rename", {
      ...admin,
      body: { oldPath: "/idx/w/upload-kiwi.txt", newPath: "/idx/w/dir-lemon/upload-kiwi.txt" },
    });
    expect(await paths("q=kiwi")).toEqual(["/idx/w/dir-lemon/upload-kiwi.txt"]);

    // Copy within the storage (in the request).
    const copied = await t.request("POST", "/api/fs/batch-copy", {
      ...admin,
      body: { items: [{ sourcePath: "/idx/w/dir-lemon/", targetPath: "/idx/w/copy-of-lemon/" }] },
    });
    expect(copied.status, copied.text).toBe(200);
    expect((await paths("q=grape")).sort()).toEqual([
      "/idx/w/copy-of-lemon/inner-grape.txt",
      "/idx/w/dir-lemon/inner-grape.txt",
    ]);

    // Copy from another storage: a task.
    const queued = await t.request("POST", "/api/fs/batch-copy", {
      ...admin,
      body: { items: [{ sourcePath: "/plain/plain-report.txt", targetPath: "/idx/w/from-plain.txt" }] },
    });
    expect(queued.body.data.queued, queued.text).toBe(1);
    await waitForTask(t, queued.body.data.taskId, admin);
    expect(await paths(`q=from-plain&scope=mount&mount_id=${mountId}`)).toEqual(["/idx/w/from-plain.txt"]);

    // Delete in the request, and a large folder through a delete task.
    const removed = await t.request("DELETE", "/api/fs/batch-remove", {
      ...admin,
      body: { paths: ["/idx/w/copy-of-lemon"] },
    });
    expect(removed.body.data.success, removed.text).toBe(1);
    expect(await paths("q=grape")).toEqual(["/idx/w/dir-lemon/inner-grape.txt"]);
    for (let i = 0; i < 210; i++) await mustPut(t, `/idx/w/big-melon/f${i}.txt`, "", admin);
    expect((await search("q=big-melon&scope=directory&path=/idx/w")).total).toBe(1);
    expect((await search("q=f20&scope=directory&path=/idx/w/big-melon")).total).toBe(11);
    const big = await t.request("DELETE", "/api/fs/batch-remove", {
      ...admin,
      body: { paths: ["/idx/w/big-melon"] },
    });
    expect(big.body.data.queued, big.text).toBe(1);
    await waitForTask(t, big.body.data.taskId, admin);
    expect(await paths("q=melon")).toEqual([]);
    expect((await search("q=f20&scope=mount&mount_id=" + mountId)).total).toBe(0);

    // WebDAV: PUT, MKCOL, MOVE, COPY, DELETE.
    const dav = (method: string, url: string, headers: Record<string, string> = {}, body?: string) =>
      t.app.request(url, {
        method,
        headers: { authorization: `Bearer ${admin.token}`, ...headers },
        ...(body !== undefined ? { body } : {}),
      });
    expect((await dav("PUT", "/dav/idx/w/dav-cherry.txt", {}, "c")).status).toBeLessThan(300);
    expect(await paths("q=cherry")).toEqual(["/idx/w/dav-cherry.txt"]);
    expect((await dav("MKCOL", "/dav/idx/w/dav-plum")).status).toBe(201);
    expect(await paths("q=plum")).toEqual(["/idx/w/dav-plum/"]);
    const host = "http://localhost";
    expect(
      (
        await dav("MOVE", "/dav/idx/w/dav-cherry.txt", {
          destination: `${host}/dav/idx/w/dav-plum/moved-cherry.txt`,
        })
      ).status,
    ).toBeLessThan(300);
    expect(await paths("q=cherry")).toEqual(["/idx/w/dav-plum/moved-cherry.txt"]);
    expect(
      (await dav("COPY", "/dav/idx/w/dav-plum", { destination: `${host}/dav/idx/w/dav-plum-2` })).status,
    ).toBeLessThan(300);
    expect((await paths("q=cherry")).sort()).toEqual([
      "/idx/w/dav-plum-2/moved-cherry.txt",
      "/idx/w/dav-plum/moved-cherry.txt",
    ]);
    expect((await dav("DELETE", "/dav/idx/w/dav-plum")).status).toBeLessThan(300);
    expect(await paths("q=cherry")).toEqual(["/idx/w/dav-plum-2/moved-cherry.txt"]);
  });

  it("uploads in parts, presigned uploads and file requests into a folder are searchable at once", async () => {
    const putSigned = (url: string, body: string) => {
      const u = new URL(url);
      return t.app.request(`${u.pathname}${u.search}`, { method: "PUT", body });
    };
    // Explorer upload in parts.
    const init = await t.request("POST", "/api/fs/multipart/init", {
      ...admin,
      body: { path: "/idx/w2", fileName: "parts-walnut.bin", fileSize: 10, partSize: 5, partCount: 2 },
    });
    expect(init.status, init.text).toBe(200);
    const parts = [];
    for (const { partNumber, url } of init.body.data.presignedUrls) {
      const res = await putSigned(url, "12345");
      expect(res.status).toBe(200);
      parts.push({ partNumber, etag: res.headers.get("etag")! });
    }
    const done = await t.request("POST", "/api/fs/multipart/complete", {
      ...admin,
      body: { path: "/idx/w2", uploadId: init.body.data.uploadId, fileName: "parts-walnut.bin", parts },
    });
    expect(done.status, done.text).toBe(200);
    expect(await paths("q=walnut")).toEqual(["/idx/w2/parts-walnut.bin"]);

    // Presigned upload (this server's signed URL on local storage), then commit.
    const pre = await t.request("POST", "/api/fs/presign", {
      ...admin,
      body: { path: "/idx/w2", fileName: "direct-hazel.txt", contentType: "text/plain", fileSize: 5 },
    });
    expect(pre.status, pre.text).toBe(200);
    expect((await putSigned(pre.body.data.presignedUrl, "hazel")).status).toBe(200);
    const commit = await t.request("POST", "/api/fs/presign/commit", {
      ...admin,
      body: {
        targetPath: pre.body.data.targetPath,
        mountId: pre.body.data.mountId,
        fileId: pre.body.data.fileId,
      },
    });
    expect(commit.status, commit.text).toBe(200);
    expect(await paths("q=hazel")).toEqual(["/idx/w2/direct-hazel.txt"]);

    // A visitor's upload through a file request into a folder of the mount.
    const request = await t.request("POST", "/api/requests", {
      ...admin,
      body: { title: "Inbox", target: { kind: "folder", path: "/idx/w2" } },
    });
    expect(request.status, request.text).toBe(201);
    const started = await t.request("POST", `/api/public/requests/${request.body.data.slug}/uploads`, {
      body: { filename: "visitor-almond.txt", size: 6, part_size: 6, part_count: 1 },
    });
    expect(started.status, started.text).toBe(201);
    const part = await putSigned(started.body.data.presigned_urls[0].url, "almond");
    expect(part.status).toBe(200);
    const received = await t.request(
      "POST",
      `/api/public/requests/${request.body.data.slug}/uploads/${started.body.data.upload_id}/complete`,
      { body: { parts: [{ partNumber: 1, etag: part.headers.get("etag")!.replace(/"/g, "") }] } },
    );
    expect(received.status, received.text).toBe(200);
    expect(await paths("q=almond")).toEqual(["/idx/w2/visitor-almond.txt"]);
  });

  it("folder sizes follow every write, and a new crawl finds the same figures", async () => {
    const figures = async () => {
      const listing = await t.request("GET", "/api/fs/list?path=/idx/sizes&sizes=true", admin);
      expect(listing.status, listing.text).toBe(200);
      const folders = Object.fromEntries(
        (listing.body.data.items as Array<Record<string, unknown>>).map((i) => [
          i.name,
          [i.folderSize, i.folderFiles, i.folderFolders],
        ]),
      );
      const get = async (p: string) => {
        const { folderSize, folderFiles, folderFolders } = (
          await t.request("GET", `/api/fs/get?path=${p}`, admin)
        ).body.data;
        return [folderSize, folderFiles, folderFolders];
      };
      return { folders, sizes: await get("/idx/sizes"), mount: await get("/idx") };
    };
    const json = (method: string, url: string, body: unknown) => t.request(method, url, { ...admin, body });
    await mustPut(t, "/idx/sizes/a/one.txt", "abc", admin);
    await mustPut(t, "/idx/sizes/a/b/two.txt", "12345", admin);
    await mustPut(t, "/idx/sizes/a/one.txt", "0123456789", admin);
    expect((await json("POST", "/api/fs/mkdir", { path: "/idx/sizes/c" })).status).toBe(201);
    await json("POST", "/api/fs/rename", { oldPath: "/idx/sizes/a/b", newPath: "/idx/sizes/c/b" });
    const copied = await json("POST", "/api/fs/batch-copy", {
      items: [{ sourcePath: "/idx/sizes/c/", targetPath: "/idx/sizes/d/" }],
    });
    expect(copied.status, copied.text).toBe(200);
    await json("DELETE", "/api/fs/batch-remove", { paths: ["/idx/sizes/a/one.txt"] });
    await json("POST", "/api/fs/rename", {
      oldPath: "/idx/sizes/d/b/two.txt",
      newPath: "/idx/sizes/d/b/two-renamed.txt",
    });
    const kept = await figures();
    // a/ (empty), c/b/two.txt and d/b/two-renamed.txt: 10 bytes in 2 files and 5 folders.
    expect(kept.folders).toEqual({ a: [0, 0, 0], c: [5, 1, 1], d: [5, 1, 1] });
    expect(kept.sizes).toEqual([10, 2, 5]);
    await crawl();
    expect(await figures()).toEqual(kept);
  });

  it("listings and folder details carry sizes and counts from the index when asked", async () => {
    const listing = await t.request("GET", "/api/fs/list?path=/idx/public&sizes=true", admin);
    expect(listing.status, listing.text).toBe(200);
    const docs = listing.body.data.items.find((i: { name: string }) => i.name === "docs");
    expect(docs).toMatchObject({ folderSize: 5005, folderFiles: 2, folderFolders: 0 });
    const file = listing.body.data.items.find((i: { name: string }) => i.name === "report");
    expect(file.folderSize).toBeUndefined();
    const plain = await t.request("GET", "/api/fs/list?path=/idx/public", admin);
    expect(plain.body.data.items.find((i: { name: string }) => i.name === "docs").folderSize).toBeUndefined();
    const details = await t.request("GET", "/api/fs/get?path=/idx/public", admin);
    expect(details.body.data).toMatchObject({ folderFiles: 3, folderSize: 5015 });
    // No index, no figures.
    const walked = await t.request("GET", "/api/fs/list?path=/plain&sizes=true", admin);
    expect(walked.status).toBe(200);
    expect(walked.body.data.items.every((i: { folderSize?: number }) => i.folderSize === undefined)).toBe(
      true,
    );
  });

  it("a file added behind ClipShare's back appears after a crawl; one removed goes", async () => {
    writeFileSync(path.join(root, "public", "outside-quince.txt"), "q");
    expect(await paths("q=quince")).toEqual([]);
    await crawl();
    expect(await paths("q=quince")).toEqual(["/idx/public/outside-quince.txt"]);
    // A rebuild starts from nothing and ends with the same entries.
    writeFileSync(path.join(root, "public", "late-fig.txt"), "f");
    await crawl(mountId, { rebuild: true });
    expect(await paths("q=quince")).toEqual(["/idx/public/outside-quince.txt"]);
    expect(await paths("q=late-fig")).toEqual(["/idx/public/late-fig.txt"]);
  });

  it("matches the whole needle, not only the trigrams the index is asked for", async () => {
    for (const name of [
      "0123-0456.txt",
      "0456-0123.txt",
      "aaaa.txt",
      "aaa-aaa.txt",
      "sale-50%_off.txt",
      "50%_of-0%_off.txt",
      "sale-50xxoff.txt",
      "年度报告-2026.pdf",
      "ANNUAL-Summary.TXT",
    ])
      await mustPut(t, `/idx/whole/${name}`, "w", admin);
    const inWhole = (q: string) => paths(`q=${encodeURIComponent(q)}&scope=directory&path=/idx/whole`);
    // Every trigram of the needle, but not the needle: "aaa-aaa", "50%_of-0%_off".
    expect(await inWhole("aaaa")).toEqual(["/idx/whole/aaaa.txt"]);
    // LIKE's wildcards taken literally.
    expect(await inWhole("50%_off")).toEqual(["/idx/whole/sale-50%_off.txt"]);
    expect(await inWhole("0123-0456")).toEqual(["/idx/whole/0123-0456.txt"]);
    expect(await inWhole("0456-0123")).toEqual(["/idx/whole/0456-0123.txt"]);
    expect(await inWhole("年度报告")).toEqual(["/idx/whole/年度报告-2026.pdf"]);
    expect(await inWhole("annual-SUM")).toEqual(["/idx/whole/ANNUAL-Summary.TXT"]);
  });

  it("is never truncated: every match of a large folder counts", async () => {
    const dir = path.join(root, "many");
    mkdirSync(dir);
    for (let i = 0; i < 10_500; i++) writeFileSync(path.join(dir, `item-${i}.dat`), "");
    await crawl();
    const all = await search(`q=item-&scope=mount&mount_id=${mountId}&limit=200&offset=10400`);
    expect(all.source).toBe("index");
    expect(all.truncated).toBe(false);
    expect(all.total).toBe(10_500);
    expect(all.results).toHaveLength(100);
    // A page past the last match still says how many there are.
    const past = await search(`q=item-&scope=mount&mount_id=${mountId}&limit=100&offset=20000`);
    expect(past.results).toEqual([]);
    expect(past.total).toBe(10_500);
    expect(await paths("q=item-10499")).toEqual(["/idx/many/item-10499.dat"]);
  });

  it("include and exclude patterns decide what is indexed", async () => {
    const res = await t.request("PUT", `/api/admin/mounts/${mountId}`, {
      ...admin,
      body: { index_exclude: ["many", "*.pdf"], index_include: [] },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ index_enabled: true, index_exclude: ["many", "*.pdf"] });
    // Changed patterns make the old index stale: walked until a crawl.
    expect((await search(`q=report&scope=mount&mount_id=${mountId}`)).source).toBe("walk");
    await crawl();
    expect(await paths(`q=report.pdf&scope=mount&mount_id=${mountId}`)).toEqual([]);
    expect((await search(`q=item-&scope=mount&mount_id=${mountId}`)).total).toBe(0);
    await mustPut(t, "/idx/public/new.pdf", "p", admin);
    expect(await paths("q=new.pdf")).toEqual([]);
    await mustPut(t, "/idx/public/new.txt", "p", admin);
    expect(await paths("q=new.txt")).toEqual(["/idx/public/new.txt"]);
  });

  it("start, stop and refusals of the Indexes API", async () => {
    expect(
      (await t.request("POST", `/api/admin/indexes/${plainId}/crawl`, { ...admin, body: {} })).status,
    ).toBe(409);
    expect((await t.request("POST", "/api/admin/indexes/nope/crawl", { ...admin, body: {} })).status).toBe(
      404,
    );
    expect(
      (await t.request("POST", `/api/admin/indexes/${mountId}/crawl`, { ...admin, body: { max_rate: -1 } }))
        .status,
    ).toBe(400);
    const key = await t.createApiKey(Permission.MOUNT_VIEW);
    expect((await t.request("GET", "/api/admin/indexes", { apiKey: key.key })).status).toBe(403);
    // A slow crawl: a second start returns the same task; stop cancels it and frees the mount.
    const first = await t.request("POST", `/api/admin/indexes/${mountId}/crawl`, {
      ...admin,
      body: { max_rate: 5 },
    });
    const again = await t.request("POST", `/api/admin/indexes/${mountId}/crawl`, { ...admin, body: {} });
    expect(again.body.data.id).toBe(first.body.data.id);
    const stopped = await t.request("POST", `/api/admin/indexes/${mountId}/stop`, { ...admin, body: {} });
    expect(stopped.status, stopped.text).toBe(200);
    const { task } = await waitForTask(t, first.body.data.id, admin);
    expect(task.status).toBe("cancelled");
    const usage = await t.request("GET", `/api/admin/indexes/${mountId}/usage`, admin);
    expect(usage.status, usage.text).toBe(200);
    expect(usage.body.data.total.files).toBeGreaterThan(5);
    expect(usage.body.data.largestFiles[0].size).toBeGreaterThanOrEqual(usage.body.data.largestFiles[1].size);
    await crawl();
  });
});
