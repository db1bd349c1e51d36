import { LocalDriver, type LocalDriverConfig } from "./drivers/local";
import { S3Driver, type S3DriverConfig } from "./drivers/s3";
import type { StorageDriver } from "./types";

export type StorageDriverConfig = ({ type: "LOCAL" } & LocalDriverConfig) | ({ type: "S3" } & S3DriverConfig);

/**
 * What the domain is given to build drivers with (context.ts passes
 * createDriver), so domain code never loads a concrete driver or its SDK.
 */
export type DriverFactory = (config: StorageDriverConfig) => StorageDriver;

/**
 * Builds the driver for a storage config. Cheap for LOCAL; for S3 it creates
 * an SDK client with its own connection pool, so callers should keep the
 * driver for as long as the config is unchanged.
 */
export function createDriver(config: StorageDriverConfig): StorageDriver {
  switch (config.type) {
    case "LOCAL":
      return new LocalDriver(config);
    case "S3":
      return new S3Driver(config);
    default: {
      const unknown: never = config;
      throw new Error(`Unknown storage type: ${(unknown as { type: string }).type}`);
    }
  }
}
