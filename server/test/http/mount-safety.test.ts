/**
 * File shares are never reachable through a mount (mount-safety-suite.ts), on
 * the default LOCAL storage (DATA_DIR/files, where the issue found them) and on
 * S3; and mount roots: the folder a mount shows, the reserved names it may not
 * take, and the overlap an admin must confirm.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { SHARE_AREA } from "@clipshare/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Auth,
  createLocalStorage,
  createS3Storage,
  mustPut,
  names,
  type StorageUnderTest,
} from "../support/fs-helpers";
import { describeS3 } from "../support/s3-env";
import { createTestApp, type TestApp } from "../support/test-app";
import { mountSafetySuite } from "./mount-safety-suite";

async function defaultLocalStorage(t: TestApp): Promise<StorageUnderTest> {
  const configs = await t.request("GET", "/api/s3-configs", { token: await t.adminToken() });
  const local = configs.body.data.find((c: { is_default: boolean }) => c.is_default);
  expect(local.root_path).toBe(path.join(t.dataDir, "files"));
  return { configId: local.id, storageType: "LOCAL", cleanup: async () => undefined };
}

mountSafetySuite("default LOCAL storage", defaultLocalStorage);

describeS3("S3 (Swift)", (s3) => {
  mountSafetySuite("S3", (t) => createS3Storage(t, s3, "mount-safety"));
});

describe("mount roots", () => {
  let t: TestApp;
  let admin: Auth;
  let disk: StorageUnderTest;
  const mount = (body: Record<string, unknown>) =>
    t.request("POST", "/api/admin/mounts", {
      ...admin,
      body: { name: "n", storage_config_id: disk.configId, ...body },
    });

  beforeAll(async () => {
    t = await createTestApp();
    admin = { token: await t.adminToken() };
    disk = await createLocalStorage(t, "roots-disk");
  });
  afterAll(async () => t.close());

  it("a mount shows only its folder, which is created when missing", async () => {
    const res = await mount({ mount_path: "/team", root: "/teams/alpha/" });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.root).toBe("teams/alpha");
    expect(existsSync(path.join(t.dataDir, "roots-disk", "teams", "alpha"))).toBe(true);
    await mustPut(t, "/team/a.txt", "a", admin);
    expect(existsSync(path.join(t.dataDir, "roots-disk", "teams", "alpha", "a.txt"))).toBe(true);
    expect(await names(t, "/team", admin)).toEqual(["a.txt"]);
  });

  it("a share made from a file under a root serves that file", async () => {
    await mustPut(t, "/team/shared.txt", "rooted", admin);
    const made = await t.request("POST", "/api/fs/create-share", {
      ...admin,
      body: { path: "/team/shared.txt" },
    });
    expect(made.status, made.text).toBe(201);
    const got = await t.app.request(`/api/file-download/${made.body.data.slug}`);
    expect(await got.text()).toBe("rooted");
  });

  it.each([
    [SHARE_AREA, "reserved"],
    [`${SHARE_AREA}/x`, "reserved"],
    [".clipshare-tmp", "reserved"],
    ["a/../b", ". or .."],
    ["a\\b", "backslashes"],
  ])("refuses the folder %j with 400", async (root, words) => {
    const res = await mount({ mount_path: "/refused", root });
    expect(res.status, res.text).toBe(400);
    expect(res.body.message).toContain(words);
  });

  it("a second mount on an overlapping folder takes the admin's confirmation (409 without it)", async () => {
    for (const root of ["teams/alpha", "teams", "", "teams/alpha/sub"]) {
      const res = await mount({ mount_path: "/again", root });
      expect(res.status, `${root}: ${res.text}`).toBe(409);
      expect(res.body.error).toBe("mount_root_overlap");
      expect(res.body.message).toContain("allow_overlap");
    }
    const beside = await mount({ mount_path: "/beta", root: "teams/beta" });
    expect(beside.status, beside.text).toBe(201);
    const confirmed = await mount({ mount_path: "/again", root: "teams", allow_overlap: true });
    expect(confirmed.status, confirmed.text).toBe(201);
    // Moving a mount onto another's folder is the same question.
    const moved = await t.request("PUT", `/api/admin/mounts/${beside.body.data.id}`, {
      ...admin,
      body: { root: "teams/alpha" },
    });
    expect(moved.status, moved.text).toBe(409);
  });

  it("two LOCAL configs on nested directories overlap too", async () => {
    const inner = await createLocalStorage(t, "roots-disk/teams/alpha/inner");
    const res = await mount({ mount_path: "/inner", storage_config_id: inner.configId });
    expect(res.status, res.text).toBe(409);
  });

  it("search lists an object once per mount path that shows it, by the admin's choice", async () => {
    await mustPut(t, "/team/findme.txt", "f", admin);
    const res = await t.request("GET", "/api/fs/search?q=findme&scope=global&limit=50&offset=0", admin);
    expect(res.body.data.results.map((r: { path: string }) => r.path).sort()).toEqual([
      "/again/alpha/findme.txt",
      "/team/findme.txt",
    ]);
  });

  it("a mount of a LOCAL storage holding another's share area does not show that area", async () => {
    const parent = await createLocalStorage(t, "outer");
    const child = await createLocalStorage(t, "outer/child");
    const up = await t.request("PUT", `/api/upload-direct/nested.txt?s3_config_id=${child.configId}`, {
      ...admin,
      rawBody: "nested secret",
      headers: { "content-type": "application/octet-stream" },
    });
    expect(up.status, up.text).toBe(201);
    const res = await mount({
      mount_path: "/outer",
      storage_config_id: parent.configId,
      allow_overlap: true,
    });
    expect(res.status, res.text).toBe(201);
    expect(await names(t, "/outer/child", admin)).toEqual([]);
    const get = await t.request("GET", `/api/fs/get?path=/outer/child/${up.body.data.storage_path}`, admin);
    expect(get.status).toBe(404);
    // The folder holding that area cannot be removed, moved or copied as a whole: the area would go along.
    const removed = await t.request("DELETE", "/api/fs/batch-remove", {
      ...admin,
      body: { paths: ["/outer/child"] },
    });
    expect(removed.body.data.failed[0].error, removed.text).toContain("reserved for file shares");
    const moved = await t.request("POST", "/api/fs/rename", {
      ...admin,
      body: { oldPath: "/outer/child", newPath: "/outer/moved" },
    });
    expect(moved.status, moved.text).toBe(403);
    const shared = await t.app.request(`/api/file-download/${up.body.data.slug}`);
    expect(await shared.text()).toBe("nested secret");
  });
});
