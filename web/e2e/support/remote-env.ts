import { servicesRequired } from "./s3-env";

/**
 * The WebDAV and SFTP servers of scripts/test-services (`source .tmp/services.env`),
 * as the storage form asks for them. Absent on a developer machine → the test
 * is skipped with that reason; under CLIPSHARE_REQUIRE_SERVICES=1 it fails instead.
 */
export interface RemoteLogin {
  endpoint: string;
  username: string;
  password: string;
}

export function remoteEnv(): { webdav: RemoteLogin; sftp: RemoteLogin } | null {
  const e = process.env;
  if (!e.CLIPSHARE_TEST_WEBDAV_URL || !e.CLIPSHARE_TEST_SFTP_PORT) {
    if (servicesRequired())
      throw new Error(
        "CLIPSHARE_TEST_WEBDAV_URL / CLIPSHARE_TEST_SFTP_PORT are not set; start scripts/test-services/start.sh",
      );
    return null;
  }
  return {
    webdav: {
      endpoint: e.CLIPSHARE_TEST_WEBDAV_URL,
      username: e.CLIPSHARE_TEST_WEBDAV_USER ?? "",
      password: e.CLIPSHARE_TEST_WEBDAV_PASS ?? "",
    },
    sftp: {
      endpoint: `sftp://${e.CLIPSHARE_TEST_SFTP_HOST ?? "127.0.0.1"}:${e.CLIPSHARE_TEST_SFTP_PORT}`,
      username: e.CLIPSHARE_TEST_SFTP_USER ?? "",
      password: e.CLIPSHARE_TEST_SFTP_PASS ?? "",
    },
  };
}
