import { randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Permission } from "@clipshare/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppContext, createContext } from "../../src/context";
import { nowIso } from "../../src/db/database";
import { createApp } from "../../src/http/app";
import { createLogger } from "../../src/logger";
import { generatedStream, sha256Of } from "../../src/storage/contract-helpers";
import {
  type Auth,
  createLocalStorage,
  createMount,
  createS3Storage,
  mustPut,
  names,
  type StorageUnderTest,
  waitForTask,
} from "../support/fs-helpers";
import { taskRow } from "../support/rows";
import { describeS3 } from "../support/s3-env";
import { createTestApp, type TestApp } from "../support/test-app";

const MB = 1024 * 1024;
const BIG = 200 * MB;

/** Another instance of the same deployment: same database, same data dir. */
async function openInstance(t: TestApp): Promise<{ ctx: AppContext; app: ReturnType<typeof createApp> }> {
  const ctx = await createContext(t.config, { log: createLogger("silent") });
  return { ctx, app: createApp(ctx) };
}

async function writeGenerated(t: TestApp, configId: string, storagePath: string, size: number, seed: number) {
  const { driver } = await t.ctx.storageConfigs.driverById(configId);
  await driver.write(storagePath, generatedStream(size, seed), { size });
}

async function hashOf(t: TestApp, configId: string, storagePath: string) {
  const { driver } = await t.ctx.storageConfigs.driverById(configId);
  return sha256Of((await driver.read(storagePath)).body);
}

async function copyAsTask(t: TestApp, auth: Auth, sourcePath: string, targetPath: string) {
  const res = await t.request("POST", "/api/fs/batch-copy", {
    ...auth,
    body: { items: [{ sourcePath, targetPath }] },
  });
  expect(res.status, res.text).toBe(202);
  return res.body.data.taskId as string;
}

/** A large cross-storage copy: a task that reports progress and delivers identical bytes. */
function bigCopyCase(
  label: string,
  target: () => { t: TestApp; storage: StorageUnderTest; mountPath: string; source: StorageUnderTest },
) {
  it(`copies a 200 MB file ${label} as a task with progress, byte-identical`, {
    timeout: 300_000,
  }, async () => {
    const { t, storage, mountPath, source } = target();
    const admin = { token: await t.adminToken() };
    const taskId = await copyAsTask(t, admin, "/src/big/200mb.bin", `${mountPath}/copied-200mb.bin`);
    const { task, seen } = await waitForTask(t, taskId, admin, 280_000);
    expect(task).toMatchObject({
      type: "copy",
      status: "completed",
      total_items: 1,
      processed_items: 1,
      total_bytes: BIG,
      processed_bytes: BIG,
      progress: 100,
    });
    expect(seen.some((s) => s.status === "running")).toBe(true);
    const bytes = seen.map((s) => s.processed_bytes as number);
    expect(bytes).toEqual([...bytes].sort((a, b) => a - b));
    const [from, to] = await Promise.all([
      hashOf(t, source.configId, "big/200mb.bin"),
      hashOf(t, storage.configId, "copied-200mb.bin"),
    ]);
    expect(to).toEqual(from);
    expect(to.bytes).toBe(BIG);
  });
}

