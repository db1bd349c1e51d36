/**
 * "Fetch on the server": POST /api/url/fetch queues a download task that
 * streams a remote file (a real local HTTP server allowed by URL_FETCH_ALLOW)
 * into a new share or an explorer directory: success, permissions, cancel,
 * size limit and SSRF refusal.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { Permission } from "@clipshare/shared";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createLocalStorage, createMount, readBytes, waitForTask } from "../support/fs-helpers";
import { type RemoteFiles, sha, startAppWithRemoteFiles, storedShareBytes } from "../support/remote-files";
import type { TestApp } from "../support/test-app";

describe("URL fetch on the server", () => {
  let t: TestApp;
  let token: string;
  let remote: RemoteFiles;

  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ t, token, remote, close } = await startAppWithRemoteFiles());
  });
  afterEach(() => remote.endSlow());
  afterAll(() => close());

  const setMaxUpload = (max_upload_size: number, max_upload_size_unit: string) =>
    t.request("PUT", "/api/admin/system-settings", {
      token,
      body: { max_upload_size, max_upload_size_unit },
    });

  /** Every file under the default LOCAL storage, temp files included. */
  const storedFiles = () =>
    readdirSync(path.join(t.dataDir, "files"), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.join(e.parentPath, e.name))
      .sort();

  const fileRows = () => t.ctx.db.selectFrom("files").selectAll().execute();

  it("streams the remote file into a new share, byte-identical, with the password sealed in the task", async () => {
    const queued = await t.request("POST", "/api/url/fetch", {
      token,
      body: { url: `${remote.base}/files/report.bin`, password: "sekret-pw", remark: "fetched" },
    });
    expect(queued.status, queued.text).toBe(202);
    expect(queued.text).not.toContain("sekret-pw");
    const { task } = await waitForTask(t, queued.body.data.id, { token });
    expect(task).toMatchObject({
      status: "completed",
      type: "download",
      processed_bytes: remote.report.length,
      progress: 100,
    });
    const share = task.result as { id: string; slug: string; size: number; requires_password: boolean };
    expect(share.size).toBe(remote.report.length);
    const row = (await fileRows()).find((r) => r.id === share.id)!;
    expect(row).toMatchObject({ status: "active", filename: "报告.bin", remark: "fetched" });
    expect(row.password_hash).not.toBeNull();
    expect(sha(await storedShareBytes(t, row.id))).toBe(sha(remote.report));
    expect(JSON.stringify(await t.ctx.db.selectFrom("tasks").selectAll().execute())).not.toContain(
      "sekret-pw",
    );
  });

  it("writes into an explorer directory", async () => {
    const storage = await createLocalStorage(t);
    await createMount(t, storage, "/fetched");
    const queued = await t.request("POST", "/api/url/fetch", {
      token,
      body: { url: `${remote.base}/files/report.bin`, target_path: "/fetched", filename: "copy.bin" },
    });
    const { task } = await waitForTask(t, queued.body.data.id, { token });
    expect(task.status, JSON.stringify(task)).toBe("completed");
    expect(sha(await readBytes(t, "/fetched/copy.bin", { token }))).toBe(sha(remote.report));
  });

  it("checks the explorer permission and base path of the target when queueing", async () => {
    const shareOnly = await t.createApiKey(Permission.FILE_SHARE);
    const denied = await t.request("POST", "/api/url/fetch", {
      apiKey: shareOnly.key,
      body: { url: `${remote.base}/files/report.bin`, target_path: "/fetched" },
    });
    expect(denied.status).toBe(403);
    const confined = await t.createApiKey(Permission.FILE_SHARE | Permission.MOUNT_UPLOAD, {
      basic_path: "/fetched/inner",
    });
    const outside = await t.request("POST", "/api/url/fetch", {
      apiKey: confined.key,
      body: { url: `${remote.base}/files/report.bin`, target_path: "/fetched" },
    });
    expect(outside.status).toBe(403);
  });

  it("cancels a running download: no share row and no stored bytes remain", async () => {
    const before = (await fileRows()).length;
    const storedBefore = storedFiles();
    const queued = await t.request("POST", "/api/url/fetch", { token, body: { url: `${remote.base}/slow` } });
    const id = queued.body.data.id;
    // Wait until bytes flow, then cancel.
    for (let i = 0; i < 200; i++) {
      const cur = await t.request("GET", `/api/fs/tasks/${id}`, { token });
      if (cur.body.data.processed_bytes > 0) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    const cancel = await t.request("POST", `/api/fs/tasks/${id}/cancel`, { token });
    expect(cancel.status, cancel.text).toBe(200);
    const { task } = await waitForTask(t, id, { token }, 15_000);
    expect(task.status).toBe("cancelled");
    expect((await fileRows()).length).toBe(before);
    expect(storedFiles()).toEqual(storedBefore);
    // The remote connection was dropped, not left streaming into nowhere.
    expect(remote.slowClosed()).toBe(1);
  });

  it("a key with only FILE_SHARE polls, lists and cancels its own fetch tasks; another key cannot", async () => {
    const owner = await t.createApiKey(Permission.FILE_SHARE);
    const other = await t.createApiKey(Permission.FILE_SHARE);
    const ids = (res: { body: { data: { tasks: Array<{ id: string }> } } }) =>
      res.body.data.tasks.map((x) => x.id);

    const done = await t.request("POST", "/api/url/fetch", {
      apiKey: owner.key,
      body: { url: `${remote.base}/files/report.bin` },
    });
    expect(done.status, done.text).toBe(202);
    const { task } = await waitForTask(t, done.body.data.id, { apiKey: owner.key });
    expect(task).toMatchObject({ status: "completed", created_by: `apikey:${owner.id}` });
    expect(sha(await storedShareBytes(t, (task.result as { id: string }).id))).toBe(sha(remote.report));

    const running = await t.request("POST", "/api/url/fetch", {
      apiKey: owner.key,
      body: { url: `${remote.base}/slow` },
    });
    const id = running.body.data.id;
    const mine = await t.request("GET", "/api/fs/tasks?limit=200", { apiKey: owner.key });
    expect(mine.status, mine.text).toBe(200);
    expect(ids(mine)).toEqual(expect.arrayContaining([done.body.data.id, id]));

    const theirs = await t.request("GET", "/api/fs/tasks?limit=200", { apiKey: other.key });
    expect(theirs.status).toBe(200);
    expect(ids(theirs)).not.toContain(id);
    for (const [method, url] of [
      ["GET", `/api/fs/tasks/${id}`],
      ["POST", `/api/fs/tasks/${id}/cancel`],
      ["DELETE", `/api/fs/tasks/${done.body.data.id}`],
    ] as const) {
      const res = await t.request(method, url, { apiKey: other.key });
      expect(res.status, `${method} ${url}`).toBe(404);
      expect(res.body.error).toBe("task_not_found");
    }
    expect((await t.request("GET", `/api/fs/tasks/${id}`)).status).toBe(401);

    // Cancel once bytes flow, as a user watching the progress would.
    for (let i = 0; i < 200; i++) {
      const cur = await t.request("GET", `/api/fs/tasks/${id}`, { apiKey: owner.key });
      expect(cur.body.data.status, cur.text).toBe("running");
      if (cur.body.data.processed_bytes > 0) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    const cancel = await t.request("POST", `/api/fs/tasks/${id}/cancel`, { apiKey: owner.key });
    expect(cancel.status, cancel.text).toBe(200);
    const cancelled = await waitForTask(t, id, { apiKey: owner.key }, 15_000);
    expect(cancelled.task.status).toBe("cancelled");
    const removed = await t.request("DELETE", `/api/fs/tasks/${id}`, { apiKey: owner.key });
    expect(removed.status, removed.text).toBe(200);
  });

  it.each(["/big", "/big-chunked"])("fails over the max upload size (%s) and keeps nothing", async (path) => {
    await setMaxUpload(1, "MB");
    try {
      const before = (await fileRows()).length;
      const queued = await t.request("POST", "/api/url/fetch", {
        token,
        body: { url: `${remote.base}${path}` },
      });
      const { task } = await waitForTask(t, queued.body.data.id, { token });
      expect(task.status).toBe("failed");
      expect(task.error).toContain("File size exceeds system limit");
      expect((await fileRows()).length).toBe(before);
    } finally {
      await setMaxUpload(100, "MB");
    }
  });

  it("refuses private targets: literal ones at once, redirects when the task runs", async () => {
    const direct = await t.request("POST", "/api/url/fetch", {
      token,
      body: { url: `http://0x7f000001:${remote.targetPort}/` },
    });
    expect(direct.status).toBe(400);
    expect(direct.body.error).toBe("url_not_allowed");
    const queued = await t.request("POST", "/api/url/fetch", {
      token,
      body: { url: `${remote.base}/to-private` },
    });
    const { task } = await waitForTask(t, queued.body.data.id, { token });
    expect(task.status).toBe("failed");
    expect(task.error).toContain("loopback");
    expect(remote.targetConnections()).toBe(0);
  });
});
