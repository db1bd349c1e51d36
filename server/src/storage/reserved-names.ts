/**
 * Hidden directory under a storage root for in-flight writes (LOCAL, WebDAV,
 * SFTP, FTP) and LOCAL's multipart parts; never listed, never addressable.
 */
export const LOCAL_TEMP_DIR = ".clipshare-tmp";

/** Whether a storage type's driver keeps LOCAL_TEMP_DIR in the storage (S3 keeps unfinished uploads instead). */
export const keepsTempFolder = (storageType: string): boolean => storageType !== "S3";
