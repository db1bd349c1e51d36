import { z } from "zod";
import { TASK_STATUSES, TASK_TYPES } from "../schemas/fs";

/**
 * What the file-system API answers in `data` (0.7.3 field names, camelCase
 * where 0.7.3 used it). Objects are strict: a field the server adds or drops
 * without changing its schema fails the contract test.
 */

const nullableString = z.string().nullable();

/** An explorer entry; directories' paths end with "/". */
export const fsEntry = z.strictObject({
  name: z.string(),
  path: z.string(),
  type: z.enum(["file", "directory"]),
  isDirectory: z.boolean(),
  /** Exists only because mounts lie below it (no storage behind it). */
  isVirtual: z.boolean(),
  /** A mount point's root. */
  isMount: z.boolean(),
  size: z.number(),
  modified: nullableString,
  mimetype: nullableString,
  contentType: nullableString,
  etag: nullableString,
  mount_id: nullableString,
  storage_type: nullableString,
  /** A folder's bytes, files and folders below it, from the search index (only where one is complete). */
  folderSize: z.number().optional(),
  folderFiles: z.number().optional(),
  folderFolders: z.number().optional(),
});
export type FsEntry = z.infer<typeof fsEntry>;

/** GET /fs/list: one page of a directory. */
export const fsListing = z.strictObject({
  path: z.string(),
  name: z.string(),
  type: z.literal("directory"),
  isRoot: z.boolean(),
  isVirtual: z.boolean(),
  mount_id: nullableString,
  storage_type: nullableString,
  items: z.array(fsEntry),
  /** Pass back as `cursor` for the next page; null on the last page. */
  nextCursor: nullableString,
  hasMore: z.boolean(),
  /** This page came from the directory cache. */
  cached: z.boolean(),
});
export type FsListing = z.infer<typeof fsListing>;

/** Where a file can be read: a presigned storage URL or a (signed) proxy URL. */
export const fsFileUrls = z.strictObject({ preview_url: z.string(), download_url: z.string() });
export type FsFileUrls = z.infer<typeof fsFileUrls>;

/** GET /fs/get: a file with its URLs, or a directory (contentType "application/x-directory"). */
export const fsFileInfo = z.union([fsEntry.extend(fsFileUrls.shape), fsEntry]);
export type FsFileInfo = z.infer<typeof fsEntry> & Partial<FsFileUrls>;

/**
 * 0.7.3 repeated `success: true` inside `data` of its upload, edit and link
 * answers (uploads also the message), and its clients read them there. The
 * routes add them; the domain's results are the rest (`InlineStatusFree`).
 */
export type InlineStatusFree<T> = Omit<T, "success" | "message">;

/** GET /fs/file-link. */
export const fsFileLink = z.strictObject({
  success: z.literal(true),
  presignedUrl: z.string(),
  name: z.string(),
  expiresIn: z.number(),
  expiresAt: z.string(),
  forceDownload: z.boolean(),
});
export type FsFileLink = z.infer<typeof fsFileLink>;

/** A task as its owner sees it (GET /fs/tasks, /fs/tasks/:id). */
export const fsTask = z.strictObject({
  id: z.string(),
  type: z.enum(TASK_TYPES),
  status: z.enum(TASK_STATUSES),
  /** 0-100. */
  progress: z.number(),
  total_items: z.number(),
  processed_items: z.number(),
  failed_items: z.number(),
  skipped_items: z.number(),
  total_bytes: z.number(),
  processed_bytes: z.number(),
  current_file: nullableString,
  error: nullableString,
  cancel_requested: z.boolean(),
  attempts: z.number(),
  /** Why it was restarted or stopped. */
  notice: nullableString,
  payload: z.unknown(),
  result: z.unknown(),
  created_by: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  started_at: nullableString,
  completed_at: nullableString,
});
export type FsTask = z.infer<typeof fsTask>;

export const fsTaskList = z.strictObject({
  tasks: z.array(fsTask),
  total: z.number(),
  limit: z.number(),
  offset: z.number(),
  hasMore: z.boolean(),
});
export type FsTaskList = z.infer<typeof fsTaskList>;

/** DELETE /fs/batch-remove: small deletions happen at once, big directories in a task. */
export const fsBatchRemoveResult = z.strictObject({
  success: z.number(),
  failed: z.array(z.strictObject({ path: z.string(), error: z.string() })),
  queued: z.number(),
  taskId: nullableString,
  task: fsTask.nullable(),
});
export type FsBatchRemoveResult = z.infer<typeof fsBatchRemoveResult>;

/** One copied (or skipped, or failed) item of POST /fs/batch-copy. */
const copyDetail = z.looseObject({
  sourcePath: z.string(),
  targetPath: z.string(),
  status: z.enum(["success", "skipped", "failed", "queued", "pending"]),
});

/** POST /fs/batch-copy: copies within a request, and big or slow ones queued as a task. */
export const fsCopyResult = z.strictObject({
  crossStorage: z.boolean(),
  success: z.number(),
  skipped: z.number(),
  failed: z.number(),
  queued: z.number(),
  details: z.array(copyDetail),
  taskId: nullableString,
  task: fsTask.nullable(),
});
export type FsCopyResult = z.infer<typeof fsCopyResult>;

export const fsSearchResult = z.strictObject({
  name: z.string(),
  path: z.string(),
  type: z.enum(["file", "directory"]),
  isDirectory: z.boolean(),
  size: z.number(),
  modified: nullableString,
  contentType: nullableString,
  mimetype: nullableString,
  mount_id: nullableString,
  mount_name: nullableString,
  storage_type: nullableString,
  s3_key: nullableString,
});
export type FsSearchResult = z.infer<typeof fsSearchResult>;

