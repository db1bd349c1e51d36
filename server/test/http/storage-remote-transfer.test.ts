/**
 * Remote → remote transfers through the explorer's API: a folder copied from
 * WebDAV to SFTP runs as a task with growing progress and arrives
 * byte-identical; a move from SFTP to FTP is what ClipShare offers between
 * storages (a rename across them is refused with a clear 400): a copy task,
 * then deleting the source.
 */
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { generatedStream } from "../../src/storage/contract-helpers";
import {
  type Auth,
  createMount,
  createRemoteStorage,
  mustPut,
  names,
  readBytes,
  type StorageUnderTest,
  waitForTask,
} from "../support/fs-helpers";
import { describeRemotes } from "../support/remote-env";
import { createTestApp, type TestApp } from "../support/test-app";

const MiB = 1024 * 1024;

async function bytesOf(size: number, seed: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of generatedStream(size, seed)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A folder with a sub-folder; big.bin takes long enough that progress is seen between start and end. */
const TREE: Record<string, [size: number, seed: number]> = {
  "big.bin": [32 * MiB, 1],
  "sub/note.txt": [37, 2],
  "sub/data.bin": [MiB + 5, 3],
};

describeRemotes(["WEBDAV", "SFTP", "FTP"], "remote → remote transfers", ([webdav, sftp, ftp]) => {
  let t: TestApp;
  let admin: Auth;
  const storages: StorageUnderTest[] = [];
  const content = new Map<string, Buffer>();

  beforeAll(async () => {
    // Progress is written on every step, so a copy faster than the usual half-second throttle still shows it.
    t = await createTestApp({}, { taskRunner: { progressMs: 0 } });
    admin = { token: await t.adminToken() };
    for (const [server, mount] of [
      [webdav!, "/wd"],
      [sftp!, "/sftp"],
      [ftp!, "/ftp"],
    ] as const) {
      const storage = await createRemoteStorage(t, server, "transfer");
      storages.push(storage);
      await createMount(t, storage, mount);
    }
    for (const [file, [size, seed]] of Object.entries(TREE)) {
      const bytes = await bytesOf(size, seed);
      content.set(file, bytes);
      await mustPut(t, `/wd/tree/${file}`, bytes, admin);
    }
  }, 60_000);

  afterAll(async () => {
    for (const storage of storages) await storage.cleanup();
    await t?.close();
  });

  async function copyTask(sourcePath: string, targetPath: string) {
    const res = await t.request("POST", "/api/fs/batch-copy", {
      ...admin,
      body: { items: [{ sourcePath, targetPath }] },
    });
    expect(res.status, res.text).toBe(202);
    expect(res.body.data).toMatchObject({ queued: 1, crossStorage: true });
    return waitForTask(t, res.body.data.taskId as string, admin, 50_000);
  }

  async function expectTree(root: string) {
    expect(await names(t, root, admin)).toEqual(["big.bin", "sub"]);
    expect(await names(t, `${root}/sub`, admin)).toEqual(["data.bin", "note.txt"]);
    for (const [file, bytes] of content) {
      const got = await readBytes(t, `${root}/${file}`, admin);
      expect(got.equals(bytes), `${root}/${file} differs`).toBe(true);
    }
  }

  const treeBytes = Object.values(TREE).reduce((n, [size]) => n + size, 0);

  it("copies a folder from WebDAV to SFTP as a task with progress, byte-identical", {
    timeout: 60_000,
  }, async () => {
    // What each progress write recorded, copied when written (the runner passes one object it keeps updating).
    const recorded: number[] = [];
    const write = t.ctx.fs.tasks.progress.bind(t.ctx.fs.tasks);
    const written = vi.spyOn(t.ctx.fs.tasks, "progress").mockImplementation((id, patch) => {
      recorded.push(patch.processed_bytes ?? 0);
      return write(id, patch);
    });
    const { task, seen } = await copyTask("/wd/tree/", "/sftp/tree/");
    written.mockRestore();
    expect(task).toMatchObject({
      type: "copy",
      status: "completed",
      total_items: 3,
      processed_items: 3,
      total_bytes: treeBytes,
      processed_bytes: treeBytes,
      progress: 100,
    });
    const bytes = seen.map((s) => s.processed_bytes as number);
    expect(bytes).toEqual([...bytes].sort((a, b) => a - b));
    // Progress was recorded between the start and the end, not only as a final figure.
    expect(recorded.some((b) => b > 0 && b < treeBytes)).toBe(true);
    await expectTree("/sftp/tree");
    await expectTree("/wd/tree");
  });

  it("moves a folder from SFTP to FTP: rename across storages is refused, copy then delete", {
    timeout: 60_000,
  }, async () => {
    const rename = await t.request("POST", "/api/fs/rename", {
      ...admin,
      body: { oldPath: "/sftp/tree", newPath: "/ftp/tree" },
    });
    expect(rename.status, rename.text).toBe(400);
    expect(rename.body).toMatchObject({ success: false, error: "cross_storage" });

    const { task } = await copyTask("/sftp/tree/", "/ftp/tree/");
    expect(task).toMatchObject({ status: "completed", processed_items: 3, processed_bytes: treeBytes });
    const removed = await t.request("DELETE", "/api/fs/batch-remove", {
      ...admin,
      body: { paths: ["/sftp/tree"] },
    });
    expect(removed.status, removed.text).toBeLessThan(300);
    if (removed.body.data.taskId) await waitForTask(t, removed.body.data.taskId as string, admin);
    expect(await names(t, "/sftp", admin)).not.toContain("tree");
    await expectTree("/ftp/tree");
  });
});
