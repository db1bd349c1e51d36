/**
 * Building blocks for explorer tests: storage configs and mounts through the
 * admin API, uploads and reads through the fs API.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Permission } from "@clipshare/shared";
import { afterAll, beforeAll, expect } from "vitest";
import { s3ConfigBody } from "../../../scripts/test-services/s3-config-body.mjs";
import { type RemoteTestServer, remoteConfigBody } from "./remote-env";
import type { S3TestEnv } from "./s3-env";
import { type ApiClient, createTestApp, type TestApp } from "./test-app";

export type Auth = { token?: string; apiKey?: string };

/** Every explorer and WebDAV right; not FILE_SHARE. */
export const MOUNT_AND_DAV =
  Permission.MOUNT_VIEW |
  Permission.MOUNT_UPLOAD |
  Permission.MOUNT_COPY |
  Permission.MOUNT_RENAME |
  Permission.MOUNT_DELETE |
  Permission.WEBDAV_READ |
  Permission.WEBDAV_MANAGE;

/** Writes files (relative path → content) below `root`, making their folders. */
export function writeTree(root: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), content);
  }
}

export interface StorageUnderTest {
  configId: string;
  storageType: "LOCAL" | "S3" | "WEBDAV" | "SFTP" | "FTP";
  cleanup(): Promise<void>;
}

export async function createLocalStorage(
  t: TestApp,
  name = `disk-${randomBytes(3).toString("hex")}`,
): Promise<StorageUnderTest> {
  const root = path.join(t.dataDir, name);
  mkdirSync(root, { recursive: true });
  const res = await t.request("POST", "/api/s3-configs", {
    token: await t.adminToken(),
    body: { storage_type: "LOCAL", name, root_path: root },
  });
  expect(res.status, res.text).toBe(201);
  return { configId: res.body.data.id, storageType: "LOCAL", cleanup: async () => undefined };
}

/** The storage every test app starts with: its default LOCAL config (DATA_DIR/files). */
export async function defaultLocalStorage(t: ApiClient): Promise<StorageUnderTest> {
  const configs = await t.request("GET", "/api/s3-configs", { token: await t.adminToken() });
  const local = configs.body.data.find((c: { storage_type: string }) => c.storage_type === "LOCAL");
  return { configId: local.id, storageType: "LOCAL", cleanup: async () => undefined };
}

/**
 * A storage config on the test S3 server whose objects live under a fresh
 * `<prefix>-<random>` folder; `extra` adds or overrides config fields (e.g. is_public).
 */