/** GET /fs/search. */
export const fsSearchResponse = z.strictObject({
  results: z.array(fsSearchResult),
  total: z.number(),
  hasMore: z.boolean(),
  /** The scan stopped early (too many entries or matches). */
  truncated: z.boolean(),
  searchParams: z.strictObject({
    query: z.string(),
    scope: z.string(),
    mountId: nullableString,
    path: nullableString,
    limit: z.number(),
    offset: z.number(),
  }),
  root: z.string(),
  mountsSearched: z.number(),
  /** Where the answer came from: the index, a walk of storage (no index for the mounts), or both. */
  source: z.enum(["index", "walk", "mixed"]),
});
export type FsSearchResponse = z.infer<typeof fsSearchResponse>;

/** POST /fs/zip/link: a signed URL that streams the selection as a ZIP. */
export const fsZipLink = z.strictObject({ url: z.string(), filename: z.string(), expiresAt: z.string() });
export type FsZipLink = z.infer<typeof fsZipLink>;

/** POST /fs/upload and PUT /fs/upload; a task id when the upload ran as a task. */
export const fsUploadResult = z.strictObject({
  success: z.literal(true),
  fileName: z.string(),
  path: z.string(),
  size: z.number(),
  contentType: nullableString,
  etag: nullableString,
  mount_id: nullableString,
  taskId: z.string().optional(),
  message: z.string(),
});
export type FsUploadResult = z.infer<typeof fsUploadResult>;

/** POST /fs/update. */
export const fsUpdateResult = z.strictObject({
  success: z.literal(true),
  path: z.string(),
  s3Path: z.string(),
  etag: nullableString,
  contentType: nullableString,
  size: z.number(),
  isNewFile: z.boolean(),
  message: z.string(),
});
export type FsUpdateResult = z.infer<typeof fsUpdateResult>;

/** GET /admin/indexes: the search index of one mount. */
export const mountIndexStatus = z.strictObject({
  mount_id: z.string(),
  mount_name: z.string(),
  mount_path: z.string(),
  storage_type: z.string(),
  index_enabled: z.boolean(),
  /** Minutes between scheduled crawls; 0 = on demand only. */
  index_interval: z.number(),
  /** A full crawl finished: search uses the index for this mount. */
  complete: z.boolean(),
  /** Entries in the index (while a crawl runs: the entries it has read so far). */
  entries: z.number(),
  last_started: nullableString,
  last_finished: nullableString,
  last_duration_ms: z.number().nullable(),
  last_error: nullableString,
  /** The crawl queued or running now, or the last one. */
  task: fsTask.nullable(),
});
export type MountIndexStatus = z.infer<typeof mountIndexStatus>;

const usageFolder = z.strictObject({
  path: z.string(),
  size: z.number(),
  files: z.number(),
  folders: z.number(),
});

/** GET /admin/indexes/:mountId/usage: where a mount's bytes are, from its index. */
export const mountIndexUsage = z.strictObject({
  mount_id: z.string(),
  total: usageFolder,
  largestFolders: z.array(usageFolder),
  largestFiles: z.array(z.strictObject({ path: z.string(), size: z.number(), modified: nullableString })),
});
export type MountIndexUsage = z.infer<typeof mountIndexUsage>;

/** GET /fs/archive: the entries inside a ZIP, TAR or TAR.GZ, read without unpacking it. */
export const fsArchiveEntry = z.strictObject({
  path: z.string(),
  is_directory: z.boolean(),
  size: z.number(),
  compressed_size: z.number().nullable(),
  modified: z.string().nullable(),
  /** The name would leave its folder when unpacked (`..`, absolute): listed, never served. */
  unsafe: z.boolean(),
  encrypted: z.boolean(),
});
export const fsArchiveListing = z.strictObject({
  kind: z.enum(["zip", "tar", "tar.gz"]),
  entries: z.array(fsArchiveEntry),
  truncated: z.boolean(),
  total_size: z.number(),
});
export type FsArchiveListing = z.infer<typeof fsArchiveListing>;
export type FsArchiveEntry = z.infer<typeof fsArchiveEntry>;

/** One folder's own settings (admin view; the password only as a flag). */
export const folderSettings = z.strictObject({
  id: z.string(),
  path: z.string(),
  readme: nullableString,
  header: nullableString,
  hide_patterns: z.string(),
  has_password: z.boolean(),
  public_list: z.boolean().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type FolderSettings = z.infer<typeof folderSettings>;
export const folderSettingsList = z.array(folderSettings);

/** GET /fs/folder: what a folder shows above its listing, after inheritance. */
export const folderView = z.strictObject({
  path: z.string(),
  readme: nullableString,
  header: nullableString,
  /** The folder whose password guards this one (display form), or null. */
  locked_at: nullableString,
  /** The caller may edit folder settings (admins). */
  can_manage: z.boolean(),
  /** Visitors without credentials may read this folder (public browsing). */
  public: z.boolean(),
  /** The folder's own settings, for those who may manage them; null when it has none. */
  own: folderSettings.nullable(),
});
export type FolderView = z.infer<typeof folderView>;

/** GET /fs/public: where visitors without credentials may browse (public browsing). */
export const fsPublicInfo = z.strictObject({
  /** The folders where public parts start (display form), in path order; empty: public browsing is off. */
  roots: z.array(z.string()),
  /** WebDAV clients without credentials may read the same part. */
  webdav: z.boolean(),
});
export type FsPublicInfo = z.infer<typeof fsPublicInfo>;

/** POST /fs/unlock: a pass to send back in X-Folder-Token. */
export const folderPass = z.strictObject({ path: z.string(), token: z.string(), expiresAt: z.number() });
export type FolderPass = z.infer<typeof folderPass>;
