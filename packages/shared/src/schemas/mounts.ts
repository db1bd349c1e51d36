import { z } from "zod";
import { CACHE_TTL_DEFAULT, CACHE_TTL_MAX, MOUNT_NAME_MAX } from "../constants";
import { looseBoolean, looseInt } from "./common";
import { onFirstUse } from "./on-first-use";
import { STORAGE_TYPES } from "./storage-configs";

/**
 * Paths a mount point may not take: they name our own URL spaces or
 * read as system directories. A mount equal to or below one of them is refused;
 * compared case-insensitively.
 */
export const RESERVED_MOUNT_PATHS = [
  "/api",
  "/dav",
  "/admin",
  "/bin",
  "/etc",
  "/lib",
  "/root",
  "/sys",
  "/proc",
  "/dev",
] as const;

export const MOUNT_PATH_MAX = 255;
export const WEBDAV_POLICIES = ["302_redirect", "native_proxy"] as const;
export type WebdavPolicy = (typeof WEBDAV_POLICIES)[number];

/** Letters, digits, `_`, `-`, Chinese characters and `/`. */
const MOUNT_PATH_CHARS = /^[\p{Script=Han}A-Za-z0-9_\-/]+$/u;

/** Why a mount path is unacceptable, or null. Expects the trimmed input with trailing slashes removed. */
export function mountPathProblem(path: string): string | null {
  if (!path) return "Mount path is required";
  if (!path.startsWith("/")) return "Mount path must start with /";
  if (path === "/") return "Mount path cannot be the root directory";
  if (path.includes("//")) return "Mount path cannot contain consecutive /";
  if (path.length > MOUNT_PATH_MAX) return `Mount path may be at most ${MOUNT_PATH_MAX} characters`;
  if (!MOUNT_PATH_CHARS.test(path)) {
    return "Mount path may contain only letters, digits, _, -, Chinese characters and /";
  }
  const lower = path.toLowerCase();
  const reserved = RESERVED_MOUNT_PATHS.find((r) => lower === r || lower.startsWith(`${r}/`));
  if (reserved) return `Mount path ${reserved} is reserved by the system`;
  return null;
}

export const mountPathInput = onFirstUse(() =>
  z
    .string({ error: "Mount path is required" })
    .trim()
    .transform((v) => (v.length > 1 ? v.replace(/\/+$/, "") : v))
    .superRefine((v, ctx) => {
      const problem = mountPathProblem(v);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
);

/**
 * The folder of every storage that holds file-share uploads. No mount shows
 * it, whatever its root: a share's password, view limit and expiry must not be
 * walked around through the explorer (docs/decisions/0050-share-area.md).
 */
export const SHARE_AREA = ".clipshare-shares";
/** Folders a mount root may not be at or inside: the share area and the LOCAL driver's temp folder. */
const RESERVED_ROOTS = [SHARE_AREA, ".clipshare-tmp"] as const;
export const MOUNT_ROOT_MAX = 512;

/** A mount root in stored form: "" for the whole storage, else "a/b" (no leading or trailing "/"). */
export function normalizeMountRoot(input: string): string {
  return input
    .trim()
    .split("/")
    .filter((s) => s !== "")
    .join("/");
}

/** Why a (normalized) mount root is unacceptable, or null. */
export function mountRootProblem(root: string): string | null {
  if (root.length > MOUNT_ROOT_MAX) return `Folder may be at most ${MOUNT_ROOT_MAX} characters`;
  const segments = root === "" ? [] : root.split("/");
  if (segments.some((s) => s === "." || s === "..")) return "Folder must not contain . or .. segments";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\\\u0000-\u001f\u007f]/.test(root))
    return "Folder must not contain backslashes or control characters";
  const first = segments[0]?.toLowerCase();
  if (first && RESERVED_ROOTS.some((r) => r === first))
    return `Folder ${segments[0]} is reserved by ClipShare`;
  return null;
}

