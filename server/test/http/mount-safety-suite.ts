/**
 * The mount-safety corpus: a file share (password, view limit, expiry) stored
 * on a storage that is also mounted at its whole root, and a key holding every
 * mount and WebDAV right but not the file-share one. No route of the explorer
 * (fs list/get/download/links/thumbnail/search/ZIP, WebDAV, copy, move, tasks,
 * create-share) reaches the share object, nor writes into the share area; the
 * share keeps working. Run per storage by mount-safety.test.ts, on the
 * database the environment picks (SQLite or PostgreSQL).
 */
import { Permission, SHARE_AREA } from "@clipshare/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Auth,
  createLocalStorage,
  MOUNT_AND_DAV,
  mustPut,
  names,
  type StorageUnderTest,
  waitForTask,
} from "../support/fs-helpers";
import { createTestApp, type TestApp } from "../support/test-app";
import { unzipTo } from "../support/unzip";

const SECRET = "the share's protected bytes";
const PASSWORD = "share-pw-123";

export function mountSafetySuite(
  label: string,
  makeStorage: (t: TestApp) => Promise<StorageUnderTest>,
): void {
  describe(`no route reaches a file share through a mount (${label})`, () => {
    let t: TestApp;
    let admin: Auth;
    let key: Auth;
    let keyName: string;
    let storage: StorageUnderTest;
    let share: { slug: string; storage_path: string; id: string };
    /** The share object's path as a mount at the storage root would name it. */
    let leaked: string;

    const dav = async (method: string, url: string, headers: Record<string, string> = {}) => {
      const res = await t.app.request(url, {
        method,
        headers: { authorization: `ApiKey ${keyName}`, "x-forwarded-for": "10.7.0.1", ...headers },
      });
      return { status: res.status, text: await res.text() };
    };

    beforeAll(async () => {
      t = await createTestApp();
      admin = { token: await t.adminToken() };
      storage = await makeStorage(t);
      const up = await t.request(
        "PUT",
        `/api/upload-direct/protected.txt?s3_config_id=${storage.configId}&password=${PASSWORD}&max_views=5&expires_in=24`,
        { ...admin, rawBody: SECRET, headers: { "content-type": "application/octet-stream" } },
      );
      expect(up.status, up.text).toBe(201);
      share = up.body.data;
      expect(share.storage_path.startsWith(`${SHARE_AREA}/`)).toBe(true);
      leaked = `/m/${share.storage_path}`;
      // The first mount on the storage: its whole root, as the issue's walk had it.
      const mount = await t.request("POST", "/api/admin/mounts", {
        ...admin,
        body: { name: "m", storage_config_id: storage.configId, mount_path: "/m", web_proxy: true },
      });
      expect(mount.status, mount.text).toBe(201);
      const elsewhere = await createLocalStorage(t, "elsewhere");
      const other = await t.request("POST", "/api/admin/mounts", {
        ...admin,
        body: { name: "other", storage_config_id: elsewhere.configId, mount_path: "/other" },
      });
      expect(other.status, other.text).toBe(201);
      await mustPut(t, "/m/docs/visible.txt", "visible", admin);
      keyName = (await t.createApiKey(MOUNT_AND_DAV)).key;
      key = { apiKey: keyName };
    });
    afterAll(async () => {
      await storage?.cleanup();
      await t?.close();
    });

    it("fs/list shows neither the share area nor its objects, for the key and the admin", async () => {
      for (const who of [key, admin]) {
        expect(await names(t, "/m", who)).not.toContain(SHARE_AREA);
        const inside = await t.request(
          "GET",
          `/api/fs/list?path=${encodeURIComponent(`/m/${SHARE_AREA}`)}`,
          who,
        );
        expect(inside.status, inside.text).toBe(404);
      }
    });

    it("fs/get, fs/download, fs/file-link and the proxy route answer 404 for the share object", async () => {
      const q = encodeURIComponent(leaked);
      for (const url of [
        `/api/fs/get?path=${q}`,
        `/api/fs/download?path=${q}`,
        `/api/fs/file-link?path=${q}`,
      ]) {
        const res = await t.request("GET", url, key);
        expect(res.status, `${url}: ${res.text}`).toBe(404);
        expect(res.text).not.toContain(SECRET);
      }
      const proxied = await t.app.request(`/api/p${leaked}`);
      expect(proxied.status).toBe(404);
    });

    it("fs/thumbnail answers 404 for the share object", async () => {
      const res = await t.request("GET", `/api/fs/thumbnail?path=${encodeURIComponent(leaked)}`, key);
      expect(res.status, res.text).toBe(404);
    });

    it("search finds the share object under no mount path", async () => {
      const res = await t.request("GET", "/api/fs/search?q=protected&scope=global&limit=50&offset=0", key);
      expect(res.status, res.text).toBe(200);
      expect(res.body.data.results).toEqual([]);
      const visible = await t.request("GET", "/api/fs/search?q=visible&scope=global&limit=50&offset=0", key);
      expect(visible.body.data.results.map((r: { path: string }) => r.path)).toEqual(["/m/docs/visible.txt"]);
    });

    it("a ZIP of the whole mount holds the mount's files and no share object; a ZIP of the area is 404", async () => {
      const zip = await t.app.request("/api/fs/zip", {
        method: "POST",
        headers: { authorization: `ApiKey ${keyName}`, "content-type": "application/json" },
        body: JSON.stringify({ paths: ["/m"] }),
      });
      expect(zip.status).toBe(200);
      const files = [...unzipTo(Buffer.from(await zip.arrayBuffer())).keys()];
      expect(files).toContain("m/docs/visible.txt");
      expect(files.filter((f) => f.includes(SHARE_AREA))).toEqual([]);
      const area = await t.app.request("/api/fs/zip", {
        method: "POST",
        headers: { authorization: `ApiKey ${keyName}`, "content-type": "application/json" },
        body: JSON.stringify({ paths: [leaked] }),
      });
      expect(area.status).toBe(404);
    });

    it("WebDAV lists no share area and answers 404 for its objects", async () => {
      const listing = await dav("PROPFIND", "/dav/m/", { depth: "1" });
      expect(listing.status).toBe(207);
      expect(listing.text).toContain("docs");
      expect(listing.text).not.toContain(SHARE_AREA);
      expect((await dav("GET", `/dav${leaked}`)).status).toBe(404);
      expect((await dav("PROPFIND", `/dav/m/${SHARE_AREA}/`, { depth: "0" })).status).toBe(404);
    });

    /** What the share area holds, read from the storage itself. */
    const areaContents = async () => {
      const { driver } = await t.ctx.storageConfigs.driverById(storage.configId);
      return (await driver.list(SHARE_AREA)).entries.map((e) => e.name).sort();
    };
    const refused = (status: number, what: string) => {
      expect(status, what).toBeGreaterThanOrEqual(400);
      expect(status, what).toBeLessThan(500);
    };

    it("WebDAV cannot write, copy, move or make folders into the share area", async () => {
      const before = await areaContents();
      const put = await t.app.request(`/dav/m/${SHARE_AREA}/planted.txt`, {
        method: "PUT",
        headers: { authorization: `ApiKey ${keyName}` },
        body: "planted",
      });
      refused(put.status, "PUT");
      const destination = `http://localhost/dav/m/${SHARE_AREA}/copied.txt`;
      refused((await dav("COPY", "/dav/m/docs/visible.txt", { destination })).status, "COPY");
      refused((await dav("MOVE", "/dav/m/docs/visible.txt", { destination })).status, "MOVE");
      refused((await dav("MKCOL", `/dav/m/${SHARE_AREA}/sub/`)).status, "MKCOL");
      refused((await dav("DELETE", `/dav${leaked}`)).status, "DELETE");
      expect(await areaContents()).toEqual(before);
    });

    it("fs upload, mkdir, rename, copy and delete neither write into the share area nor take from it", async () => {
      const before = await areaContents();
      const upload = await t.request(
        "PUT",
        `/api/fs/upload?path=${encodeURIComponent(`/m/${SHARE_AREA}/x.txt`)}`,
        {
          ...key,
          rawBody: "x",
          headers: { "content-type": "application/octet-stream" },
        },
      );
      refused(upload.status, upload.text);
      const mkdir = await t.request("POST", "/api/fs/mkdir", { ...key, body: { path: `/m/${SHARE_AREA}` } });
      // To a mount the area does not exist, for writes as for reads.
      expect(mkdir.status, mkdir.text).toBe(404);
      const below = await t.request("POST", "/api/fs/mkdir", {
        ...key,
        body: { path: `/m/${SHARE_AREA}/d` },
      });
      refused(below.status, below.text);
      const renameIn = await t.request("POST", "/api/fs/rename", {
        ...key,
        body: { oldPath: "/m/docs/visible.txt", newPath: `/m/${SHARE_AREA}/visible.txt` },
      });
      refused(renameIn.status, renameIn.text);
      const renameOut = await t.request("POST", "/api/fs/rename", {
        ...key,
        body: { oldPath: leaked, newPath: "/m/docs/stolen.txt" },
      });
      expect(renameOut.status, renameOut.text).toBe(404);
      const copyOut = await t.request("POST", "/api/fs/batch-copy", {
        ...key,
        body: { items: [{ sourcePath: leaked, targetPath: "/m/docs/" }] },
      });
      expect(copyOut.body.data?.success ?? 0, copyOut.text).toBe(0);
      const copyIn = await t.request("POST", "/api/fs/batch-copy", {
        ...key,
        body: { items: [{ sourcePath: "/m/docs/visible.txt", targetPath: `/m/${SHARE_AREA}/` }] },
      });
      expect(copyIn.body.data?.success ?? 0, copyIn.text).toBe(0);
      const remove = await t.request("DELETE", "/api/fs/batch-remove", { ...key, body: { paths: [leaked] } });
      expect(remove.body.data?.success ?? 0, remove.text).toBe(0);
      expect(await names(t, "/m/docs", admin)).toEqual(["visible.txt"]);
      expect(await areaContents()).toEqual(before);
    });

    it("removing or renaming the mount's whole folder cannot take the share area with it", async () => {
      const removed = await t.request("DELETE", "/api/fs/batch-remove", { ...key, body: { paths: ["/m"] } });
      expect(removed.body.data?.success ?? 0, removed.text).toBe(0);
      refused((await dav("DELETE", "/dav/m/")).status, "WebDAV DELETE of the mount");
      const renamed = await t.request("POST", "/api/fs/rename", {
        ...key,
        body: { oldPath: "/m", newPath: "/m2" },
      });
      refused(renamed.status, renamed.text);
      expect(await areaContents()).toContain(share.storage_path.slice(SHARE_AREA.length + 1));
    });

    it("a copy of the whole mount to another storage (a task) carries no share object", async () => {
      const res = await t.request("POST", "/api/fs/batch-copy", {
        ...key,
        body: { items: [{ sourcePath: "/m/", targetPath: "/other/copy/" }] },
      });
      expect(res.status, res.text).toBe(202);
      const { task } = await waitForTask(t, res.body.data.taskId, key);
      expect(task.status, JSON.stringify(task)).toBe("completed");
      expect(await names(t, "/other/copy", admin)).toEqual(["docs"]);
      const cross = await t.request("POST", "/api/fs/batch-copy", {
        ...key,
        body: { items: [{ sourcePath: leaked, targetPath: "/other/" }] },
      });
      if (cross.status === 202) {
        const { task: failed } = await waitForTask(t, cross.body.data.taskId, key);
        expect(failed.status).not.toBe("completed");
      } else expect(cross.body.data?.success ?? 0, cross.text).toBe(0);
      expect(await names(t, "/other", admin)).toEqual(["copy"]);
    });

    it("fs/create-share needs the file-share permission as well as mount view", async () => {
      const refused = await t.request("POST", "/api/fs/create-share", {
        ...key,
        body: { path: "/m/docs/visible.txt" },
      });
      expect(refused.status, refused.text).toBe(403);
      expect(refused.body.error).toBe("permission_denied");
      const sharer = { apiKey: (await t.createApiKey(Permission.MOUNT_VIEW | Permission.FILE_SHARE)).key };
      const made = await t.request("POST", "/api/fs/create-share", {
        ...sharer,
        body: { path: "/m/docs/visible.txt" },
      });
      expect(made.status, made.text).toBe(201);
      const got = await t.app.request(`/api/file-download/${made.body.data.slug}`);
      expect(await got.text()).toBe("visible");
      const leakedShare = await t.request("POST", "/api/fs/create-share", {
        ...sharer,
        body: { path: leaked },
      });
      expect(leakedShare.status, leakedShare.text).toBe(404);
      const viewless = { apiKey: (await t.createApiKey(Permission.FILE_SHARE)).key };
      const noView = await t.request("POST", "/api/fs/create-share", {
        ...viewless,
        body: { path: "/m/docs/visible.txt" },
      });
      expect(noView.status, noView.text).toBe(403);
    });

    it("a direct link needs mount view on that path", async () => {
      const q = encodeURIComponent("/m/docs/visible.txt");
      const outside = { apiKey: (await t.createApiKey(MOUNT_AND_DAV, { basic_path: "/other" })).key };
      expect((await t.request("GET", `/api/fs/file-link?path=${q}`, outside)).status).toBe(403);
      const noView = { apiKey: (await t.createApiKey(Permission.MOUNT_UPLOAD)).key };
      expect((await t.request("GET", `/api/fs/file-link?path=${q}`, noView)).status).toBe(403);
      expect((await t.request("GET", `/api/fs/file-link?path=${q}`, key)).status).toBe(200);
    });

    it("the share still asks for its password, counts its views and serves its bytes", async () => {
      const bare = await t.app.request(`/api/file-download/${share.slug}`);
      expect(bare.status).toBeGreaterThanOrEqual(400);
      expect(await bare.text()).not.toContain(SECRET);
      const open = await t.app.request(`/api/file-download/${share.slug}?password=${PASSWORD}`);
      expect(open.status).toBe(200);
      expect(await open.text()).toBe(SECRET);
      const row = await t.ctx.db
        .selectFrom("files")
        .select("views")
        .where("id", "=", share.id)
        .executeTakeFirstOrThrow();
      expect(Number(row.views)).toBe(1);
    });
  });
}
