import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, it } from "vitest";
import { streamedOnly } from "../contract-helpers";
import { describeStorageDriver } from "../driver.contract";
import type { StorageCapabilities } from "../types";
import { createFtpDriver } from "./ftp";
import type { RemoteTreeDriver } from "./remote-tree";
import { createSftpDriver } from "./sftp";
import { createWebdavDriver } from "./webdav";

/**
 * The driver contract against the remote-tree backends started by
 * scripts/test-services (rclone serve webdav/sftp, an FTP server with and
 * without TLS). Each run works in its own random folder on the server.
 */
const e = process.env;
const runFolder = `clipshare-test-${Date.now().toString(36)}-${randomBytes(4).toString("hex")}`;

interface Backend {
  name: string;
  /** A driver rooted at `folder` ("" = the server's root as configured), multipart parts in `partsDir`. */
  make(folder: string, partsDir: string): RemoteTreeDriver;
  capabilities: StorageCapabilities;
}

const backends: Backend[] = [];
if (e.CLIPSHARE_TEST_SFTP_HOST)
  backends.push({
    name: "SFTP (rclone serve sftp)",
    make: (folder, partsDir) =>
      createSftpDriver({
        host: e.CLIPSHARE_TEST_SFTP_HOST!,
        port: Number(e.CLIPSHARE_TEST_SFTP_PORT),
        username: e.CLIPSHARE_TEST_SFTP_USER!,
        password: e.CLIPSHARE_TEST_SFTP_PASS!,
        folder,
        partsDir,
      }),
    capabilities: streamedOnly,
  });
if (e.CLIPSHARE_TEST_WEBDAV_URL)
  backends.push({
    name: "WebDAV (rclone serve webdav)",
    make: (folder, partsDir) =>
      createWebdavDriver({
        url: e.CLIPSHARE_TEST_WEBDAV_URL!,
        username: e.CLIPSHARE_TEST_WEBDAV_USER!,
        password: e.CLIPSHARE_TEST_WEBDAV_PASS!,
        folder,
        partsDir,
      }),
    capabilities: { ...streamedOnly, serverSideCopy: true },
  });

const ftpLogin = (port: string | undefined, folder: string, partsDir: string) => ({
  host: e.CLIPSHARE_TEST_FTP_HOST!,
  port: Number(port),
  username: e.CLIPSHARE_TEST_FTP_USER!,
  password: e.CLIPSHARE_TEST_FTP_PASS!,
  folder,
  partsDir,
});
if (e.CLIPSHARE_TEST_FTP_HOST) {
  backends.push({
    name: "FTP (pure-ftpd, plain)",
    make: (folder, partsDir) =>
      createFtpDriver({ ...ftpLogin(e.CLIPSHARE_TEST_FTP_PORT, folder, partsDir), secure: false }),
    capabilities: streamedOnly,
  });
  backends.push({
    name: "FTPS (pure-ftpd, explicit TLS required)",
    make: (folder, partsDir) =>
      createFtpDriver({
        ...ftpLogin(e.CLIPSHARE_TEST_FTPS_PORT, folder, partsDir),
        secure: true,
        // The test server's certificate is self-signed: trust exactly it.
        tls: { ca: readFileSync(e.CLIPSHARE_TEST_FTPS_CA!) },
      }),
    capabilities: streamedOnly,
  });
}

if (backends.length < 4 && e.CLIPSHARE_REQUIRE_SERVICES === "1") {
  describe("remote storage drivers", () => {
    it("have their test servers configured", () => {
      throw new Error(
        "CLIPSHARE_REQUIRE_SERVICES=1 but the WebDAV/SFTP test servers are not configured: source .tmp/services.env after scripts/test-services/start.sh",
      );
    });
  });
}

/**
 * The driver's leftovers once the server has finished with an aborted transfer: pure-ftpd
 * deletes its own partial upload (`.pureftpd-rename.*`) a moment after the data connection
 * drops, which on a busy machine can be after the failed write has already been reported.
 * Anything still there after a few seconds is a real leftover.
 */
async function settledLeftovers(driver: RemoteTreeDriver): Promise<string[]> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const left = await driver.leftovers();
    const serverOwn = left.every((name) => name.startsWith(".pureftpd-"));
    if (left.length === 0 || !serverOwn || Date.now() > deadline) return left;
    await new Promise((r) => setTimeout(r, 100));
  }
}

for (const [index, backend] of backends.entries()) {
  // Servers may share a directory (plain FTP and FTPS do): one folder per backend.
  const folder = `${runFolder}/contract-${index}`;
  const drivers: RemoteTreeDriver[] = [];
  const partsDir = mkdtempSync(path.join(tmpdir(), "clipshare-parts-"));
  const make = (folder: string) => {
    const d = backend.make(folder, partsDir);
    drivers.push(d);
    return d;
  };
  afterAll(async () => {
    const root = make("");
    if (await root.exists(runFolder)) await root.remove(runFolder, { recursive: true });
    await Promise.all(drivers.map((d) => d.close()));
    rmSync(partsDir, { recursive: true, force: true });
  });

  describeStorageDriver(
    backend.name,
    async () => {
      const root = make("");
      await root.mkdir(folder);
      const driver = make(folder);
      return { driver, litter: () => settledLeftovers(driver), cleanup: async () => undefined };
    },
    backend.capabilities,
  );
}
