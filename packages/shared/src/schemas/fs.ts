import { z } from "zod";
import { SEARCH_DEFAULT_LIMIT, SEARCH_MIN_LENGTH } from "../constants";
import { looseBoolean, looseInt } from "./common";
import { uploadOptions } from "./files";
import { onFirstUse } from "./on-first-use";

/**
 * Request shapes of the file-system API. Field names
 * follow the 0.7.3 wire contract (camelCase where it used camelCase). Paths
 * are only checked for presence and length here; the server normalizes them
 * once and refuses traversal there.
 */
export const FS_PATH_MAX = 2048;
/** Entries per listing page: the drivers' page size. */
export const FS_LIST_MAX_LIMIT = 1000;
export const FS_BATCH_MAX = 1000;
export const SEARCH_MAX_LIMIT = 200;
/** `index`: a crawl of one mount into the search index. */
export const TASK_TYPES = ["copy", "delete", "upload", "download", "index", "notify"] as const;
export const TASK_STATUSES = ["pending", "running", "completed", "failed", "cancelled", "partial"] as const;
export type TaskType = (typeof TASK_TYPES)[number];
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** Longer inputs are refused outright; the server then holds paths to its own limit (1024 bytes). */
const PATH_INPUT_MAX = FS_PATH_MAX * 4;
const pathField = (message: string) =>
  z.string({ error: message }).min(1, message).max(PATH_INPUT_MAX, "Path is too long");

const emptyToUndefined = (v: unknown) => (v === "" || v === null || v === "null" ? undefined : v);

export const fsListQuery = onFirstUse(() =>
  z.object({
    path: z.string().max(PATH_INPUT_MAX, "Path is too long").optional().default("/"),
    limit: z.preprocess(
      emptyToUndefined,
      looseInt
        .refine((v) => v >= 1 && v <= FS_LIST_MAX_LIMIT, `limit must be between 1 and ${FS_LIST_MAX_LIMIT}`)
        .optional(),
    ),
    cursor: z.preprocess(emptyToUndefined, z.string().max(4096).optional()),
    /** Skip the directory cache and refill it. */
    refresh: z.preprocess(emptyToUndefined, looseBoolean.optional()),
    /** Folder sizes and counts from the search index, where the mount has a complete one. */
    sizes: z.preprocess(emptyToUndefined, looseBoolean.optional()),
  }),
);

export const fsPathQuery = onFirstUse(() => z.object({ path: pathField("Please provide file path") }));

/** Which entry of an archive, and whether as a download. */
const archiveEntryFields = () => ({
  entry: z
    .string({ error: "Please provide the entry" })
    .min(1, "Please provide the entry")
    .max(PATH_INPUT_MAX),
  download: z.preprocess(emptyToUndefined, looseBoolean.optional()),
});

/** GET /file-archive/:slug/entry: one entry of a shared archive. */
export const archiveEntryQuery = onFirstUse(() =>
  z.object({ ...archiveEntryFields(), password: z.string().max(1024).optional() }),
);

/** One entry inside an archive file of the tree (GET /fs/archive/entry). */
export const fsArchiveEntryQuery = onFirstUse(() =>
  z.object({ path: pathField("Please provide file path"), ...archiveEntryFields() }),
);

export const fsMkdirRequest = onFirstUse(() =>
  z.object({ path: pathField("Please provide directory path") }),
);

export const fsBatchRemoveRequest = onFirstUse(() =>
  z.object({
    paths: z
      .array(pathField("Please provide a valid path array"), { error: "Please provide a valid path array" })
      .min(1, "Please provide a valid path array")
      .max(FS_BATCH_MAX, `At most ${FS_BATCH_MAX} paths at once`),
  }),
);

export const fsRenameRequest = onFirstUse(() =>
  z.object({
    oldPath: pathField("Please provide old and new path"),
    newPath: pathField("Please provide old and new path"),
  }),
);

