import { z } from "zod";
import { KEY_ROLES } from "../constants";
import { WEBDAV_POLICIES } from "../schemas/mounts";
import { STORAGE_TYPES } from "../schemas/storage-configs";

/** What the admin panel's APIs answer in `data`: keys, mounts, storage configs, settings, dashboard, caches. */

const nullableString = z.string().nullable();

/** An API key as listed; the full key appears only in the create answer. */
export const apiKey = z.strictObject({
  id: z.string(),
  name: z.string(),
  key_masked: z.string(),
  permissions: z.number(),
  permission_names: z.array(z.string()),
  role: z.enum(KEY_ROLES),
  basic_path: z.string(),
  is_guest: z.union([z.literal(0), z.literal(1)]),
  expires_at: nullableString,
  is_expired: z.boolean(),
  last_used: nullableString,
  created_at: z.string(),
  updated_at: z.string(),
  /** The user the key belongs to, and their name. */
  user_id: nullableString,
  owner: nullableString,
});
export type ApiKeyDto = z.infer<typeof apiKey>;

/** POST /admin/api-keys: the key with its secret, shown once. */
export const createdApiKey = apiKey.extend({ key: z.string() });
export type CreatedApiKey = z.infer<typeof createdApiKey>;

/** A mount point (GET /admin/mounts, /user/mounts). */
export const mount = z.strictObject({
  id: z.string(),
  name: z.string(),
  storage_type: z.enum(STORAGE_TYPES),
  storage_config_id: nullableString,
  storage_config_name: nullableString,
  mount_path: z.string(),
  /** Folder inside the storage the mount shows; "" is the whole storage. */
  root: z.string(),
  remark: nullableString,
  is_active: z.boolean(),
  created_by: z.string(),
  sort_order: z.number(),
  cache_ttl: z.number(),
  web_proxy: z.boolean(),
  /** Visitors without credentials may read the mount (public browsing; folder settings below may differ). */
  public_browse: z.boolean(),
  webdav_policy: z.enum(WEBDAV_POLICIES),
  enable_sign: z.boolean(),
  sign_expires: z.number().nullable(),
  /** The mount's entries are kept in the search index. */
  index_enabled: z.boolean(),
  index_include: z.array(z.string()),
  index_exclude: z.array(z.string()),
  /** Minutes between scheduled crawls; 0 = on demand only. */
  index_interval: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
  last_used: nullableString,
});
export type MountDto = z.infer<typeof mount>;

/** Bytes and files of the file shares on one storage config. */
export const storageUsage = z.strictObject({ file_count: z.number(), total_size: z.number() });
export type StorageUsage = z.infer<typeof storageUsage>;

/** A storage config: secrets masked, never returned; `usage` on reads, not on writes. */
export const storageConfig = z.strictObject({
  id: z.string(),
  name: z.string(),
  storage_type: z.enum(STORAGE_TYPES),
  provider_type: nullableString,
  endpoint_url: nullableString,
  bucket_name: nullableString,
  region: nullableString,
  /** Masked ("AKIA********WXYZ"). */
  access_key_id: nullableString,
  /** "********" when set. */
  secret_access_key: nullableString,
  has_credentials: z.boolean(),
  path_style: z.boolean(),
  default_folder: z.string(),
  root_path: nullableString,
  custom_host: nullableString,
  /** SFTP only: the pinned host-key fingerprint. */
  host_key: nullableString,
  signature_expires_in: z.number(),
  is_public: z.boolean(),
  is_default: z.boolean(),
  total_storage_bytes: z.number().nullable(),
  admin_id: nullableString,
  created_at: z.string(),
  updated_at: z.string(),
  last_used: nullableString,
  usage: storageUsage.optional(),
});
export type StorageConfigDto = z.infer<typeof storageConfig>;

/** One check of POST /s3-configs/:id/test; a check adds what it measured (sizes, URLs, hints, steps). */
export const storageCheck = z.looseObject({
  success: z.boolean(),
  error: nullableString,
  note: z.string(),
  durationMs: z.number(),
});
export type StorageCheck = z.infer<typeof storageCheck>;

