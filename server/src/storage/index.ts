export { contentDisposition, type Disposition } from "./content-disposition";
export { createDriver, type DriverFactory, type StorageDriverConfig } from "./create-driver";
export { LOCAL_TEMP_DIR, LocalDriver, type LocalDriverConfig } from "./drivers/local";
export { B2_PROVIDER, S3Driver, type S3DriverConfig, uploadHeadersFor } from "./drivers/s3";
export { DEFAULT_MIME_TYPE, extensionOf, isMarkdownName, mimeTypeFor } from "./mime";
export { baseName, isSameOrInside, joinPath, normalizePath, parentPath } from "./path-safety";
export type * from "./types";
