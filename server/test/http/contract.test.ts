/**
 * The wire contract: real answers of every route group that has a response
 * schema in @clipshare/shared, parsed with that schema. The schemas are strict
 * objects, so a presenter that drops a field, renames one or adds one without
 * the schema fails here (and in the typecheck, where presenters are typed
 * against the same schemas). Answers that carry 0.7.3's camelCase copies are
 * parsed with their wire schema (the shared one plus the copies, openapi/wire.ts).
 */
import {
  accessLogPage,
  accessSummary,
  adminLogin,
  apiKey,
  cacheClearResult,
  cacheStats,
  createdApiKey,
  createdFileShare,
  credentialCheck,
  dashboardStats,
  fileBatchDeleteResult,
  fileShare,
  fileShareDetail,
  fileShareList,
  fsBatchRemoveResult,
  fsCopyResult,
  fsFileInfo,
  fsFileLink,
  fsListing,
  fsMultipartDone,
  fsMultipartResume,
  fsMultipartStarted,
  fsSearchResponse,
  fsTask,
  fsTaskList,
  fsUpdateResult,
  fsUploadResult,
  fsZipLink,
  maxUploadSize,
  mount,
  officeViewerUrls,
  Permission,
  type PublicFile,
  pagination,
  pasteListRow,
  proxySignSettings,
  publicFile,
  publishedFileShare,
  remoteFileInfo,
  shareMultipartResume,
  storageConfig,
  storageTestOutcome,
  systemSettingRow,
  uploadedFileShare,
} from "@clipshare/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createdPaste,
  pasteDetail,
  pasteVisit,
  presignedUpload,
  shareMultipartDone,
  shareMultipartStarted,
  urlMultipartStarted,
  urlPresignedUpload,
} from "../../src/http/openapi/wire";
import { createLocalStorage, createMount, mustPut } from "../support/fs-helpers";
import {
  matchPath,
  type OpenApiDocument,
  type RecordedAnswer,
  recordAnswers,
  validateAnswers,
} from "../support/openapi-check";
import { type RemoteFiles, startAppWithRemoteFiles } from "../support/remote-files";
import { ADMIN_PASSWORD, ADMIN_USERNAME, type TestApp, type TestResponse } from "../support/test-app";

let t: TestApp;
let token: string;
let remote: RemoteFiles;
let close: () => Promise<void>;
let answers: RecordedAnswer[];
beforeAll(async () => {
  ({ t, token, remote, close } = await startAppWithRemoteFiles());
  answers = recordAnswers(t);
});
afterAll(() => close());

/** `data` of a successful answer, parsed with its schema; a mismatch names every field that differs. */
function dataOf<S extends z.ZodType>(schema: S, res: TestResponse): z.output<S> {
  expect(res.status, res.text).toBeLessThan(300);
  expect(res.body).toMatchObject({ code: res.status, success: true });
  const parsed = schema.safeParse(res.body.data);
  if (!parsed.success) throw new Error(`${z.prettifyError(parsed.error)}\nin: ${res.text.slice(0, 2000)}`);
  return parsed.data;
}

const admin = (method: string, url: string, body?: unknown) =>
  t.request(method, url, { token, ...(body === undefined ? {} : { body }) });

async function defaultConfigId(): Promise<string> {
  const configs = dataOf(z.array(storageConfig), await admin("GET", "/api/s3-configs"));
  return configs.find((c) => c.is_default)!.id;
}