/** POST /s3-configs/:id/test: each check, and `frontendSim`, the browser's part as 0.7.3 clients read it. */
export const storageTestOutcome = z.strictObject({
  success: z.boolean(),
  result: z.strictObject({
    write: storageCheck,
    read: storageCheck,
    list: storageCheck,
    presign: storageCheck,
    cors: storageCheck,
    frontendSim: storageCheck,
    /** Where the test connected, as 0.7.3's details window shows it (for LOCAL: the directory). */
    connectionInfo: z.strictObject({
      bucket: nullableString,
      endpoint: nullableString,
      region: nullableString,
      pathStyle: z.boolean(),
      provider: nullableString,
      defaultFolder: z.string(),
      customHost: nullableString,
      signatureExpiresIn: z.number(),
    }),
  }),
});
export type StorageTestOutcome = z.infer<typeof storageTestOutcome>;

/** A row of GET /admin/system-settings (values are strings). */
export const systemSettingRow = z.strictObject({
  key: z.string(),
  value: z.string(),
  description: nullableString,
  created_at: z.string(),
  updated_at: z.string(),
});
export type SystemSettingRow = z.infer<typeof systemSettingRow>;

/** GET and POST /admin/proxy-sign-settings. */
export const proxySignSettings = z.strictObject({ signAll: z.boolean(), expires: z.number() });
export type ProxySignSettings = z.infer<typeof proxySignSettings>;

/** One of the newest shares: enough to link to it, never its content or password hash. */
export const recentShare = z.strictObject({
  type: z.enum(["paste", "file"]),
  id: z.string(),
  slug: z.string(),
  /** The paste's remark or the file's name; null for a paste without a remark. */
  title: nullableString,
  /** Bytes of a file; null for a paste. */
  size: z.number().nullable(),
  has_password: z.boolean(),
  expires_at: nullableString,
  created_at: z.string(),
});
export type RecentShare = z.infer<typeof recentShare>;

/** A storage config's use as the dashboard lists it. */
export const bucketUsage = storageConfig.extend({
  usage: storageUsage,
  usedStorage: z.number(),
  /** The quota in bytes; null when the config has none. */
  totalStorage: z.number().nullable(),
  fileCount: z.number(),
  usagePercent: z.number(),
  providerType: z.string(),
});
export type BucketUsage = z.infer<typeof bucketUsage>;

/** GET /admin/dashboard/stats. */
export const dashboardStats = z.strictObject({
  totalPastes: z.number(),
  totalFiles: z.number(),
  totalApiKeys: z.number(),
  totalS3Configs: z.number(),
  totalMounts: z.number(),
  totalStorageUsed: z.number(),
  s3Buckets: z.array(bucketUsage),
  /** UTC dates (YYYY-MM-DD) of the week arrays, oldest first. */
  days: z.array(z.string()),
  lastWeekPastes: z.array(z.number()),
  lastWeekFiles: z.array(z.number()),
  recentShares: z.array(recentShare),
});
export type DashboardStats = z.infer<typeof dashboardStats>;

/** Counters of one explorer cache. */
export const cacheCounters = z.strictObject({
  name: z.string(),
  hits: z.number(),
  misses: z.number(),
  expired: z.number(),
  invalidations: z.number(),
  pruned: z.number(),
  cacheSize: z.number(),
  /** 0-1. */
  hitRate: z.number(),
});
export type CacheCounters = z.infer<typeof cacheCounters>;

/** GET /admin/cache/stats. */
export const cacheStats = z.strictObject({
  cache: z.strictObject({ directory: cacheCounters, s3Url: cacheCounters, search: cacheCounters }),
  system: z.strictObject({
    memory: z.strictObject({
      rss: z.number(),
      heapTotal: z.number(),
      heapUsed: z.number(),
      external: z.number(),
      arrayBuffers: z.number(),
      heapUsagePercent: z.number(),
    }),
    uptime: z.number(),
  }),
  timestamp: z.string(),
});
export type CacheStatsDto = z.infer<typeof cacheStats>;

/** POST /admin/cache/clear and /user/cache/clear. */
export const cacheClearResult = z.strictObject({ clearedCount: z.number(), timestamp: z.string() });
export type CacheClearResult = z.infer<typeof cacheClearResult>;
