/** Hidden directory under a LOCAL root for in-flight writes and multipart parts; never listed, never addressable. */
export const LOCAL_TEMP_DIR = ".clipshare-tmp";