export const mountRootInput = onFirstUse(() =>
  z
    .string({ error: "Folder must be a string" })
    .transform(normalizeMountRoot)
    .superRefine((v, ctx) => {
      const problem = mountRootProblem(v);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
);

/** Minutes between scheduled crawls of an indexed mount (0 = on demand only); at most a week. */
export const INDEX_INTERVAL_MAX = 7 * 24 * 60;

/** Globs over mount-relative paths: `*`, `?` within a segment, `**` across segments. */
const indexGlobList = () =>
  z
    .array(
      z
        .string()
        .trim()
        .min(1, "A pattern may not be empty")
        .max(200, "A pattern may be at most 200 characters")
        .refine((v) => !v.includes("\n"), "A pattern is one line"),
      { error: "Patterns are a list of strings" },
    )
    .max(100, "At most 100 patterns");

const mountFields = () => ({
  name: z
    .string({ error: "Mount name is required" })
    .trim()
    .min(1, "Mount name is required")
    .max(MOUNT_NAME_MAX, `Mount name may be at most ${MOUNT_NAME_MAX} characters`),
  storage_type: z.preprocess(
    (v) => (typeof v === "string" ? v.trim().toUpperCase() : v),
    z.enum(STORAGE_TYPES, { error: `Storage type is required (${STORAGE_TYPES.join(", ")})` }),
  ),
  storage_config_id: z
    .string({ error: "Storage config is required" })
    .trim()
    .min(1, "Storage config is required")
    .max(100),
  mount_path: mountPathInput,
  remark: z
    .string()
    .max(500, "Remark may be at most 500 characters")
    .nullable()
    .optional()
    .transform((v) => (v === "" ? null : v)),
  is_active: looseBoolean,
  sort_order: looseInt.refine((v) => Math.abs(v) <= 1_000_000, "Sort order must be an integer"),
  cache_ttl: looseInt.refine(
    (v) => v >= 0 && v <= CACHE_TTL_MAX,
    `Cache TTL must be an integer between 0 and ${CACHE_TTL_MAX} seconds`,
  ),
  web_proxy: looseBoolean,
  /** Visitors without credentials may read the mount (public browsing). */
  public_browse: looseBoolean,
  webdav_policy: z.enum(WEBDAV_POLICIES, { error: "webdav_policy must be 302_redirect or native_proxy" }),
  enable_sign: looseBoolean,
  index_enabled: looseBoolean,
  index_include: indexGlobList(),
  index_exclude: indexGlobList(),
  index_interval: looseInt.refine(
    (v) => v >= 0 && v <= INDEX_INTERVAL_MAX,
    `index_interval must be an integer between 0 and ${INDEX_INTERVAL_MAX} minutes`,
  ),
  /** Seconds a proxy signature lives; null = the global default, 0 = never expires. */
  sign_expires: z.union([
    looseInt.refine((v) => v >= 0 && v <= 10 * 365 * 86400, "sign_expires must be a non-negative integer"),
    z.null(),
  ]),
});

export const createMountRequest = onFirstUse(() => {
  const fields = mountFields();
  return z.object({
    name: fields.name,
    /** Taken from the storage config; accepted for clients that send it. */
    storage_type: fields.storage_type.optional(),
    storage_config_id: fields.storage_config_id,
    mount_path: fields.mount_path,
    /** Folder inside the storage the mount shows; "" (the default) is the whole storage. */
    root: mountRootInput.optional().default(""),
    /** The admin confirms a mount whose folder overlaps another mount's (else 409 mount_root_overlap). */
    allow_overlap: looseBoolean.optional().default(false),
    remark: fields.remark,
    is_active: fields.is_active.optional().default(true),
    sort_order: fields.sort_order.optional().default(0),
    cache_ttl: fields.cache_ttl.optional().default(CACHE_TTL_DEFAULT),
    web_proxy: fields.web_proxy.optional().default(false),
    public_browse: fields.public_browse.optional().default(false),
    webdav_policy: fields.webdav_policy.optional().default("302_redirect"),
    enable_sign: fields.enable_sign.optional().default(false),
    sign_expires: fields.sign_expires.optional().default(null),
    index_enabled: fields.index_enabled.optional().default(false),
    index_include: fields.index_include.optional().default([]),
    index_exclude: fields.index_exclude.optional().default([]),
    index_interval: fields.index_interval.optional().default(0),
  });
});
export type CreateMountRequest = z.input<typeof createMountRequest>;

/** Every field optional; unknown fields are ignored. */
export const updateMountRequest = onFirstUse(() => {
  const fields = mountFields();
  return z.object({
    name: fields.name.optional(),
    storage_type: fields.storage_type.optional(),
    storage_config_id: fields.storage_config_id.optional(),
    mount_path: fields.mount_path.optional(),
    root: mountRootInput.optional(),
    allow_overlap: looseBoolean.optional().default(false),
    remark: fields.remark,
    is_active: fields.is_active.optional(),
    sort_order: fields.sort_order.optional(),
    cache_ttl: fields.cache_ttl.optional(),
    web_proxy: fields.web_proxy.optional(),
    public_browse: fields.public_browse.optional(),
    webdav_policy: fields.webdav_policy.optional(),
    enable_sign: fields.enable_sign.optional(),
    sign_expires: fields.sign_expires.optional(),
    index_enabled: fields.index_enabled.optional(),
    index_include: fields.index_include.optional(),
    index_exclude: fields.index_exclude.optional(),
    index_interval: fields.index_interval.optional(),
  });
});
export type UpdateMountRequest = z.input<typeof updateMountRequest>;

/** POST /admin/cache/clear and /user/cache/clear: nothing clears everything the caller may clear. */
export const cacheClearRequest = onFirstUse(() =>
  z.object({
    mountId: z.string().max(100).optional(),
    s3ConfigId: z.string().max(100).optional(),
    storage_config_id: z.string().max(100).optional(),
  }),
);

/** POST /admin/indexes/:mountId/crawl. */
export const indexCrawlRequest = onFirstUse(() =>
  z.object({
    /** Empty the index first and read everything again. */
    rebuild: looseBoolean.optional().default(false),
    /** Entries per second at most; 0 = as fast as the storage answers. */
    max_rate: looseInt
      .refine((v) => v >= 0 && v <= 1_000_000, "max_rate must be between 0 and 1000000")
      .optional()
      .default(0),
  }),
);
