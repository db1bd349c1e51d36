import { createRemoteStorage } from "../support/fs-helpers";
import { describeRemote, type RemoteBackend } from "../support/remote-env";
import { describeFsSuite } from "./fs-suite";

/**
 * The file-system API (mounts, uploads, copy/move tasks, ZIP, signed links) on
 * each remote-tree backend. FTPS runs the same driver as FTP over TLS; the
 * driver contract (server/src/storage/drivers/remote.test.ts) covers it.
 */
const backends: [RemoteBackend, string][] = [
  ["WEBDAV", "WebDAV (rclone)"],
  ["SFTP", "SFTP (rclone)"],
  ["FTP", "FTP (pure-ftpd)"],
];

for (const [backend, label] of backends) {
  describeRemote(backend, label, (server) => {
    describeFsSuite(label, (t) => createRemoteStorage(t, server, "fs-suite"));
  });
}
