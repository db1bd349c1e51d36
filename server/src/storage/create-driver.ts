import { rootCertificates } from "node:tls";
import { createFtpDriver, type FtpConfig } from "./drivers/ftp";
import { LocalDriver, type LocalDriverConfig } from "./drivers/local";
import { S3Driver, type S3DriverConfig } from "./drivers/s3";
import { createSftpDriver, type RemoteLoginConfig } from "./drivers/sftp";
import { createWebdavDriver, type WebdavConfig } from "./drivers/webdav";
import type { StorageDriver } from "./types";

export type StorageDriverConfig =
  | ({ type: "LOCAL" } & LocalDriverConfig)
  | ({ type: "S3" } & S3DriverConfig)
  | ({ type: "WEBDAV" } & WebdavConfig)
  | ({ type: "SFTP" } & RemoteLoginConfig)
  | ({ type: "FTP" } & FtpConfig);

/**
 * What the domain is given to build drivers with (context.ts passes
 * createDriver), so domain code never loads a concrete driver or its SDK.
 */
export type DriverFactory = (config: StorageDriverConfig) => StorageDriver;

/** Driver settings that hold for every config of this server (context.ts). */
export interface DriverDefaults {
  /** Extra PEM certificates trusted for storage over TLS (STORAGE_CA_FILE). */
  ca?: string | null;
}

/** The CA list for TLS connections to storage: the system's plus the configured extra ones. */
function trustedCa(defaults: DriverDefaults): string[] | undefined {
  return defaults.ca ? [...rootCertificates, defaults.ca] : undefined;
}

/**
 * Builds the driver for a storage config. Cheap for LOCAL; for S3 it creates
 * an SDK client with its own connection pool, and the remote-tree drivers
 * (WebDAV, SFTP, FTP) pool their connections too, so callers should keep the
 * driver for as long as the config is unchanged.
 */
export function createDriver(config: StorageDriverConfig, defaults: DriverDefaults = {}): StorageDriver {
  const ca = trustedCa(defaults);
  switch (config.type) {
    case "LOCAL":
      return new LocalDriver(config);
    case "S3":
      return new S3Driver(config);
    case "WEBDAV":
      return createWebdavDriver(ca ? { ca, ...config } : config);
    case "SFTP":
      return createSftpDriver(config);
    case "FTP":
      return createFtpDriver(ca ? { ...config, tls: { ca, ...config.tls } } : config);
    default: {
      const unknown: never = config;
      throw new Error(`Unknown storage type: ${(unknown as { type: string }).type}`);
    }
  }
}