describe("tasks", () => {
  let t: TestApp;
  let admin: Auth;
  let src: StorageUnderTest;
  let dst: StorageUnderTest;

  beforeAll(async () => {
    t = await createTestApp();
    admin = { token: await t.adminToken() };
    src = await createLocalStorage(t, "task-src");
    dst = await createLocalStorage(t, "task-dst");
    await createMount(t, src, "/src");
    await createMount(t, dst, "/dst");
    await writeGenerated(t, src.configId, "big/200mb.bin", BIG, 7);
  }, 120_000);
  afterAll(async () => t.close());

  bigCopyCase("between two LOCAL storages", () => ({ t, storage: dst, mountPath: "/dst", source: src }));

  it("a cancelled copy stops and leaves no partial file", async () => {
    const taskId = await copyAsTask(t, admin, "/src/big/200mb.bin", "/dst/cancelled.bin");
    const cancel = await t.request("POST", `/api/fs/tasks/${taskId}/cancel`, admin);
    expect(cancel.status).toBe(200);
    const { task } = await waitForTask(t, taskId, admin);
    expect(task.status).toBe("cancelled");
    expect(await names(t, "/dst", admin)).not.toContain("cancelled.bin");
    const again = await t.request("POST", `/api/fs/tasks/${taskId}/cancel`, admin);
    expect(again.status).toBe(409);
  });

  it("owners see and manage their own tasks; the admin sees all", async () => {
    const perms = Permission.MOUNT_VIEW | Permission.MOUNT_COPY;
    const a = await t.createApiKey(perms, { basic_path: "/" });
    const b = await t.createApiKey(perms, { basic_path: "/" });
    await mustPut(t, "/src/small.txt", "small", admin);
    const taskId = await copyAsTask(t, { apiKey: a.key }, "/src/small.txt", `/dst/small-${randomUUID()}.txt`);
    const { task } = await waitForTask(t, taskId, { apiKey: a.key });
    expect(task).toMatchObject({ status: "completed", created_by: `apikey:${a.id}` });
    const mine = await t.request("GET", "/api/fs/tasks", { apiKey: a.key });
    expect(mine.body.data.tasks.map((x: { id: string }) => x.id)).toContain(taskId);
    const theirs = await t.request("GET", "/api/fs/tasks", { apiKey: b.key });
    expect(theirs.body.data.tasks.map((x: { id: string }) => x.id)).not.toContain(taskId);
    expect((await t.request("GET", `/api/fs/tasks/${taskId}`, { apiKey: b.key })).status).toBe(404);
    expect((await t.request("DELETE", `/api/fs/tasks/${taskId}`, { apiKey: b.key })).status).toBe(404);
    const all = await t.request("GET", "/api/fs/tasks?status=completed&limit=200", admin);
    expect(all.body.data.tasks.map((x: { id: string }) => x.id)).toContain(taskId);
    expect((await t.request("DELETE", `/api/fs/tasks/${taskId}`, { apiKey: a.key })).status).toBe(200);
    expect((await t.request("GET", `/api/fs/tasks/${taskId}`, { apiKey: a.key })).status).toBe(404);
    const noMount = await t.createApiKey(Permission.TEXT);
    expect((await t.request("GET", "/api/fs/tasks", { apiKey: noMount.key })).status).toBe(403);
  });

  it("a large directory delete runs as a task", async () => {
    const dir = path.join(t.dataDir, "task-src", "many");
    mkdirSync(dir, { recursive: true });
    for (let i = 0; i < 500; i++) writeFileSync(path.join(dir, `f${i}.txt`), "x");
    await mustPut(t, "/src/lone.txt", "x", admin);
    const res = await t.request("DELETE", "/api/fs/batch-remove", {
      ...admin,
      body: { paths: ["/src/many/", "/src/lone.txt"] },
    });
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ success: 1, queued: 1 });
    const { task } = await waitForTask(t, res.body.data.taskId, admin);
    expect(task).toMatchObject({ type: "delete", status: "completed", processed_items: 1 });
    expect(await names(t, "/src", admin)).not.toContain("many");
  });

  describe("across restarts and instances", () => {
    const instances: Array<{ ctx: AppContext }> = [];
    const open = async () => {
      const instance = await openInstance(t);
      instances.push(instance);
      return instance;
    };
    beforeAll(async () => {
      // The suite's own instance stops running tasks; the instances opened below do the work.
      await t.ctx.fs.runner.stop();
    });
    afterAll(async () => {
      for (const i of instances) await i.ctx.close();
    });

    const row = (id: string) =>
      t.ctx.db.selectFrom("tasks").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

    it("a graceful stop hands a running copy back to the queue; the next start finishes it", {
      timeout: 300_000,
    }, async () => {
      const a = await open();
      const res = await a.app.request("/api/fs/batch-copy", {
        method: "POST",
        headers: { authorization: `Bearer ${admin.token}`, "content-type": "application/json" },
        body: JSON.stringify({
          items: [{ sourcePath: "/src/big/200mb.bin", targetPath: "/dst/restarted.bin" }],
        }),
      });
      const taskId = ((await res.json()) as { data: { taskId: string } }).data.taskId;
      const deadline = Date.now() + 30_000;
      while ((await row(taskId)).status !== "running" && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      await a.ctx.close();
      instances.splice(instances.indexOf(a), 1);
      const paused = await row(taskId);
      expect(paused).toMatchObject({ status: "pending", claimed_by: null, attempts: 1 });
      expect(paused.notice).toContain("Paused");
      expect(await names(t, "/dst", admin)).not.toContain("restarted.bin");

      await open();
      const { task } = await waitForTask(t, taskId, admin, 280_000);
      expect(task).toMatchObject({ status: "completed", attempts: 2, processed_bytes: BIG });
      expect(await hashOf(t, dst.configId, "restarted.bin")).toEqual(
        await hashOf(t, src.configId, "big/200mb.bin"),
      );
    });

    it("after a crash, a running copy is resumed and a running upload is failed, both visibly", async () => {
      for (const i of instances.splice(0)) await i.ctx.close();
      await mustPut(t, "/src/crash.txt", "survives", admin);
      const adminId = (await t.ctx.db.selectFrom("users").select("id").executeTakeFirstOrThrow()).id;
      const longAgo = nowIso(new Date(Date.now() - 10 * 60_000));
      const stale = (type: string, payload: unknown) =>
        taskRow(type, adminId, {
          status: "running",
          payload: JSON.stringify(payload),
          claimed_by: "crashed-instance",
          claimed_at: longAgo,
          attempts: 1,
          created_at: longAgo,
          updated_at: longAgo,
          started_at: longAgo,
        });
      const copy = stale("copy", {
        items: [{ sourcePath: "/src/crash.txt", targetPath: "/dst/crash.txt" }],
        skipExisting: true,
      });
      const upload = stale("upload", { path: "/dst/upload.bin", size: 100 * MB });
      await t.ctx.db.insertInto("tasks").values([copy, upload]).execute();

      await open();
      const { task: resumed } = await waitForTask(t, copy.id, admin);
      expect(resumed).toMatchObject({ status: "completed", attempts: 2 });
      expect(resumed.notice).toContain("resumed");
      const { task: failed } = await waitForTask(t, upload.id, admin);
      expect(failed).toMatchObject({
        status: "failed",
        error: "Interrupted by a server restart before it finished",
      });
      expect(failed.notice).toContain("cannot be resumed");
      expect((await t.request("GET", "/api/fs/download?path=/dst/crash.txt", admin)).text).toBe("survives");
    });

    it("two instances never run the same task twice", { timeout: 60_000 }, async () => {
      for (const i of instances.splice(0)) await i.ctx.close();
      const [a, b] = [await open(), await open()];
      const runs = new Map<string, string[]>();
      for (const [name, instance] of [
        ["a", a],
        ["b", b],
      ] as const) {
        instance.ctx.fs.runner.register("noop", async (run) => {
          runs.set(run.task.id, [...(runs.get(run.task.id) ?? []), name]);
          await new Promise((r) => setTimeout(r, 5));
          return { status: "completed" };
        });
      }
      const adminId = (await t.ctx.db.selectFrom("users").select("id").executeTakeFirstOrThrow()).id;
      const principal = { kind: "admin" as const, adminId, username: "admin" };
      const ids: string[] = [];
      for (let i = 0; i < 40; i++) ids.push((await t.ctx.fs.tasks.create(principal, "noop" as never, {})).id);
      a.ctx.fs.runner.wake();
      b.ctx.fs.runner.wake();
      const deadline = Date.now() + 50_000;
      for (;;) {
        const done = await t.ctx.db
          .selectFrom("tasks")
          .select("status")
          .where("id", "in", ids)
          .where("status", "=", "completed")
          .execute();
        if (done.length === ids.length || Date.now() > deadline) break;
        a.ctx.fs.runner.wake();
        b.ctx.fs.runner.wake();
        await new Promise((r) => setTimeout(r, 50));
      }
      const rows = await t.ctx.db.selectFrom("tasks").selectAll().where("id", "in", ids).execute();
      expect(rows.every((r) => r.status === "completed" && r.attempts === 1)).toBe(true);
      expect(ids.every((id) => runs.get(id)?.length === 1)).toBe(true);
      const byA = ids.filter((id) => runs.get(id)?.[0] === "a").length;
      expect(byA).toBeGreaterThan(0);
      expect(byA).toBeLessThan(ids.length);
    });
  });
});

describeS3("tasks on S3 (Swift)", (s3) => {
  let t: TestApp;
  let src: StorageUnderTest;
  let s3Storage: StorageUnderTest;
  beforeAll(async () => {
    t = await createTestApp();
    src = await createLocalStorage(t, "task-src");
    s3Storage = await createS3Storage(t, s3, "tasks");
    await createMount(t, src, "/src");
    await createMount(t, s3Storage, "/s3");
    await writeGenerated(t, src.configId, "big/200mb.bin", BIG, 11);
  }, 120_000);
  afterAll(async () => {
    await s3Storage?.cleanup();
    await t?.close();
  });

  bigCopyCase("from LOCAL to S3", () => ({ t, storage: s3Storage, mountPath: "/s3", source: src }));
});
