/**
 * Looking inside archives in the explorer: GET /api/fs/archive lists a ZIP, TAR or TAR.GZ
 * without unpacking it, GET /api/fs/archive/entry streams one entry out. Archives are
 * untrusted: entry names that leave their folder are listed as unsafe and never served,
 * zip bombs are refused before inflating, and the caller's rights on the archive file
 * (base path) apply to everything inside it.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Permission } from "@clipshare/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Auth, createLocalStorage, createMount } from "../support/fs-helpers";
import { createTestApp, type TestApp } from "../support/test-app";
import { buildZip } from "../support/zip-builder";

let t: TestApp;
let admin: Auth;
let root: string;

const README = "Read me first.\n".repeat(50);
const PHOTO = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7) % 256));

const listing = (file: string, auth: Auth = admin) =>
  t.request("GET", `/api/fs/archive?path=${encodeURIComponent(file)}`, auth);

const entry = (file: string, name: string, auth: Auth = admin, extra = "") =>
  t.app.request(
    `/api/fs/archive/entry?path=${encodeURIComponent(file)}&entry=${encodeURIComponent(name)}${extra}`,
    {
      headers: { authorization: auth.token ? `Bearer ${auth.token}` : `ApiKey ${auth.apiKey}` },
    },
  );

beforeAll(async () => {
  t = await createTestApp();
  admin = { token: await t.adminToken() };
  await createMount(t, await createLocalStorage(t, "archives"), "/arc");
  root = path.join(t.dataDir, "archives");
  // Real archives, made by the system's zip and tar.
  const src = path.join(t.dataDir, "archive-src");
  mkdirSync(path.join(src, "docs", "deep"), { recursive: true });
  writeFileSync(path.join(src, "docs", "readme.txt"), README);
  writeFileSync(path.join(src, "docs", "deep", "photo.bin"), PHOTO);
  mkdirSync(path.join(root, "team"), { recursive: true });
  execFileSync("zip", ["-qr", path.join(root, "bundle.zip"), "docs"], { cwd: src });
  execFileSync("tar", ["-cf", path.join(root, "bundle.tar"), "docs"], { cwd: src });
  execFileSync("tar", ["-czf", path.join(root, "team", "bundle.tar.gz"), "docs"], { cwd: src });
  writeFileSync(path.join(root, "notes.txt"), "not an archive");
  writeFileSync(path.join(root, "broken.zip"), "PK\u0003\u0004 this is not really a zip");
});

afterAll(async () => {
  await t.close();
});

describe("listing an archive", () => {
  it.each([
    ["/arc/bundle.zip", "zip"],
    ["/arc/bundle.tar", "tar"],
    ["/arc/team/bundle.tar.gz", "tar.gz"],
  ])("%s lists its files with sizes", async (file, kind) => {
    const res = await listing(file);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.kind).toBe(kind);
    expect(res.body.data.truncated).toBe(false);
    const files = res.body.data.entries.filter((e: { is_directory: boolean }) => !e.is_directory);
    expect(files.map((e: { path: string }) => e.path).sort()).toEqual([
      "docs/deep/photo.bin",
      "docs/readme.txt",
    ]);
    const readme = files.find((e: { path: string }) => e.path === "docs/readme.txt");
    expect(readme).toMatchObject({ size: README.length, unsafe: false, encrypted: false });
    expect(res.body.data.total_size).toBe(README.length + PHOTO.length);
  });

  it("a file that is not an archive, or a damaged one, gets a clear 4xx", async () => {
    const plain = await listing("/arc/notes.txt");
    expect(plain.status).toBe(400);
    expect(plain.body.error).toBe("not_an_archive");
    const broken = await listing("/arc/broken.zip");
    expect(broken.status).toBe(422);
    expect(broken.body.error).toBe("archive_unreadable");
  });
});

describe("one entry", () => {
  it.each(["/arc/bundle.zip", "/arc/bundle.tar", "/arc/team/bundle.tar.gz"])(
    "%s serves an entry byte for byte",
    async (file) => {
      const photo = await entry(file, "docs/deep/photo.bin");
      expect(photo.status).toBe(200);
      expect(Buffer.from(await photo.arrayBuffer()).equals(PHOTO)).toBe(true);
      const text = await entry(file, "docs/readme.txt");
      expect(text.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(text.headers.get("content-disposition")).toMatch(/^inline/);
      expect(await text.text()).toBe(README);
      const missing = await entry(file, "docs/nope.txt");
      expect(missing.status).toBe(404);
    },
  );

  it("an HTML entry is never served as a page on our origin", async () => {
    writeFileSync(
      path.join(root, "page.zip"),
      buildZip([{ name: "index.html", data: Buffer.from("<script>alert(1)</script>") }]),
    );
    const res = await entry("/arc/page.zip", "index.html");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(/^attachment/);
    expect(res.headers.get("content-security-policy")).toContain("sandbox");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });
});

describe("untrusted archives", () => {
  it("names that would leave the folder are listed as unsafe and never served", async () => {
    const names = [
      "../escape.txt",
      "/etc/passwd-copy",
      "a/../../up.txt",
      "C:/win.txt",
      "back\\slash.txt",
      "fine/ok.txt",
    ];
    writeFileSync(
      path.join(root, "tricks.zip"),
      buildZip(names.map((name) => ({ name, data: Buffer.from(name) }))),
    );
    const res = await listing("/arc/tricks.zip");
    expect(res.status, res.text).toBe(200);
    const unsafe = Object.fromEntries(
      res.body.data.entries.map((e: { path: string; unsafe: boolean }) => [e.path, e.unsafe]),
    );
    expect(unsafe).toEqual({
      "../escape.txt": true,
      "/etc/passwd-copy": true,
      "a/../../up.txt": true,
      "C:/win.txt": true,
      "back\\slash.txt": true,
      "fine/ok.txt": false,
    });
    for (const name of names.slice(0, 5)) expect((await entry("/arc/tricks.zip", name)).status).toBe(400);
    expect(await (await entry("/arc/tricks.zip", "fine/ok.txt")).text()).toBe("fine/ok.txt");
  });

  it("a zip bomb is refused in under a second, before anything is inflated", async () => {
    const zeros = Buffer.alloc(20 * 1024 * 1024);
    writeFileSync(
      path.join(root, "bomb.zip"),
      buildZip([
        // Declares 10 GB: over the entry limit.
        { name: "huge.bin", data: zeros, declaredSize: 10 * 1024 ** 3 },
        // Nested archives are only entries: nothing opens them.
        { name: "inner.zip", data: buildZip([{ name: "deeper.zip", data: zeros }]) },
      ]),
    );
    const started = performance.now();
    const res = await entry("/arc/bomb.zip", "huge.bin");
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: string }).error).toBe("archive_entry_refused");
    expect(performance.now() - started).toBeLessThan(1000);
    const list = await listing("/arc/bomb.zip");
    expect(list.body.data.entries.map((e: { path: string }) => e.path)).toEqual(["huge.bin", "inner.zip"]);
  });

  it("an entry inflating far beyond its stored size is refused", async () => {
    // 64 MiB of zeros deflate to about 64 KiB: a ratio near 1000.
    writeFileSync(
      path.join(root, "ratio.zip"),
      buildZip([{ name: "zeros.bin", data: Buffer.alloc(64 * 1024 * 1024 + 1) }]),
    );
    const stat = readFileSync(path.join(root, "ratio.zip")).length;
    expect(stat).toBeLessThan(100 * 1024);
    const res = await entry("/arc/ratio.zip", "zeros.bin");
    expect(res.status).toBe(422);
  });

  it("an entry that inflates to more than it declares is cut off, not served whole", async () => {
    writeFileSync(
      path.join(root, "liar.zip"),
      buildZip([{ name: "small.txt", data: Buffer.alloc(1024 * 1024, 65), declaredSize: 1000 }]),
    );
    const res = await entry("/arc/liar.zip", "small.txt");
    let received = 0;
    try {
      received = (await res.arrayBuffer()).byteLength;
    } catch {
      received = -1;
    }
    expect(received).toBeLessThanOrEqual(1000);
  });
});

describe("rights", () => {
  it("a key confined to a folder opens archives inside it and none outside", async () => {
    const created = await t.request("POST", "/api/admin/api-keys", {
      ...admin,
      body: { name: "team-only", permissions: Permission.MOUNT_VIEW, basic_path: "/arc/team" },
    });
    expect(created.status, created.text).toBe(201);
    const key: Auth = { apiKey: created.body.data.key };
    expect((await listing("/arc/team/bundle.tar.gz", key)).status).toBe(200);
    expect((await listing("/arc/bundle.zip", key)).status).toBe(403);
    expect((await entry("/arc/bundle.zip", "docs/readme.txt", key)).status).toBe(403);
    expect((await listing("/arc/team/../bundle.zip", key)).status).not.toBe(200);
    const anonymous = await t.request("GET", `/api/fs/archive?path=${encodeURIComponent("/arc/bundle.zip")}`);
    expect(anonymous.status).toBe(401);
  });
});