export async function createS3Config(
  t: ApiClient,
  s3: S3TestEnv,
  prefix: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const folder = `${prefix}-${randomBytes(4).toString("hex")}`;
  const res = await t.request("POST", "/api/s3-configs", {
    token: await t.adminToken(),
    body: s3ConfigBody(s3, `Swift ${folder}`, { default_folder: folder, ...extra }),
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id as string;
}

/** Removes everything a test left in a storage config's folder. */
async function emptyStorage(t: TestApp, configId: string): Promise<void> {
  const { driver } = await t.ctx.storageConfigs.driverById(configId);
  const top = await driver.list("").catch(() => ({ entries: [] }));
  for (const entry of top.entries)
    await driver.remove(entry.path, { recursive: true }).catch(() => undefined);
}

export async function createS3Storage(
  t: TestApp,
  s3: S3TestEnv,
  prefix = "fs-test",
): Promise<StorageUnderTest> {
  const configId = await createS3Config(t, s3, prefix);
  return {
    configId,
    storageType: "S3",
    cleanup: () => emptyStorage(t, configId),
  };
}

/** A storage config on a remote test server (remote-env.ts) whose files live under a fresh folder. */
export async function createRemoteStorage(
  t: TestApp,
  server: RemoteTestServer,
  prefix = "fs-test",
): Promise<StorageUnderTest> {
  const folder = `${prefix}-${randomBytes(4).toString("hex")}`;
  const res = await t.request("POST", "/api/s3-configs", {
    token: await t.adminToken(),
    body: remoteConfigBody(server, `${server.backend} ${folder}`, folder),
  });
  expect(res.status, res.text).toBe(201);
  const configId = res.body.data.id as string;
  return {
    configId,
    storageType: server.storageType,
    cleanup: () => emptyStorage(t, configId),
  };
}

export async function createMount(
  t: ApiClient,
  storage: StorageUnderTest,
  mountPath: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const res = await t.request("POST", "/api/admin/mounts", {
    token: await t.adminToken(),
    body: {
      name: `Mount ${mountPath}`,
      storage_type: storage.storageType,
      storage_config_id: storage.configId,
      mount_path: mountPath,
      // Suites mount one storage at several paths on purpose; the overlap rule has its own tests.
      allow_overlap: true,
      ...extra,
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id as string;
}

export interface StorageAtM {
  t: TestApp;
  admin: Auth;
  storage: StorageUnderTest;
}

/**
 * Registers the hooks most explorer suites share: one test app (with `env`),
 * its admin token and the storage under test mounted at /m, torn down after
 * the suite. Call it inside a describe; `ready` receives them once built and
 * may add more mounts.
 */
export function mountStorageAtM(
  makeStorage: (t: TestApp) => Promise<StorageUnderTest>,
  ready: (setup: StorageAtM) => void | Promise<void>,
  env: Record<string, string> = {},
): void {
  let setup: StorageAtM | undefined;
  beforeAll(async () => {
    const t = await createTestApp(env);
    const admin = { token: await t.adminToken() };
    const storage = await makeStorage(t);
    setup = { t, admin, storage };
    await createMount(t, storage, "/m");
    await ready(setup);
  });
  afterAll(async () => {
    await setup?.storage.cleanup();
    await setup?.t.close();
  });
}

/** PUT /api/fs/upload?path= with a raw body. */
export async function putFile(t: ApiClient, filePath: string, content: string | Buffer, auth: Auth) {
  return t.request("PUT", `/api/fs/upload?path=${encodeURIComponent(filePath)}`, {
    ...auth,
    rawBody: typeof content === "string" ? content : new Uint8Array(content),
    headers: { "content-type": "application/octet-stream" },
  });
}

export async function mustPut(t: ApiClient, filePath: string, content: string | Buffer, auth: Auth) {
  const res = await putFile(t, filePath, content, auth);
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

export async function list(t: ApiClient, dir: string, auth: Auth, query = "") {
  return t.request("GET", `/api/fs/list?path=${encodeURIComponent(dir)}${query}`, auth);
}

export async function names(t: ApiClient, dir: string, auth: Auth): Promise<string[]> {
  const res = await list(t, dir, auth);
  expect(res.status, res.text).toBe(200);
  return (res.body.data.items as Array<{ name: string }>).map((i) => i.name).sort();
}

export async function download(
  t: TestApp,
  filePath: string,
  auth: Auth,
  headers: Record<string, string> = {},
) {
  const authHeader = auth.token ? `Bearer ${auth.token}` : `ApiKey ${auth.apiKey}`;
  return t.app.request(`/api/fs/download?path=${encodeURIComponent(filePath)}`, {
    headers: { authorization: authHeader, ...headers },
  });
}

export async function readBytes(t: TestApp, filePath: string, auth: Auth): Promise<Buffer> {
  const res = await download(t, filePath, auth);
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

/** Polls a task until it finishes (or the time is up). */
export async function waitForTask(t: ApiClient, id: string, auth: Auth, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  const seen: Array<Record<string, unknown>> = [];
  for (;;) {
    const res = await t.request("GET", `/api/fs/tasks/${id}`, auth);
    expect(res.status, res.text).toBe(200);
    seen.push(res.body.data);
    if (["completed", "failed", "cancelled", "partial"].includes(res.body.data.status)) {
      return { task: res.body.data, seen };
    }
    if (Date.now() > deadline) throw new Error(`task ${id} did not finish: ${JSON.stringify(res.body.data)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
