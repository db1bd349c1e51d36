/**
 * One path limit for the whole tree: a path the explorer accepts can be
 * stored, and a longer one is refused up front with 400 `invalid_path` (the
 * JSON envelope on /api, a plain 400 on /dav), never a storage failure, on
 * LOCAL and S3 storage alike.
 */
import { describe, expect, it } from "vitest";
import { MAX_PATH_BYTES } from "../../src/storage/path-rules";
import {
  type Auth,
  createLocalStorage,
  createS3Storage,
  list,
  mountStorageAtM,
  mustPut,
  readBytes,
  type StorageUnderTest,
} from "../support/fs-helpers";
import { s3TestEnv } from "../support/s3-env";
import { ADMIN_PASSWORD, ADMIN_USERNAME, type TestApp } from "../support/test-app";

/** A path below `dir` of exactly `bytes` UTF-8 bytes, in segments of at most 200 bytes (3-byte characters too). */
function pathOfBytes(dir: string, bytes: number): string {
  let path = dir;
  while (Buffer.byteLength(path) < bytes) {
    const left = bytes - Buffer.byteLength(path) - 1;
    const segment = left >= 200 ? `${"文".repeat(30)}${"d".repeat(110)}` : "f".repeat(left);
    path = `${path}/${segment}`;
  }
  expect(Buffer.byteLength(path)).toBe(bytes);
  return path;
}

interface Case {
  type: string;
  make: (t: TestApp) => Promise<StorageUnderTest>;
  /** S3 counts the storage's folder toward its own 1024-byte key limit. */
  storesAtLimit: boolean;
}
const s3 = s3TestEnv();
const storages: Case[] = [
  { type: "LOCAL", make: (t) => createLocalStorage(t), storesAtLimit: true },
  ...(s3
    ? [{ type: "S3", make: (t: TestApp) => createS3Storage(t, s3, "path-limits"), storesAtLimit: false }]
    : []),
];

describe.each(storages)("path length limit ($type)", ({ make: makeStorage, storesAtLimit }) => {
  let t: TestApp;
  let admin: Auth;
  let storage: StorageUnderTest;
  const davAuth = `Basic ${Buffer.from(`${ADMIN_USERNAME}:${ADMIN_PASSWORD}`).toString("base64")}`;
  const dav = async (method: string, path: string, body?: string) => {
    const url = `/dav${path.split("/").map(encodeURIComponent).join("/")}`;
    const res = await t.app.request(url, { method, headers: { authorization: davAuth }, body });
    return { status: res.status, text: await res.text() };
  };

  mountStorageAtM(makeStorage, (setup) => {
    ({ t, admin, storage } = setup);
  });

  it("stores and reads back a file whose path is close to the limit", async () => {
    const path = pathOfBytes("/m", MAX_PATH_BYTES - 100);
    await mustPut(t, path, "near the limit", admin);
    expect((await readBytes(t, path, admin)).toString()).toBe("near the limit");
  });

  it("at the limit, stores the file or (S3 with a folder) refuses it with a clear 400", async () => {
    const path = pathOfBytes("/m", MAX_PATH_BYTES);
    if (storesAtLimit) {
      await mustPut(t, path, "at the limit", admin);
      expect((await readBytes(t, path, admin)).toString()).toBe("at the limit");
      return;
    }
    const res = await t.request("PUT", `/api/fs/upload?path=${encodeURIComponent(path)}`, {
      ...admin,
      rawBody: "x",
      headers: { "content-type": "application/octet-stream" },
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: "invalid_path" });
    expect(res.body.message).toMatch(/too long for this storage/);
  });

  it.each([
    ["one byte over", MAX_PATH_BYTES + 1],
    ["1,500 bytes", 1500],
  ])("refuses a path %s with a clear 400 on every route", async (_label, bytes) => {
    const path = pathOfBytes("/m", bytes);
    const answers = [
      await t.request("PUT", `/api/fs/upload?path=${encodeURIComponent(path)}`, {
        ...admin,
        rawBody: "x",
        headers: { "content-type": "application/octet-stream" },
      }),
      await t.request("POST", "/api/fs/mkdir", { ...admin, body: { path } }),
      await t.request("GET", `/api/fs/get?path=${encodeURIComponent(path)}`, admin),
      await list(t, path, admin),
    ];
    for (const res of answers) {
      expect(res.status, res.text).toBe(400);
      expect(res.body).toMatchObject({ code: 400, success: false, error: "invalid_path" });
      expect(res.body.message).toMatch(/longer than 1024 bytes/);
    }
    for (const res of [await dav("PUT", path, "x"), await dav("MKCOL", path), await dav("GET", path)]) {
      expect(res.status, res.text).toBe(400);
      expect(res.text).toMatch(/longer than 1024 bytes/);
    }
  });
});
