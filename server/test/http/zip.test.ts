import { randomBytes } from "node:crypto";
import { Permission } from "@clipshare/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Auth,
  createLocalStorage,
  createMount,
  createS3Storage,
  mustPut,
  type StorageUnderTest,
} from "../support/fs-helpers";
import { describeS3, type S3TestEnv } from "../support/s3-env";
import { createTestApp, type TestApp } from "../support/test-app";
import { unzipTo } from "../support/unzip";

function describeZip(label: string, makeStorage: (t: TestApp) => Promise<StorageUnderTest>) {
  describe(`ZIP downloads on ${label}`, () => {
    let t: TestApp;
    let admin: Auth;
    let storage: StorageUnderTest;
    const a = randomBytes(123_457);
    const b = Buffer.from("plain text\n");
    const c = randomBytes(4096);

    beforeAll(async () => {
      t = await createTestApp();
      admin = { token: await t.adminToken() };
      storage = await makeStorage(t);
      await createMount(t, storage, "/z");
      await mustPut(t, "/z/docs/a.bin", a, admin);
      await mustPut(t, "/z/docs/b.txt", b, admin);
      await mustPut(t, "/z/docs/Ünïcödé 文件.dat", c, admin);
      await mustPut(t, "/z/docs/nested/deeper/d.txt", "d", admin);
    });
    afterAll(async () => {
      await storage?.cleanup();
      await t?.close();
    });

    const post = (body: unknown, auth: Auth = admin) =>
      t.app.request("/api/fs/zip", {
        method: "POST",
        headers: {
          authorization: auth.token ? `Bearer ${auth.token}` : `ApiKey ${auth.apiKey}`,
          "content-type": "application/json",
        },
        body: JSON.stringify(body),
      });

    it("three files, one with a non-ASCII name, extract byte-identical with unzip", async () => {
      const res = await post({ paths: ["/z/docs/a.bin", "/z/docs/b.txt", "/z/docs/Ünïcödé 文件.dat"] });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/zip");
      expect(res.headers.get("content-disposition")).toBe('attachment; filename="download.zip"');
      const files = unzipTo(Buffer.from(await res.arrayBuffer()));
      expect([...files.keys()].sort()).toEqual(["a.bin", "b.txt", "Ünïcödé 文件.dat"].sort());
      expect(files.get("a.bin")!.equals(a)).toBe(true);
      expect(files.get("b.txt")!.equals(b)).toBe(true);
      expect(files.get("Ünïcödé 文件.dat")!.equals(c)).toBe(true);
    });

    it("a folder downloads as one archive named after it, with its tree", async () => {
      const res = await post({ paths: ["/z/docs"] });
      expect(res.headers.get("content-disposition")).toBe('attachment; filename="docs.zip"');
      const files = unzipTo(Buffer.from(await res.arrayBuffer()));
      expect([...files.keys()].sort()).toEqual(
        ["docs/a.bin", "docs/b.txt", "docs/nested/deeper/d.txt", "docs/Ünïcödé 文件.dat"].sort(),
      );
      expect(files.get("docs/a.bin")!.equals(a)).toBe(true);
    });

    it("plain GET links work with an Authorization header or a signed link", async () => {
      const query = "paths=/z/docs/b.txt&paths=/z/docs/nested&name=pick";
      const withHeader = await t.app.request(`/api/fs/zip?${query}`, {
        headers: { authorization: `Bearer ${admin.token}` },
      });
      expect(withHeader.status).toBe(200);
      expect([...unzipTo(Buffer.from(await withHeader.arrayBuffer())).keys()].sort()).toEqual([
        "b.txt",
        "nested/deeper/d.txt",
      ]);
      expect((await t.app.request(`/api/fs/zip?${query}`)).status).toBe(401);

      const link = await t.request("POST", "/api/fs/zip/link", {
        ...admin,
        body: { paths: ["/z/docs/b.txt"], name: "linked" },
      });
      expect(link.status).toBe(200);
      const url = new URL(link.body.data.url);
      const viaLink = await t.app.request(`${url.pathname}${url.search}`);
      expect(viaLink.status).toBe(200);
      expect(viaLink.headers.get("content-disposition")).toBe('attachment; filename="linked.zip"');
      expect(
        unzipTo(Buffer.from(await viaLink.arrayBuffer()))
          .get("b.txt")!
          .equals(b),
      ).toBe(true);
      const other = new URL(url);
      other.searchParams.set("paths", "/z/docs/a.bin");
      const tampered = await t.app.request(`${other.pathname}${other.search}`);
      expect(tampered.status).toBe(401);
    });

    it("checks every path before streaming: base path, permission, existence", async () => {
      const key = await t.createApiKey(Permission.MOUNT_VIEW, { basic_path: "/z/docs/nested" });
      const outside = await post({ paths: ["/z/docs/nested", "/z/docs/a.bin"] }, { apiKey: key.key });
      expect(outside.status).toBe(403);
      const inside = await post({ paths: ["/z/docs/nested"] }, { apiKey: key.key });
      expect(inside.status).toBe(200);
      expect([...unzipTo(Buffer.from(await inside.arrayBuffer())).keys()]).toEqual(["nested/deeper/d.txt"]);
      const noView = await t.createApiKey(Permission.MOUNT_UPLOAD);
      expect((await post({ paths: ["/z/docs"] }, { apiKey: noView.key })).status).toBe(403);
      const missing = await post({ paths: ["/z/docs/nope.txt"] });
      expect(missing.status).toBe(404);
      expect((await post({ paths: ["/z/docs/%2e%2e/x"] })).status).toBe(400);
      expect((await post({ paths: [] })).status).toBe(400);
    });
  });
}

describeZip("LOCAL", (t) => createLocalStorage(t, "zip-disk"));
describeS3("S3 (Swift)", (s3: S3TestEnv) => {
  describeZip("S3", (t) => createS3Storage(t, s3, "zip"));
});