export const fsUpdateRequest = onFirstUse(() =>
  z.object({
    path: pathField("Please provide file path and content"),
    content: z.string({ error: "Please provide file path and content" }),
  }),
);

export const fsFileLinkQuery = onFirstUse(() =>
  z.object({
    path: pathField("Please provide file path"),
    force_download: z.preprocess(emptyToUndefined, looseBoolean.optional()),
    /** Seconds; absent or "null" = the storage's default. */
    expires_in: z.preprocess(
      emptyToUndefined,
      looseInt.refine((v) => v >= 1 && v <= 7 * 86400, "expires_in must be 1-604800 seconds").optional(),
    ),
  }),
);

const fileNameField = onFirstUse(() =>
  z
    .string({ error: "Please provide upload path and file name" })
    .trim()
    .min(1, "Please provide upload path and file name")
    .max(255, "File name may be at most 255 characters"),
);

const sizeField = onFirstUse(() => looseInt.refine((v) => v >= 0, "fileSize must be a non-negative integer"));

export const fsPresignRequest = onFirstUse(() =>
  z.object({
    path: pathField("Please provide upload path and file name"),
    fileName: fileNameField,
    contentType: z.string().max(255).optional(),
    fileSize: z.preprocess(emptyToUndefined, sizeField.optional()),
  }),
);

export const fsPresignCommitRequest = onFirstUse(() =>
  z.object({
    targetPath: pathField("Please provide complete upload info"),
    mountId: z.string().max(100).optional(),
    fileId: z.string().max(100).optional(),
    fileSize: z.preprocess(emptyToUndefined, sizeField.optional()),
    etag: z.string().max(200).nullable().optional(),
    contentType: z.string().max(255).optional(),
  }),
);

export const fsMultipartInitRequest = onFirstUse(() =>
  z.object({
    path: pathField("Missing required parameters"),
    fileName: fileNameField,
    fileSize: z.preprocess(emptyToUndefined, sizeField.optional()),
    partSize: z.preprocess(
      emptyToUndefined,
      looseInt.refine((v) => v >= 1 && v <= 5 * 1024 ** 3, "partSize must be 1 byte to 5 GiB").optional(),
    ),
    partCount: z.preprocess(
      emptyToUndefined,
      looseInt.refine((v) => v >= 1 && v <= 10_000, "partCount must be 1-10000").optional(),
    ),
    contentType: z.string().max(255).optional(),
  }),
);

export const multipartPartEtag = onFirstUse(() =>
  z.object({
    partNumber: looseInt.refine((v) => v >= 1 && v <= 10_000, "partNumber must be 1-10000"),
    etag: z.string().max(200).optional(),
    ETag: z.string().max(200).optional(),
  }),
);

export const fsMultipartCompleteRequest = onFirstUse(() =>
  z.object({
    path: pathField("Missing required parameters"),
    uploadId: z.string({ error: "Missing required parameters" }).min(1).max(1024),
    parts: z.array(multipartPartEtag, { error: "Missing required parameters" }).min(1).max(10_000),
    fileName: fileNameField.optional(),
    fileSize: z.preprocess(emptyToUndefined, sizeField.optional()),
  }),
);

export const fsMultipartAbortRequest = onFirstUse(() =>
  z.object({
    path: pathField("Missing required parameters"),
    uploadId: z.string({ error: "Missing required parameters" }).min(1).max(1024),
    fileName: fileNameField.optional(),
  }),
);

/** POST /fs/multipart/resume names the upload like abort does. */
export const fsMultipartResumeRequest = fsMultipartAbortRequest;

export const fsCopyItem = onFirstUse(() =>
  z.object({
    sourcePath: pathField("Please provide a valid copy item array"),
    targetPath: pathField("Please provide a valid copy item array"),
  }),
);

