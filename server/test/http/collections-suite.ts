/**
 * Collections (/api/collections, /api/public/collections/:slug) against one
 * storage backend: collections.test.ts runs it on LOCAL, collections-s3.test.ts
 * on the Swift S3 server; both on SQLite and, with CLIPSHARE_TEST_DB=postgres,
 * PostgreSQL. Each test builds its own collection, so they run in any order.
 */
import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import {
  collection,
  collectionDetail,
  collectionFolderPage,
  lockedCollection,
  Permission,
  publicCollection,
} from "@clipshare/shared";
import { beforeAll, describe, expect, it } from "vitest";
import { cookieFor } from "../support/cookies";
import { type Auth, mountStorageAtM, mustPut, type StorageUnderTest } from "../support/fs-helpers";
import type { TestApp } from "../support/test-app";
import { unzipTo } from "../support/unzip";

const FOLDER_FILES = 1000;
/**
 * Writing the folder and zipping it are a request per object to the storage: the Swift S3 test
 * server answered about 25 a second on this 2-core machine under load (measured: 1,000 writes
 * 46 s, the ZIP of all 41 s), LOCAL takes a few seconds. Only these two steps get the time.
 */
const FOLDER_MS = 240_000;

export function describeCollectionSuite(
  label: string,
  makeStorage: (t: TestApp) => Promise<StorageUnderTest>,
) {
  describe(`collections on ${label}`, () => {
    let t: TestApp;
    let admin: Auth;
    let storage: StorageUnderTest;
    const files = {
      "photo.png": randomBytes(70_001),
      "notes.txt": Buffer.from("three files under one link\n"),
      "data.bin": randomBytes(300_000),
    };
    const shareIds: string[] = [];

    mountStorageAtM(makeStorage, (setup) => {
      ({ t, storage, admin } = setup);
    });

    beforeAll(async () => {
      for (const [name, bytes] of Object.entries(files)) {
        const res = await t.request(
          "PUT",
          `/api/upload-direct/${encodeURIComponent(name)}?s3_config_id=${storage.configId}`,
          { ...admin, rawBody: bytes, headers: { "content-type": "application/octet-stream" } },
        );
        expect(res.status, res.text).toBeLessThan(300);
        shareIds.push(res.body.data.fileId ?? res.body.data.id);
      }
      // The folder of 1,000 files, written straight to the storage (a few at a time).
      const { driver } = await t.ctx.storageConfigs.driverById(storage.configId);
      const names = Array.from({ length: FOLDER_FILES }, (_, i) => `big/f${String(i).padStart(4, "0")}.txt`);
      for (let i = 0; i < names.length; i += 50) {
        await Promise.all(
          names.slice(i, i + 50).map((n) => {
            const body = Buffer.from(`${n}\n`);
            return driver.write(n, Readable.from([body]), { size: body.length });
          }),
        );
      }
      await mustPut(t, "/m/docs/readme.md", "# Docs\n", admin);
      await mustPut(t, "/m/docs/sub/deep.txt", "deep\n", admin);
      await mustPut(t, "/m/outside/secret.txt", "not shared\n", admin);
    }, FOLDER_MS);

    async function create(body: Record<string, unknown>, auth: Auth = admin) {
      const res = await t.request("POST", "/api/collections", { ...auth, body });
      expect(res.status, res.text).toBe(201);
      collection.parse(res.body.data);
      return res.body.data as { id: string; slug: string; url: string };
    }

    const threeFiles = () => shareIds.map((id) => ({ file_id: id }));

    /** A visitor's GET of a collection route (relative or absolute URL), with optional cookie. */
    const visit = (url: string, headers: Record<string, string> = {}) =>
      t.app.request(url.replace(/^https?:\/\/[^/]+/, ""), { headers });

    const page = async (slug: string, headers: Record<string, string> = {}) => {
      const res = await visit(`/api/public/collections/${slug}`, headers);
      return { res, body: (await res.json()) as { data: Record<string, unknown>; error?: string } };
    };

    const views = async (id: string) =>
      (
        await t.ctx.db
          .selectFrom("collections")
          .select("views")
          .where("id", "=", id)
          .executeTakeFirstOrThrow()
      ).views;

    it("a collection of three file shares lists each file with its size", async () => {
      const { slug, url } = await create({ title: "Three", items: threeFiles() });
      expect(url).toBe(`/c/${slug}`);
      const { res, body } = await page(slug);
      expect(res.status).toBe(200);
      const data = publicCollection.parse(body.data);
      expect(data.title).toBe("Three");
      expect(data.items.map((i) => [i.name, i.size, i.is_directory])).toEqual([
        ["photo.png", files["photo.png"].length, false],
        ["notes.txt", files["notes.txt"].length, false],
        ["data.bin", files["data.bin"].length, false],
      ]);
      expect(data.items[0]!.thumbnail_url).toContain("/thumbnail?");
      expect(data.items[2]!.thumbnail_url).toBeNull();
    });

    it("each file of a collection downloads byte-identical and previews inline", async () => {
      const { slug } = await create({ items: threeFiles() });
      const data = publicCollection.parse((await page(slug)).body.data);
      for (const item of data.items) {
        const down = await visit(item.download_url!);
        expect(down.status).toBe(200);
        expect(down.headers.get("content-disposition")).toContain("attachment");
        expect(Buffer.from(await down.arrayBuffer()).equals(files[item.name as keyof typeof files])).toBe(
          true,
        );
      }
      const text = data.items.find((i) => i.name === "notes.txt")!;
      const inline = await visit(text.view_url!);
      expect(inline.status).toBe(200);
      expect(inline.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(inline.headers.get("content-disposition")).toContain("inline");
      const ranged = await visit(text.view_url!, { range: "bytes=0-4" });
      expect(ranged.status).toBe(206);
      expect(await ranged.text()).toBe("three");
    });

    it("the ZIP of a collection holds every file byte-identical", async () => {
      const { slug } = await create({ title: "Holiday", items: threeFiles() });
      const data = publicCollection.parse((await page(slug)).body.data);
      const zip = await visit(data.zip_url!);
      expect(zip.status).toBe(200);
      expect(zip.headers.get("content-disposition")).toBe('attachment; filename="Holiday.zip"');
      const got = unzipTo(Buffer.from(await zip.arrayBuffer()));
      expect([...got.keys()].sort()).toEqual(Object.keys(files).sort());
      for (const [name, bytes] of Object.entries(files)) expect(got.get(name)!.equals(bytes)).toBe(true);
    });

    it(
      "a folder of 1,000 files lists every file, previews one, downloads one and zips all",
      async () => {
        const { slug } = await create({ items: [{ path: "/m/big" }] });
        const data = publicCollection.parse((await page(slug)).body.data);
        expect(data.items).toHaveLength(1);
        const folder = data.items[0]!;
        expect(folder).toMatchObject({ name: "big", is_directory: true, download_url: null });
        const seen: string[] = [];
        let cursor: string | null = null;
        do {
          const q: string = `path=&token=${data.access_token}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
          const res = await visit(`/api/public/collections/${slug}/items/${folder.item_id}/list?${q}`);
          expect(res.status).toBe(200);
          const listed = collectionFolderPage.parse(((await res.json()) as { data: unknown }).data);
          seen.push(...listed.entries.map((e) => e.path));
          cursor = listed.next_cursor;
        } while (cursor);
        expect(seen).toHaveLength(FOLDER_FILES);
        expect(new Set(seen).has("f0999.txt")).toBe(true);
        const one = `/api/public/collections/${slug}/items/${folder.item_id}`;
        const inline = await visit(`${one}/view?path=f0123.txt&token=${data.access_token}`);
        expect(inline.status).toBe(200);
        expect(await inline.text()).toBe("big/f0123.txt\n");
        const down = await visit(`${one}/download?path=f0999.txt&token=${data.access_token}`);
        expect(down.headers.get("content-disposition")).toContain("f0999.txt");
        expect(await down.text()).toBe("big/f0999.txt\n");
        const zip = unzipTo(Buffer.from(await (await visit(data.zip_url!)).arrayBuffer()));
        expect(zip.size).toBe(FOLDER_FILES);
        expect(zip.get("big/f0500.txt")!.toString()).toBe("big/f0500.txt\n");
      },
      FOLDER_MS,
    );

    it("a view-limited collection counts one view per visit: page, previews, downloads and ZIP with its token", async () => {
      const { id, slug } = await create({ items: [...threeFiles(), { path: "/m/docs" }], max_views: 2 });
      const first = await page(slug);
      expect(await views(id)).toBe(1);
      const data = publicCollection.parse(first.body.data);
      const cookie = cookieFor(first.res, `/api/public/collections/${slug}/zip`);
      expect(cookie).toContain("clipshare_download=");
      const fetched = async (url: string, headers: Record<string, string> = {}) => {
        const res = await visit(url, headers);
        await res.arrayBuffer();
        return res.status;
      };
      for (const item of data.items) {
        if (item.download_url) expect(await fetched(item.download_url)).toBe(200);
        if (item.view_url) expect(await fetched(item.view_url)).toBe(200);
      }
      // The browser's own requests carry the cookie instead of ?token=: a reload, the ZIP, a folder page.
      expect((await page(slug, { cookie })).res.status).toBe(200);
      expect(await fetched(`/api/public/collections/${slug}/zip`, { cookie })).toBe(200);
      const docs = data.items.find((i) => i.is_directory)!;
      const inner = await visit(`/api/public/collections/${slug}/items/${docs.item_id}/list?path=sub`, {
        cookie,
      });
      expect(inner.status).toBe(200);
      expect(await views(id)).toBe(1);
      // A second visitor downloads the ZIP straight away: one more view, the last.
      const zip = await visit(`/api/public/collections/${slug}/zip`);
      expect(zip.status).toBe(200);
      await zip.arrayBuffer();
      expect(await views(id)).toBe(2);
      const third = await page(slug);
      expect(third.res.status).toBe(410);
      expect(third.body.error).toBe("collection_view_limit");
      // The first visit goes on: its token outlives the last view (never the expiry).
      expect(await fetched(data.items[0]!.download_url!)).toBe(200);
    });

    it("a password-protected collection names nothing until the password, then opens", async () => {
      const { slug } = await create({ items: threeFiles(), password: "open sesame" });
      const lockedPage = await page(slug);
      expect(lockedPage.res.status).toBe(200);
      expect(lockedCollection.parse(lockedPage.body.data).requires_password).toBe(true);
      const zip = await visit(`/api/public/collections/${slug}/zip`);
      expect(zip.status).toBe(401);
      const wrong = await t.request("POST", `/api/public/collections/${slug}/verify`, {
        body: { password: "nope" },
      });
      expect(wrong.status).toBe(401);
      expect(wrong.body.error).toBe("wrong_password");
      const right = await t.request("POST", `/api/public/collections/${slug}/verify`, {
        body: { password: "open sesame" },
      });
      expect(right.status).toBe(200);
      const data = publicCollection.parse(right.body.data);
      expect(data.items).toHaveLength(3);
      const zipped = await visit(data.zip_url!);
      expect(zipped.status).toBe(200);
      expect(unzipTo(Buffer.from(await zipped.arrayBuffer())).size).toBe(3);
    });

    it("a folder item is read as it is at download time", async () => {
      await mustPut(t, "/m/live/one.txt", "1", admin);
      const { slug } = await create({ items: [{ path: "/m/live" }] });
      await mustPut(t, "/m/live/two.txt", "2", admin);
      const data = publicCollection.parse((await page(slug)).body.data);
      const zip = unzipTo(Buffer.from(await (await visit(data.zip_url!)).arrayBuffer()));
      expect([...zip.keys()].sort()).toEqual(["live/one.txt", "live/two.txt"]);
    });

    it("nothing outside a folder item can be named: dot segments, absolute paths, backslashes", async () => {
      const { slug } = await create({ items: [{ path: "/m/docs" }] });
      const data = publicCollection.parse((await page(slug)).body.data);
      const item = `/api/public/collections/${slug}/items/${data.items[0]!.item_id}`;
      for (const path of [
        "../outside/secret.txt",
        "sub/../../outside/secret.txt",
        "..\\outside",
        "./readme.md",
      ]) {
        const res = await visit(
          `${item}/download?path=${encodeURIComponent(path)}&token=${data.access_token}`,
        );
        expect(res.status, path).toBe(400);
      }
      // A leading slash means the folder item itself, never the tree's root.
      const rooted = await visit(
        `${item}/download?path=${encodeURIComponent("/readme.md")}&token=${data.access_token}`,
      );
      expect(await rooted.text()).toBe("# Docs\n");
      const other = await visit(`${item}/download?path=secret.txt&token=${data.access_token}`);
      expect(other.status).toBe(404);
      await other.arrayBuffer();
    });

    it("an expired collection answers 410 collection_expired", async () => {
      const { id, slug } = await create({ items: threeFiles(), expires_in: 1 });
      await t.ctx.db
        .updateTable("collections")
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where("id", "=", id)
        .execute();
      const res = await page(slug);
      expect(res.res.status).toBe(410);
      expect(res.body.error).toBe("collection_expired");
    });

    it("a key shares only its own file shares and paths inside its base path", async () => {
      const { key } = await t.createApiKey(Permission.FILE_SHARE | Permission.MOUNT_VIEW, {
        basic_path: "/m/docs",
      });
      const foreign = await t.request("POST", "/api/collections", {
        apiKey: key,
        body: { items: [{ file_id: shareIds[0] }] },
      });
      expect(foreign.status).toBe(400);
      expect(foreign.body.error).toBe("collection_item_invalid");
      const outside = await t.request("POST", "/api/collections", {
        apiKey: key,
        body: { items: [{ path: "/m/outside" }] },
      });
      expect(outside.status).toBe(403);
      expect(outside.body.error).toBe("path_forbidden");
      const own = await create({ items: [{ path: "/m/docs/sub" }] }, { apiKey: key });
      expect(publicCollection.parse((await page(own.slug)).body.data).items).toHaveLength(1);
    });

    it("the owner manages a collection: list with search, detail, edit, delete", async () => {
      const { id, slug } = await create({ title: "Quarterly numbers", items: threeFiles() });
      const listed = await t.request("GET", "/api/collections?search=Quarterly", admin);
      expect(listed.status).toBe(200);
      expect(listed.body.data.collections.map((c: { id: string }) => c.id)).toEqual([id]);
      const detail = await t.request("GET", `/api/collections/${id}`, admin);
      expect(collectionDetail.parse(detail.body.data).items.map((i) => i.name)).toEqual(Object.keys(files));
      const edited = await t.request("PUT", `/api/collections/${id}`, {
        ...admin,
        body: { title: "Q3", max_views: 5, items: [{ file_id: shareIds[1] }] },
      });
      expect(edited.status, edited.text).toBe(200);
      expect(edited.body.data).toMatchObject({ title: "Q3", max_views: 5, item_count: 1 });
      const del = await t.request("DELETE", "/api/collections/batch-delete", {
        ...admin,
        body: { ids: [id] },
      });
      expect(del.body.data).toEqual({ success: 1, failed: [] });
      expect((await page(slug)).res.status).toBe(404);
      // The file shares stay unless asked for.
      expect((await t.request("GET", `/api/files/${shareIds[1]}`, admin)).status).toBe(200);
    });
  });
}