/** PUTs a part to a signed part URL on this server; its ETag names the part in the completion. */
async function putPart(url: string, body: string) {
  const { pathname, search } = new URL(url);
  const res = await t.app.request(pathname + search, { method: "PUT", body });
  expect(res.status, await res.clone().text()).toBe(200);
  return res.headers.get("etag")!.replace(/"/g, "");
}

describe("sign-in", () => {
  it("admin login and the credential check (admin token, API key) answer their schemas", async () => {
    const login = dataOf(
      adminLogin,
      await t.request("POST", "/api/admin/login", {
        body: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
      }),
    );
    expect(login.username).toBe(ADMIN_USERNAME);
    const asAdmin = dataOf(credentialCheck, await admin("GET", "/api/test/api-key"));
    expect(asAdmin.is_admin).toBe(true);
    const key = await t.createApiKey(Permission.TEXT | Permission.MOUNT_VIEW);
    const asKey = dataOf(credentialCheck, await t.request("GET", "/api/test/api-key", { apiKey: key.key }));
    expect(asKey).toMatchObject({
      is_admin: false,
      permission_mask: Permission.TEXT | Permission.MOUNT_VIEW,
    });
  });
});

describe("pastes", () => {
  it("create, visit, unlock, list, detail and edit answer their schemas", async () => {
    const created = dataOf(
      createdPaste,
      await admin("POST", "/api/paste", { content: "hello", remark: "r", maxViews: 5 }),
    );
    const open = dataOf(pasteVisit, await t.request("GET", `/api/paste/${created.slug}`));
    expect(open.content).toBe("hello");

    const locked = dataOf(
      createdPaste,
      await admin("POST", "/api/paste", { content: "secret", password: "pw-123456" }),
    );
    const prompt = dataOf(pasteVisit, await t.request("GET", `/api/paste/${locked.slug}`));
    expect(prompt).toMatchObject({ requiresPassword: true });
    expect(prompt.content).toBeUndefined();
    const unlocked = dataOf(
      pasteVisit,
      await t.request("POST", `/api/paste/${locked.slug}`, { body: { password: "pw-123456" } }),
    );
    expect(unlocked.accessToken).toEqual(expect.any(String));

    const list = await admin("GET", "/api/pastes?limit=10");
    expect(dataOf(z.array(pasteListRow), list).length).toBeGreaterThanOrEqual(2);
    expect(pagination.parse(list.body.pagination).total).toBeGreaterThanOrEqual(2);

    dataOf(pasteDetail, await admin("GET", `/api/pastes/${created.id}`));
    const edited = dataOf(pasteListRow, await admin("PUT", `/api/pastes/${created.id}`, { remark: "new" }));
    expect(edited.remark).toBe("new");
  });
});

describe("share access log", () => {
  it("a share's log page and the dashboard summary answer their schemas", async () => {
    const created = dataOf(createdPaste, await admin("POST", "/api/paste", { content: "logged" }));
    await t.app.request(`/api/paste/${created.slug}`, { headers: { "user-agent": "curl/8.5.0" } });
    const page = dataOf(accessLogPage, await admin("GET", `/api/pastes/${created.id}/access-log`));
    expect(page.entries).toHaveLength(1);
    dataOf(accessSummary, await admin("GET", "/api/admin/dashboard/access-log"));
  });
});

describe("file shares", () => {
  const upload = async (name: string, query = "") => {
    const res = await t.request(
      "PUT",
      `/api/upload-direct/${encodeURIComponent(name)}${query ? `?${query}` : ""}`,
      { token, rawBody: "file body", headers: { "content-type": "application/octet-stream" } },
    );
    expect(res.status, res.text).toBe(201);
    return res.body.data as { id?: string; fileId?: string; slug: string };
  };

  it("owner list, detail and edit, visitor views, Office viewers and batch delete answer their schemas", async () => {
    const plain = await upload("notes.txt");
    const office = await upload("report.docx");
    const locked = await upload("locked.txt", "password=pw-123456");

    const page = dataOf(fileShareList, await admin("GET", "/api/files?limit=50"));
    expect(page.files.length).toBeGreaterThanOrEqual(3);
    const row = page.files.find((f) => f.slug === plain.slug)!;
    dataOf(fileShareDetail, await admin("GET", `/api/files/${row.id}`));
    expect(dataOf(fileShare, await admin("PUT", `/api/files/${row.id}`, { remark: "r" })).remark).toBe("r");

    const visit = dataOf(publicFile, await t.request("GET", `/api/public/files/${plain.slug}`)) as PublicFile;
    expect(visit.previewUrl).toEqual(expect.any(String));
    const prompt = dataOf(publicFile, await t.request("GET", `/api/public/files/${locked.slug}`));
    // Nothing that names the file or its stored object before the password.
    expect(prompt).toEqual({
      slug: locked.slug,
      requires_password: true,
      has_password: true,
      expires_at: null,
      views: 0,
      max_views: null,
      remaining_views: null,
    });
    const verified = dataOf(
      publicFile,
      await t.request("POST", `/api/public/files/${locked.slug}/verify`, { body: { password: "pw-123456" } }),
    );
    expect((verified as PublicFile).accessToken).toEqual(expect.any(String));
    expect(verified).toMatchObject({ filename: "locked.txt", requires_password: false });

    const viewers = dataOf(officeViewerUrls, await t.request("GET", `/api/office-preview/${office.slug}`));
    expect(viewers.google).toContain("docs.google.com");

    const officeRow = page.files.find((f) => f.slug === office.slug)!;
    const deleted = dataOf(
      fileBatchDeleteResult,
      await admin("DELETE", "/api/files/batch-delete", { ids: [officeRow.id, "missing-id"] }),
    );
    expect(deleted).toMatchObject({ success: 1, failed: [{ id: "missing-id" }] });
  });
});

describe("file share uploads", () => {
  it("through the server, direct, presign and commit, and from a URL answer their schemas", async () => {
    dataOf(maxUploadSize, await t.request("GET", "/api/system/max-upload-size"));

    const direct = await t.request("PUT", "/api/upload-direct/direct.txt", {
      token,
      rawBody: "direct body",
      headers: { "content-type": "text/plain" },
    });
    expect(dataOf(publishedFileShare, direct).filename).toBe("direct.txt");
    const form = new FormData();
    form.append("file", new Blob(["form body"]), "form.txt");
    dataOf(uploadedFileShare, await t.request("POST", "/api/upload", { token, rawBody: form }));

    const presigned = dataOf(
      presignedUpload,
      await admin("POST", "/api/s3/presign", { filename: "p.txt", size: 4 }),
    );
    const put = await t.app.request(
      new URL(presigned.upload_url).pathname + new URL(presigned.upload_url).search,
      {
        method: "PUT",
        body: "four",
        headers: presigned.upload_headers,
      },
    );
    expect(put.status, await put.text()).toBeLessThan(300);
    const committed = dataOf(
      publishedFileShare,
      await admin("POST", "/api/s3/commit", { file_id: presigned.file_id, max_views: 2 }),
    );
    expect(committed).toMatchObject({ slug: presigned.slug, size: 4, max_views: 2 });

    const url = `${remote.base}/files/report.bin`;
    const info = dataOf(remoteFileInfo, await admin("POST", "/api/url/info", { url }));
    expect(info.size).toBe(remote.report.length);
    dataOf(
      urlPresignedUpload,
      await admin("POST", "/api/url/presign", { url, s3_config_id: await defaultConfigId() }),
    );
    const fetchTask = dataOf(fsTask, await admin("POST", "/api/url/fetch", { url }));
    expect(fetchTask.type).toBe("download");
  });
});

describe("uploads in parts", () => {
  it("share, URL and explorer multipart init, resume and complete answer their schemas", async () => {
    const started = dataOf(
      shareMultipartStarted,
      await admin("POST", "/api/files/multipart/init", {
        filename: "parts.bin",
        total_size: 4,
        part_size: 4,
        part_count: 1,
      }),
    );
    const ref = { file_id: started.file_id, upload_id: started.upload_id };
    const etag = await putPart(started.presigned_urls[0]!.url, "four");
    const resumed = dataOf(shareMultipartResume, await admin("POST", "/api/files/multipart/resume", ref));
    expect(resumed.parts).toHaveLength(1);
    const done = dataOf(
      shareMultipartDone,
      await admin("POST", "/api/files/multipart/complete", { ...ref, parts: [{ partNumber: 1, etag }] }),
    );
    expect(done).toMatchObject({ slug: started.slug, size: 4 });

    const url = `${remote.base}/files/report.bin`;
    dataOf(
      urlMultipartStarted,
      await admin("POST", "/api/url/multipart/init", {
        url,
        s3_config_id: await defaultConfigId(),
        part_size: remote.report.length,
        part_count: 1,
      }),
    );

    const storage = await createLocalStorage(t);
    await createMount(t, storage, "/contract-parts");
    const file = { path: "/contract-parts", fileName: "explorer.bin" };
    const fsStarted = dataOf(
      fsMultipartStarted,
      await admin("POST", "/api/fs/multipart/init", { ...file, fileSize: 4, partSize: 4, partCount: 1 }),
    );
    const fsEtag = await putPart(fsStarted.presignedUrls[0]!.url, "four");
    const fsRef = { ...file, uploadId: fsStarted.uploadId };
    dataOf(fsMultipartResume, await admin("POST", "/api/fs/multipart/resume", fsRef));
    const fsDone = dataOf(
      fsMultipartDone,
      await admin("POST", "/api/fs/multipart/complete", {
        ...fsRef,
        parts: [{ partNumber: 1, etag: fsEtag }],
      }),
    );
    expect(fsDone).toMatchObject({ size: 4, location: "/contract-parts/explorer.bin" });
  });
});

describe("file system", () => {
  it("listings, entries, links, uploads, edits, search, copies, ZIP links, shares, removals and tasks answer their schemas", async () => {
    const first = await createLocalStorage(t);
    const second = await createLocalStorage(t);
    await createMount(t, first, "/contract-a");
    await createMount(t, second, "/contract-b");
    const auth = { token };

    const put = fsUploadResult.parse(await mustPut(t, "/contract-a/docs/readme.txt", "hello", auth));
    expect(put.path).toBe("/contract-a/docs/readme.txt");
    const form = new FormData();
    form.append("path", "/contract-a/docs/");
    form.append("file", new Blob(["form body"]), "form.txt");
    dataOf(fsUploadResult, await t.request("POST", "/api/fs/upload", { token, rawBody: form }));

    const root = dataOf(fsListing, await admin("GET", "/api/fs/list?path=/"));
    expect(root.isVirtual).toBe(true);
    const dir = dataOf(fsListing, await admin("GET", "/api/fs/list?path=/contract-a/docs/"));
    expect(dir.items.map((i) => i.name).sort()).toEqual(["form.txt", "readme.txt"]);

    const file = dataOf(fsFileInfo, await admin("GET", "/api/fs/get?path=/contract-a/docs/readme.txt"));
    expect(file).toHaveProperty("download_url");
    dataOf(fsFileInfo, await admin("GET", "/api/fs/get?path=/contract-a/docs/"));
    dataOf(fsFileLink, await admin("GET", "/api/fs/file-link?path=/contract-a/docs/readme.txt"));

    const created = dataOf(
      fsUpdateResult,
      await admin("POST", "/api/fs/update", { path: "/contract-a/docs/new.md", content: "# new" }),
    );
    expect(created.isNewFile).toBe(true);

    const found = dataOf(fsSearchResponse, await admin("GET", "/api/fs/search?q=readme"));
    expect(found.results.map((r) => r.name)).toContain("readme.txt");

    // Within one storage the copy happens at once; across storages it becomes a task.
    const local = dataOf(
      fsCopyResult,
      await admin("POST", "/api/fs/batch-copy", {
        items: [{ sourcePath: "/contract-a/docs/readme.txt", targetPath: "/contract-a/copy.txt" }],
      }),
    );
    expect(local).toMatchObject({ success: 1, queued: 0, task: null });
    const queued = dataOf(
      fsCopyResult,
      await admin("POST", "/api/fs/batch-copy", {
        items: [{ sourcePath: "/contract-a/docs/readme.txt", targetPath: "/contract-b/readme.txt" }],
      }),
    );
    expect(queued.task).not.toBeNull();
    const tasks = dataOf(fsTaskList, await admin("GET", "/api/fs/tasks"));
    expect(tasks.tasks.map((task) => task.id)).toContain(queued.taskId);
    dataOf(fsTask, await admin("GET", `/api/fs/tasks/${queued.taskId}`));

    dataOf(fsZipLink, await admin("POST", "/api/fs/zip/link", { paths: ["/contract-a/docs/"] }));
    const share = dataOf(
      createdFileShare,
      await admin("POST", "/api/fs/create-share", { path: "/contract-a/docs/readme.txt" }),
    );
    expect(share.file_path).toBe("/contract-a/docs/readme.txt");

    const removed = dataOf(
      fsBatchRemoveResult,
      await admin("DELETE", "/api/fs/batch-remove", { paths: ["/contract-a/copy.txt"] }),
    );
    expect(removed).toMatchObject({ success: 1, queued: 0 });
  });
});

describe("administration", () => {
  it("API keys, mounts and storage configs answer their schemas on list, create, read and edit", async () => {
    const key = dataOf(
      createdApiKey,
      await admin("POST", "/api/admin/api-keys", { name: "contract-key", permissions: Permission.TEXT }),
    );
    expect(dataOf(z.array(apiKey), await admin("GET", "/api/admin/api-keys")).length).toBeGreaterThan(0);
    dataOf(apiKey, await admin("GET", `/api/admin/api-keys/${key.id}`));
    dataOf(apiKey, await admin("PUT", `/api/admin/api-keys/${key.id}`, { name: "contract-key-2" }));

    const storage = await createLocalStorage(t);
    const configs = dataOf(z.array(storageConfig), await admin("GET", "/api/s3-configs"));
    expect(configs.find((c) => c.id === storage.configId)?.usage).toBeDefined();
    dataOf(storageConfig, await admin("GET", `/api/s3-configs/${storage.configId}`));
    dataOf(storageConfig, await admin("PUT", `/api/s3-configs/${storage.configId}`, { name: "renamed" }));
    const checked = dataOf(
      storageTestOutcome,
      await admin("POST", `/api/s3-configs/${storage.configId}/test`),
    );
    expect(checked.result.write.success).toBe(true);

    const mountId = await createMount(t, storage, "/contract-admin");
    expect(dataOf(z.array(mount), await admin("GET", "/api/admin/mounts")).length).toBeGreaterThan(0);
    dataOf(mount, await admin("GET", `/api/admin/mounts/${mountId}`));
    dataOf(mount, await admin("PUT", `/api/admin/mounts/${mountId}`, { remark: "r" }));
    const viewer = await t.createApiKey(Permission.MOUNT_VIEW);
    dataOf(z.array(mount), await t.request("GET", "/api/user/mounts", { apiKey: viewer.key }));
  });

  it("settings, dashboard and cache answers match their schemas", async () => {
    const settings = dataOf(z.array(systemSettingRow), await admin("GET", "/api/admin/system-settings"));
    expect(settings.map((s) => s.key)).toContain("max_upload_size");
    dataOf(
      z.array(systemSettingRow),
      await admin("PUT", "/api/admin/system-settings", { max_upload_size: 50 }),
    );
    dataOf(proxySignSettings, await admin("GET", "/api/admin/proxy-sign-settings"));
    dataOf(
      proxySignSettings,
      await admin("POST", "/api/admin/proxy-sign-settings", { signAll: false, expires: 0 }),
    );

    await admin("POST", "/api/paste", { content: "for the dashboard" });
    const stats = dataOf(dashboardStats, await admin("GET", "/api/admin/dashboard/stats"));
    expect(stats.s3Buckets.length).toBeGreaterThan(0);
    expect(stats.recentShares.length).toBeGreaterThan(0);
    dataOf(cacheStats, await admin("GET", "/api/admin/cache/stats"));
    dataOf(cacheClearResult, await admin("POST", "/api/admin/cache/clear", {}));
  });
});

describe("the OpenAPI document", () => {
  it("describes every answer recorded above: each validates against its operation's response schema", async () => {
    const doc = (await t.request("GET", "/api/openapi.json")).body as OpenApiDocument;
    const recorded = answers.filter((a) => a.path !== "/api/openapi.json");
    expect(recorded.length).toBeGreaterThan(80);
    // Answers of many operations, not many of one.
    expect(
      new Set(recorded.map((a) => `${a.method} ${matchPath(doc, a.method, a.path)}`)).size,
    ).toBeGreaterThan(50);
    expect(validateAnswers(doc, recorded)).toEqual([]);
  });
});