export const fsBatchCopyRequest = onFirstUse(() =>
  z.object({
    items: z
      .array(fsCopyItem, { error: "Please provide a valid copy item array" })
      .min(1, "Please provide a valid copy item array")
      .max(FS_BATCH_MAX, `At most ${FS_BATCH_MAX} items at once`),
    /** true (default): an existing target is skipped; false: the copy gets a free name like `a(1).txt`. */
    skipExisting: looseBoolean.optional().default(true),
    /** 0.7.3 flow: cross-storage items come back as URL pairs for the client to copy, then batch-copy-commit. */
    clientSideCopy: looseBoolean.optional().default(false),
  }),
);

export const fsBatchCopyCommitRequest = onFirstUse(() =>
  z.object({
    targetMountId: z.string({ error: "Please provide targetMountId" }).min(1).max(100),
    files: z
      .array(
        z.object({
          targetPath: pathField("Please provide targetPath"),
          s3Path: z.string().max(FS_PATH_MAX).optional(),
          contentType: z.string().max(255).optional(),
          fileSize: z.preprocess(emptyToUndefined, sizeField.optional()),
          etag: z.string().max(200).nullable().optional(),
        }),
        { error: "No files to copy" },
      )
      .min(1, "No files to copy")
      .max(10_000),
  }),
);

/** A file share for an existing explorer file: the share options of uploads, without storage choices. */
export const fsCreateShareRequest = onFirstUse(() =>
  uploadOptions
    .unwrap()
    .pick({
      slug: true,
      remark: true,
      password: true,
      expires_in: true,
      max_views: true,
      use_proxy: true,
      no_log: true,
    })
    .extend({ path: pathField("Please provide file path") }),
);

export const SEARCH_SCOPES = ["global", "mount", "directory"] as const;

export const fsSearchQuery = onFirstUse(() =>
  z.object({
    q: z
      .string({ error: `Search query needs at least ${SEARCH_MIN_LENGTH} characters` })
      .trim()
      .min(SEARCH_MIN_LENGTH, `Search query needs at least ${SEARCH_MIN_LENGTH} characters`)
      .max(200, "Search query may be at most 200 characters"),
    scope: z.enum(SEARCH_SCOPES, { error: "Invalid search scope" }).optional().default("global"),
    limit: z.preprocess(
      emptyToUndefined,
      looseInt
        .refine((v) => v >= 1 && v <= SEARCH_MAX_LIMIT, `limit must be 1-${SEARCH_MAX_LIMIT}`)
        .optional()
        .default(SEARCH_DEFAULT_LIMIT),
    ),
    offset: z.preprocess(
      emptyToUndefined,
      looseInt
        .refine((v) => v >= 0, "offset must be non-negative")
        .optional()
        .default(0),
    ),
    mount_id: z.preprocess(emptyToUndefined, z.string().max(100).optional()),
    path: z.preprocess(emptyToUndefined, z.string().max(FS_PATH_MAX).optional()),
    /** Filters: only files or only directories, a size range in bytes, a modification window. */
    type: z.preprocess(
      emptyToUndefined,
      z.enum(["file", "directory"], { error: "type must be file or directory" }).optional(),
    ),
    min_size: z.preprocess(emptyToUndefined, sizeFilter("min_size").optional()),
    max_size: z.preprocess(emptyToUndefined, sizeFilter("max_size").optional()),
    modified_after: z.preprocess(emptyToUndefined, dateFilter("modified_after").optional()),
    modified_before: z.preprocess(emptyToUndefined, dateFilter("modified_before").optional()),
  }),
);

const sizeFilter = (name: string) =>
  looseInt.refine((v) => v >= 0 && v <= Number.MAX_SAFE_INTEGER, `${name} must be a non-negative integer`);

/** A date or date-time; answered as the ISO instant it names. */
const dateFilter = (name: string) =>
  z
    .string({ error: `${name} must be a date` })
    .max(40)
    .refine(
      (v) => /^\d{4}-\d{2}-\d{2}/.test(v) && !Number.isNaN(Date.parse(v)),
      `${name} must be a date (ISO 8601)`,
    )
    .transform((v) => new Date(v).toISOString());

