/** Application-wide constants. */
export const APP_NAME = "ClipShare";
export const APP_VERSION = "0.7.3";

export const REVALIDATE_INTERVAL_MS = 5 * 60 * 1000;
export const OFFLINE_CACHE_EXPIRY_MS = 7 * 24 * 60 * 60 * 1000;
export const REQUEST_TIMEOUT_MS = 30_000;
export const UPLOAD_TIMEOUT_MS = 300_000;

export const SLUG_MAX_LENGTH = 50;
export const SLUG_PATTERN = /^[A-Za-z0-9_-]+$/;
export const MOUNT_NAME_MAX = 50;
export const CACHE_TTL_MAX = 86_400;
export const CACHE_TTL_DEFAULT = 300;
export const EDITABLE_FILE_MAX_BYTES = 10 * 1024 * 1024;
export const SEARCH_MIN_LENGTH = 2;

export const MULTIPART_PART_SIZE = 5 * 1024 * 1024;
/** S3's part-count limit, which LOCAL storage keeps too so one client works against both. */
export const MULTIPART_MAX_PARTS = 10_000;
export const MULTIPART_CONCURRENCY = 3;
export const MULTIPART_RETRIES = 3;

export const PASTES_DEFAULT_LIMIT = 10;
export const FILES_DEFAULT_LIMIT = 50;
export const SEARCH_DEFAULT_LIMIT = 50;
export const RECENT_UPLOADS = 3;

export const DEFAULT_MAX_UPLOAD_SIZE_MB = 100;
export const DEFAULT_KEY_ROLE = "GENERAL";
export const DEFAULT_BASE_PATH = "/";
/** Name of the LOCAL storage config made on first run; the web app shows it in the reader's language. */
export const DEFAULT_LOCAL_STORAGE_NAME = "Local storage";

/** Local storage keys. */
export const STORAGE_KEYS = {
  adminToken: "admin_token",
  apiKey: "api_key",
  apiKeyPermissions: "api_key_permissions",
  apiKeyInfo: "api_key_info",
  /** A user's or guest's session: who signed in and their grant (an administrator's needs none). */
  accountInfo: "account_info",
  themeMode: "themeMode",
  language: "language",
} as const;

/** Markdown extensions that get text/markdown on upload. */
export const MARKDOWN_EXTENSIONS = ["md", "markdown", "mdown", "mkd", "mdwn", "mdtxt", "mdtext", "rmd"];

export const KEY_ROLES = ["GUEST", "GENERAL", "ADMIN"] as const;
export type KeyRole = (typeof KEY_ROLES)[number];

/** Offline web app timings: toasts, sync wait, reload delay, install offer. */
export const OFFLINE_TOAST_MS = 3_000;
export const SYNC_STATUS_WAIT_MS = 5_000;
/** Reload after accepting an update or after a sync that changed pastes. */
export const RELOAD_DELAY_MS = 1_000;
export const INSTALL_PROMPT_RESHOW_MS = 7 * 24 * 60 * 60 * 1000;
export const INSTALL_PROMPT_CHECK_MS = 5_000;
