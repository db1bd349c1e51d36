/**
 * The remote storage servers started by scripts/test-services (rclone's WebDAV
 * and SFTP, pure-ftpd plain and with TLS), as storage-config bodies. Suites
 * skip a backend whose variables are absent on a developer machine and fail
 * loudly under CLIPSHARE_REQUIRE_SERVICES=1 (as `npm test` sets).
 */
import { describe, it } from "vitest";

export type RemoteBackend = "WEBDAV" | "SFTP" | "FTP" | "FTPS";

export interface RemoteTestServer {
  backend: RemoteBackend;
  storageType: "WEBDAV" | "SFTP" | "FTP";
  /** endpoint_url of a storage config. */
  endpoint: string;
  host: string;
  port: number;
  username: string;
  password: string;
}

export function remoteTestServer(backend: RemoteBackend): RemoteTestServer | null {
  const e = process.env;
  const login = (user?: string, pass?: string) => ({ username: user ?? "", password: pass ?? "" });
  switch (backend) {
    case "WEBDAV": {
      if (!e.CLIPSHARE_TEST_WEBDAV_URL) return null;
      const url = new URL(e.CLIPSHARE_TEST_WEBDAV_URL);
      return {
        backend,
        storageType: "WEBDAV",
        endpoint: e.CLIPSHARE_TEST_WEBDAV_URL,
        host: url.hostname,
        port: Number(url.port),
        ...login(e.CLIPSHARE_TEST_WEBDAV_USER, e.CLIPSHARE_TEST_WEBDAV_PASS),
      };
    }
    case "SFTP": {
      if (!e.CLIPSHARE_TEST_SFTP_HOST) return null;
      const port = Number(e.CLIPSHARE_TEST_SFTP_PORT);
      return {
        backend,
        storageType: "SFTP",
        endpoint: `sftp://${e.CLIPSHARE_TEST_SFTP_HOST}:${port}`,
        host: e.CLIPSHARE_TEST_SFTP_HOST,
        port,
        ...login(e.CLIPSHARE_TEST_SFTP_USER, e.CLIPSHARE_TEST_SFTP_PASS),
      };
    }
    case "FTP":
    case "FTPS": {
      if (!e.CLIPSHARE_TEST_FTP_HOST) return null;
      const tls = backend === "FTPS";
      const port = Number(tls ? e.CLIPSHARE_TEST_FTPS_PORT : e.CLIPSHARE_TEST_FTP_PORT);
      return {
        backend,
        storageType: "FTP",
        endpoint: `${tls ? "ftps" : "ftp"}://${e.CLIPSHARE_TEST_FTP_HOST}:${port}`,
        host: e.CLIPSHARE_TEST_FTP_HOST,
        port,
        ...login(e.CLIPSHARE_TEST_FTP_USER, e.CLIPSHARE_TEST_FTP_PASS),
      };
    }
  }
}

/** The body that creates a storage config on `server` whose files live under `folder`. */
export function remoteConfigBody(server: RemoteTestServer, name: string, folder: string) {
  return {
    storage_type: server.storageType,
    name,
    endpoint_url: server.endpoint,
    access_key_id: server.username,
    secret_access_key: server.password,
    default_folder: folder,
  };
}

/** Runs `fn` with the server when configured; otherwise registers nothing, or a failure when services are required. */
export function describeRemote(backend: RemoteBackend, name: string, fn: (server: RemoteTestServer) => void) {
  describeRemotes([backend], name, ([server]) => fn(server!));
}

/** describeRemote for a suite that needs several remote servers at once. */
export function describeRemotes(
  backends: RemoteBackend[],
  name: string,
  fn: (servers: RemoteTestServer[]) => void,
) {
  const servers = backends.map(remoteTestServer);
  const missing = backends.filter((_, i) => !servers[i]);
  if (missing.length === 0) {
    describe(name, () => fn(servers as RemoteTestServer[]));
    return;
  }
  if (process.env.CLIPSHARE_REQUIRE_SERVICES === "1") {
    describe(name, () => {
      it("has its test servers configured", () => {
        throw new Error(
          `The ${missing.join(", ")} test server is not configured; start scripts/test-services/start.sh`,
        );
      });
    });
  }
}