export const fsZipRequest = onFirstUse(() =>
  z.object({
    paths: z
      .array(pathField("Please provide the paths to download"), {
        error: "Please provide the paths to download",
      })
      .min(1, "Please provide the paths to download")
      .max(FS_BATCH_MAX, `At most ${FS_BATCH_MAX} paths at once`),
    name: z.string().trim().max(200, "name may be at most 200 characters").optional(),
  }),
);

export const taskListQuery = onFirstUse(() =>
  z.object({
    limit: z.preprocess(
      emptyToUndefined,
      looseInt
        .refine((v) => v >= 1 && v <= 200, "limit must be 1-200")
        .optional()
        .default(50),
    ),
    offset: z.preprocess(
      emptyToUndefined,
      looseInt
        .refine((v) => v >= 0, "offset must be non-negative")
        .optional()
        .default(0),
    ),
    status: z.preprocess(emptyToUndefined, z.enum(TASK_STATUSES).optional()),
  }),
);

// ---- thumbnails (explorer files and file shares) ----------------------------

/** The boxes a thumbnail fits in, pixels (a grid tile, a poster): a fixed few keep the server's cache bounded. */
/** Thumbnail boxes: list tiles, previews, and the view size of photos browsers cannot show (HEIC). */
export const THUMBNAIL_SIZES = [256, 1024, 2048] as const;
export type ThumbnailSize = (typeof THUMBNAIL_SIZES)[number];

/**
 * `size` picks the box (default 256); `v` is a version marker the client puts
 * in the URL (the file's modification time), so a URL carrying one may be cached long.
 */
export const thumbnailQuery = onFirstUse(() =>
  z.object({
    size: z.preprocess(
      emptyToUndefined,
      z
        .enum(["256", "1024", "2048"], { error: "size must be 256, 1024 or 2048" })
        .optional()
        .transform((v): ThumbnailSize => (v === undefined ? 256 : (Number(v) as ThumbnailSize)))
        .describe("The box the thumbnail fits in, pixels (default 256)"),
    ),
    v: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .max(128)
        .optional()
        .describe(
          "The file's version (e.g. its modification time): with it the answer may be cached for a year",
        ),
    ),
  }),
);

export const fsThumbnailQuery = onFirstUse(() =>
  thumbnailQuery.unwrap().extend({ path: pathField("Please provide file path") }),
);

/** Folder settings limits (docs/folder-settings.md). */
export const FOLDER_README_MAX = 64 * 1024;
export const FOLDER_HEADER_MAX = 500;
export const FOLDER_HIDE_MAX = 4096;
export const FOLDER_PASSWORD_MAX = 256;

/**
 * PUT /admin/folder-settings: the settings of one folder, replaced whole. A
 * null (or absent) field means "as the folder above"; `password` absent keeps
 * the current one, null removes it.
 */
export const folderSettingsRequest = onFirstUse(() =>
  z.object({
    path: pathField("Please provide the folder path"),
    readme: z.string().max(FOLDER_README_MAX, "The readme is too long").nullable().optional(),
    header: z.string().max(FOLDER_HEADER_MAX, "The header is too long").nullable().optional(),
    hide_patterns: z.string().max(FOLDER_HIDE_MAX, "Too many hide patterns").optional(),
    password: z.string().min(1).max(FOLDER_PASSWORD_MAX).nullable().optional(),
    public_list: z.boolean().nullable().optional(),
  }),
);

/** POST /fs/unlock: a folder's password, for a pass (X-Folder-Token) to it. */
export const fsUnlockRequest = onFirstUse(() =>
  z.object({
    path: pathField("Please provide the folder path"),
    password: z.string({ error: "Please provide the password" }).min(1).max(FOLDER_PASSWORD_MAX),
  }),
);
