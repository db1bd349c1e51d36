import * as fs from "node:fs/promises";
import { tmpdir } from "node:os";
import * as nodePath from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bufferStream, readAll, streamedOnly } from "../contract-helpers";
import { describeStorageDriver } from "../driver.contract";
import { LOCAL_TEMP_DIR, LocalDriver } from "./local";

async function tempLitter(root: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string) => {
    for (const e of await fs.readdir(dir, { withFileTypes: true })) {
      const full = nodePath.join(dir, e.name);
      found.push(nodePath.relative(root, full));
      if (e.isDirectory()) await walk(full);
    }
  };
  await walk(nodePath.join(root, LOCAL_TEMP_DIR));
  return found;
}

describeStorageDriver(
  "LOCAL",
  async () => {
    const root = await fs.mkdtemp(nodePath.join(tmpdir(), "clipshare-local-"));
    return {
      driver: new LocalDriver({ root }),
      litter: () => tempLitter(root),
      cleanup: () => fs.rm(root, { recursive: true, force: true }),
    };
  },
  streamedOnly,
);

describe("LOCAL driver confinement", () => {
  let base: string;
  let root: string;
  let outside: string;
  let driver: LocalDriver;

  beforeAll(async () => {
    base = await fs.mkdtemp(nodePath.join(tmpdir(), "clipshare-confine-"));
    root = nodePath.join(base, "root");
    outside = nodePath.join(base, "outside");
    await fs.mkdir(outside, { recursive: true });
    await fs.writeFile(nodePath.join(outside, "secret.txt"), "secret");
    driver = new LocalDriver({ root });
    await driver.mkdir("inside");
    await fs.writeFile(nodePath.join(root, "inside", "real.txt"), "real");
    await fs.symlink(outside, nodePath.join(root, "escape-dir"));
    await fs.symlink(nodePath.join(outside, "secret.txt"), nodePath.join(root, "escape-file"));
    await fs.symlink(nodePath.join(outside, "not-yet"), nodePath.join(root, "dangling"));
    await fs.symlink(nodePath.join(root, "inside"), nodePath.join(root, "link-dir"));
    await fs.symlink("inside/real.txt", nodePath.join(root, "link-file"));
  });
  afterAll(() => fs.rm(base, { recursive: true, force: true }));

  it("creates its root and hidden temp dir, and never lists the temp dir", async () => {
    expect((await fs.stat(nodePath.join(root, LOCAL_TEMP_DIR))).isDirectory()).toBe(true);
    const names = (await driver.list("")).entries.map((e) => e.name);
    expect(names).not.toContain(LOCAL_TEMP_DIR);
    expect(names).toContain("inside");
  });

  it("refuses to address the temp dir", async () => {
    for (const p of [LOCAL_TEMP_DIR, `${LOCAL_TEMP_DIR}/x`, `./${LOCAL_TEMP_DIR}/x`]) {
      await expect(driver.stat(p), p).rejects.toMatchObject({ status: 400, error: "invalid_path" });
      await expect(driver.write(p, bufferStream("x")), p).rejects.toMatchObject({ status: 400 });
    }
  });

  it("refuses traversal, absolute paths and NUL", async () => {
    for (const p of [
      "..",
      "../outside/secret.txt",
      "inside/../../outside/secret.txt",
      `${outside}/secret.txt`,
      "a\0b",
    ]) {
      await expect(driver.read(p), p).rejects.toMatchObject({ status: 400, error: "invalid_path" });
    }
  });

  it("refuses symlinks that leave the root, for reads and writes", async () => {
    const refused = { status: 403, error: "path_outside_root" };
    await expect(driver.read("escape-file")).rejects.toMatchObject(refused);
    await expect(driver.read("escape-dir/secret.txt")).rejects.toMatchObject(refused);
    await expect(driver.list("escape-dir")).rejects.toMatchObject(refused);
    await expect(driver.stat("escape-dir")).rejects.toMatchObject(refused);
    await expect(driver.write("escape-dir/planted.txt", bufferStream("x"))).rejects.toMatchObject(refused);
    await expect(driver.mkdir("escape-dir/newdir")).rejects.toMatchObject(refused);
    await expect(driver.write("dangling/x.txt", bufferStream("x"))).rejects.toMatchObject(refused);
    await expect(driver.copy("escape-file", "stolen.txt")).rejects.toMatchObject(refused);
    await expect(fs.stat(nodePath.join(outside, "planted.txt"))).rejects.toThrow();
    await expect(fs.stat(nodePath.join(outside, "not-yet"))).rejects.toThrow();
  });

  it("hides escaping and dangling links from listings", async () => {
    const names = (await driver.list("")).entries.map((e) => e.name);
    expect(names).not.toContain("escape-dir");
    expect(names).not.toContain("escape-file");
    expect(names).not.toContain("dangling");
  });

  it("follows symlinks that stay inside the root", async () => {
    expect((await readAll((await driver.read("link-file")).body)).toString()).toBe("real");
    expect((await driver.list("link-dir")).entries.map((e) => e.name)).toEqual(["real.txt"]);
    await driver.write("link-dir/via-link.txt", bufferStream("via"));
    expect(await fs.readFile(nodePath.join(root, "inside", "via-link.txt"), "utf8")).toBe("via");
    expect(await driver.stat("link-dir")).toMatchObject({ isDirectory: true });
  });

  it("confinedTo(dir) bounds paths by the real location of dir, marks links in listings", async () => {
    await fs.mkdir(nodePath.join(root, "base", "own"), { recursive: true });
    await fs.symlink("../inside", nodePath.join(root, "base", "to-sibling"));
    await fs.symlink("own", nodePath.join(root, "base", "to-own"));
    const confined = driver.confinedTo("base");
    const refused = { status: 403, error: "path_outside_root" };
    await expect(confined.read("base/to-sibling/real.txt")).rejects.toMatchObject(refused);
    await expect(confined.write("base/to-sibling/x.txt", bufferStream("x"))).rejects.toMatchObject(refused);
    await expect(confined.stat("inside/real.txt")).rejects.toMatchObject(refused);
    const listed = (await confined.list("base")).entries;
    expect(listed.map((e) => [e.name, e.isLink ?? false])).toEqual([
      ["own", false],
      ["to-own", true],
    ]);
    await confined.write("base/to-own/ok.txt", bufferStream("ok"));
    expect(await fs.readFile(nodePath.join(root, "base", "own", "ok.txt"), "utf8")).toBe("ok");
    // Not yet existing directories below the boundary are fine.
    await confined.write("base/new/deeper.txt", bufferStream("d"));
    expect((await driver.list("base")).entries.map((e) => e.name)).toContain("to-sibling");
  });

  it("removes and renames a link itself, never its target", async () => {
    await fs.symlink(nodePath.join(outside, "secret.txt"), nodePath.join(root, "to-remove"));
    await driver.remove("to-remove");
    expect(await fs.readFile(nodePath.join(outside, "secret.txt"), "utf8")).toBe("secret");
    await fs.symlink(outside, nodePath.join(root, "to-remove-dir"));
    await driver.remove("to-remove-dir", { recursive: true });
    expect(await fs.readFile(nodePath.join(outside, "secret.txt"), "utf8")).toBe("secret");
  });

  it("reads a directory as a conflict and writes over a directory as a conflict", async () => {
    await expect(driver.read("inside")).rejects.toMatchObject({ status: 409, error: "is_a_directory" });
    await expect(driver.write("inside", bufferStream("x"))).rejects.toMatchObject({ status: 409 });
    await expect(driver.write("inside/real.txt/child", bufferStream("x"))).rejects.toMatchObject({
      status: 409,
    });
  });

  it("rejects foreign or malformed multipart upload ids", async () => {
    const id = await driver.initMultipart("inside/mp.bin");
    await expect(driver.uploadPart("inside/other.bin", id, 1, bufferStream("x"))).rejects.toMatchObject({
      status: 404,
    });
    await expect(driver.uploadPart("inside/mp.bin", "../../etc", 1, bufferStream("x"))).rejects.toMatchObject(
      {
        status: 404,
      },
    );
    await expect(driver.uploadPart("inside/mp.bin", id, 0, bufferStream("x"))).rejects.toMatchObject({
      status: 400,
    });
    await driver.abortMultipart("inside/mp.bin", id);
  });

  it("sweeps stale temp data: single writes by idle time, multipart uploads by their own age", async () => {
    const id = await driver.initMultipart("inside/stale.bin");
    const stray = nodePath.join(root, LOCAL_TEMP_DIR, "w-00000000-0000-4000-8000-000000000000");
    await fs.writeFile(stray, "half an upload");
    const ages = { idleWriteMs: 60_000, multipartMs: 7_200_000 };
    expect(await driver.sweepAbandoned(ages)).toEqual({ tempFiles: 0, multipartUploads: 0 });
    const old = new Date(Date.now() - 3_600_000);
    await fs.utimes(nodePath.join(root, LOCAL_TEMP_DIR, `mp-${id}`), old, old);
    await fs.utimes(stray, old, old);
    expect(await driver.sweepAbandoned(ages)).toEqual({ tempFiles: 1, multipartUploads: 0 });
    expect(await driver.sweepAbandoned({ ...ages, multipartMs: 60_000 })).toEqual({
      tempFiles: 0,
      multipartUploads: 1,
    });
    await expect(driver.abortMultipart("inside/stale.bin", id)).rejects.toMatchObject({ status: 404 });
    const missing = new LocalDriver({ root: nodePath.join(base, "never-created") });
    expect(await missing.sweepAbandoned(ages)).toEqual({ tempFiles: 0, multipartUploads: 0 });
    await expect(fs.stat(nodePath.join(base, "never-created"))).rejects.toThrow();
  });
});

