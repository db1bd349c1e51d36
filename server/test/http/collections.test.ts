import { symlinkSync } from "node:fs";
import path from "node:path";
import { publicCollection } from "@clipshare/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Auth, createLocalStorage, createMount, writeTree } from "../support/fs-helpers";
import { createTestApp, type TestApp } from "../support/test-app";
import { unzipTo } from "../support/unzip";
import { describeCollectionSuite } from "./collections-suite";

describeCollectionSuite("LOCAL", (t) => createLocalStorage(t));

describe("a folder collection on LOCAL never leads out of its folder", () => {
  let t: TestApp;
  let admin: Auth;
  let slug: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = { token: await t.adminToken() };
    const storage = await createLocalStorage(t, "linked");
    await createMount(t, storage, "/d");
    const root = path.join(t.dataDir, "linked");
    writeTree(root, {
      "shared/kept.txt": "kept\n",
      "private/secret.txt": "secret\n",
      "shared/.env": "hidden\n",
    });
    symlinkSync("../private", path.join(root, "shared", "out-dir"));
    symlinkSync("../private/secret.txt", path.join(root, "shared", "out-file.txt"));
    const hide = await t.request("PUT", "/api/admin/folder-settings", {
      ...admin,
      body: { path: "/d/shared", hide_patterns: ".env" },
    });
    expect(hide.status, hide.text).toBeLessThan(300);
    const res = await t.request("POST", "/api/collections", {
      ...admin,
      body: { items: [{ path: "/d/shared" }] },
    });
    expect(res.status, res.text).toBe(201);
    slug = res.body.data.slug;
  });
  afterAll(async () => {
    await t?.close();
  });

  const get = (url: string) => t.app.request(url.replace(/^https?:\/\/[^/]+/, ""));

  it("symbolic links leading out and hidden entries are neither listed, read nor zipped", async () => {
    const data = publicCollection.parse(
      ((await (await get(`/api/public/collections/${slug}`)).json()) as { data: unknown }).data,
    );
    const item = `/api/public/collections/${slug}/items/${data.items[0]!.item_id}`;
    const listed = await get(`${item}/list?token=${data.access_token}`);
    const names = ((await listed.json()) as { data: { entries: Array<{ name: string }> } }).data.entries.map(
      (e) => e.name,
    );
    expect(names).toEqual(["kept.txt"]);
    for (const inner of ["out-file.txt", "out-dir/secret.txt", ".env"]) {
      const res = await get(`${item}/download?path=${encodeURIComponent(inner)}&token=${data.access_token}`);
      const body = (await res.json()) as { error: string; message: string };
      expect(res.status, inner).toBe(404);
      // Not found, with no path of the server's tree in the message.
      expect(body.error).toBe("collection_item_not_found");
      expect(body.message).not.toContain("/d/");
    }
    const zip = unzipTo(Buffer.from(await (await get(data.zip_url!)).arrayBuffer()));
    expect([...zip.keys()]).toEqual(["shared/kept.txt"]);
  });
});
