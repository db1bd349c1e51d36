/**
 * One ClipShare as another's storage: the driver contract of the WebDAV driver
 * against a second ClipShare's /dav (a LOCAL mount served over a real socket),
 * signed in with the admin's user name and password.
 */

import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";
import { serveApp } from "../../src/http/node-server";
import { describeStorageDriver } from "../../src/storage/driver.contract";
import type { RemoteTreeDriver } from "../../src/storage/drivers/remote-tree";
import { createWebdavDriver } from "../../src/storage/drivers/webdav";
import { createLocalStorage, createMount } from "../support/fs-helpers";
import { ADMIN_PASSWORD, ADMIN_USERNAME, createTestApp, type TestApp } from "../support/test-app";

let backend: TestApp;
let server: ReturnType<typeof serveApp> | undefined;
let driver: RemoteTreeDriver | undefined;
const partsDir = mkdtempSync(path.join(os.tmpdir(), "clipshare-dav-parts-"));

afterAll(async () => {
  await driver?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  await backend?.close();
  rmSync(partsDir, { recursive: true, force: true });
});

describeStorageDriver(
  "WebDAV (a second ClipShare's /dav)",
  async () => {
    backend = await createTestApp();
    await createMount(backend, await createLocalStorage(backend, "dav-backend"), "/store");
    // The contract streams 8 MB bodies; the default upload limit is larger, but say so.
    await backend.request("PUT", "/api/admin/system-settings", {
      token: await backend.adminToken(),
      body: { max_upload_size: 1, max_upload_size_unit: "GB" },
    });
    await new Promise<void>((resolve) => {
      server = serveApp(backend.app, { port: 0, hostname: "127.0.0.1", log: backend.ctx.log }, () =>
        resolve(),
      );
    });
    const { port } = server!.address() as AddressInfo;
    driver = createWebdavDriver({
      url: `http://127.0.0.1:${port}/dav/store/`,
      username: ADMIN_USERNAME,
      password: ADMIN_PASSWORD,
      folder: "contract",
      partsDir,
    });
    const d = driver;
    return { driver: d, litter: () => d.leftovers(), cleanup: async () => undefined };
  },
  {
    presignRead: false,
    presignWrite: false,
    multipart: true,
    serverSideCopy: true,
    publicUrl: false,
    rangeRead: true,
  },
);