describe("LOCAL multipart with a part size given at init (parts written in place)", () => {
  let root: string;
  let driver: LocalDriver;
  const part = (n: number, size = 4) => Buffer.alloc(size, 0x60 + n);

  beforeAll(async () => {
    root = await fs.mkdtemp(nodePath.join(tmpdir(), "clipshare-local-inplace-"));
    driver = new LocalDriver({ root });
  });
  afterAll(() => fs.rm(root, { recursive: true, force: true }));

  it("takes parts in any order and retried, lists them, and completes by renaming: no copy", async () => {
    const id = await driver.initMultipart("inplace/a.bin", { partSize: 4 });
    const p3 = await driver.uploadPart("inplace/a.bin", id, 3, bufferStream(part(3, 2)), 2);
    const p1 = await driver.uploadPart("inplace/a.bin", id, 1, bufferStream(part(9)), 4);
    const p1again = await driver.uploadPart("inplace/a.bin", id, 1, bufferStream(part(1)), 4);
    const p2 = await driver.uploadPart("inplace/a.bin", id, 2, bufferStream(part(2)), 4);
    expect(p1again.etag).not.toBe(p1.etag);
    expect(await driver.listParts("inplace/a.bin", id)).toEqual([
      { partNumber: 1, etag: p1again.etag, size: 4 },
      { partNumber: 2, etag: p2.etag, size: 4 },
      { partNumber: 3, etag: p3.etag, size: 2 },
    ]);
    const data = nodePath.join(root, LOCAL_TEMP_DIR, `mp-${id}`, "data");
    const inode = (await fs.stat(data)).ino;
    const done = await driver.completeMultipart("inplace/a.bin", id, [
      { partNumber: 2, etag: p2.etag },
      { partNumber: 1, etag: p1again.etag },
      { partNumber: 3, etag: p3.etag },
    ]);
    expect(done.size).toBe(10);
    const target = nodePath.join(root, "inplace/a.bin");
    expect(await fs.readFile(target)).toEqual(Buffer.concat([part(1), part(2), part(3, 2)]));
    // The file the parts were written into is the file: assembling copied nothing.
    expect((await fs.stat(target)).ino).toBe(inode);
    expect(await tempLitter(root)).toEqual([]);
  });

  it("refuses a short part before the last, a gap, a wrong ETag and a part over the part size", async () => {
    const id = await driver.initMultipart("inplace/b.bin", { partSize: 4 });
    await expect(
      driver.uploadPart("inplace/b.bin", id, 1, bufferStream(part(1, 5)), 5),
    ).rejects.toMatchObject({
      error: "invalid_part",
    });
    const p1 = await driver.uploadPart("inplace/b.bin", id, 1, bufferStream(part(1, 3)), 3);
    const p2 = await driver.uploadPart("inplace/b.bin", id, 2, bufferStream(part(2)), 4);
    const p3 = await driver.uploadPart("inplace/b.bin", id, 3, bufferStream(part(3)), 4);
    const complete = (parts: Array<{ partNumber: number; etag: string }>) =>
      driver.completeMultipart("inplace/b.bin", id, parts);
    await expect(
      complete([
        { partNumber: 1, etag: p1.etag },
        { partNumber: 2, etag: p2.etag },
      ]),
    ).rejects.toMatchObject({
      error: "invalid_part",
    });
    await expect(
      complete([
        { partNumber: 2, etag: p2.etag },
        { partNumber: 3, etag: p3.etag },
      ]),
    ).rejects.toMatchObject({
      error: "invalid_part",
    });
    await expect(complete([{ partNumber: 1, etag: p2.etag }])).rejects.toMatchObject({
      error: "invalid_part",
    });
    // A failed complete leaves the upload open: fix the part and complete.
    const fixed = await driver.uploadPart("inplace/b.bin", id, 1, bufferStream(part(1)), 4);
    const done = await complete([
      { partNumber: 1, etag: fixed.etag },
      { partNumber: 2, etag: p2.etag },
    ]);
    expect(done.size).toBe(8);
    expect(await fs.readFile(nodePath.join(root, "inplace/b.bin"))).toEqual(
      Buffer.concat([part(1), part(2)]),
    );
  });
});
