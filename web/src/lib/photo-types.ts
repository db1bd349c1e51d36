/** Phone photos (HEIC/HEIF) browsers cannot decode: pages show the server's converted thumbnail instead. */
export const HEIC_NAME = /\.hei[cf]$/i;
