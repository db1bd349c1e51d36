import { z } from "zod";
import { STORAGE_TYPES } from "../schemas/storage-configs";
import { listPagination, lockedShare, SHARE_STATES } from "./pastes";

/** What the file-share API answers in `data`. */

const nullableString = z.string().nullable();

/** A file share for its owner (GET /files rows, PUT /files/:id): everything but the password hash. */
export const fileShare = z.strictObject({
  id: z.string(),
  slug: z.string(),
  filename: z.string(),
  mimetype: z.string(),
  size: z.number(),
  /** End-to-end encrypted share: its sealed name and type; `filename`, `mimetype` and `size` describe the ciphertext. */
  encrypted_meta: nullableString,
  etag: nullableString,
  remark: nullableString,
  storage_config_id: nullableString,
  storage_type: z.enum(STORAGE_TYPES),
  storage_path: z.string(),
  /** Explorer path when the share points at a mounted file. */
  file_path: nullableString,
  mount_id: nullableString,
  storage_config_name: nullableString,
  storage_provider_type: nullableString,
  has_password: z.boolean(),
  expires_at: nullableString,
  max_views: z.number().nullable(),
  views: z.number(),
  remaining_views: z.number().nullable(),
  is_expired: z.boolean(),
  state: z.enum(SHARE_STATES),
  use_proxy: z.boolean(),
  status: z.string(),
  /** An unfinished upload (admin lists only): "uploading" while its session lives, then "incomplete". */
  upload_state: z.enum(["uploading", "incomplete"]).nullable(),
  upload_expires_at: nullableString,
  created_by: z.string(),
  key_name: nullableString,
  /** The user the share belongs to, and their name. */
  owner_id: nullableString,
  owner_name: nullableString,
  created_at: z.string(),
  updated_at: z.string(),
  /** The share page's path. */
  url: z.string(),
});
export type FileShare = z.infer<typeof fileShare>;

/** Proxy URLs carrying an access token. */
export const fileShareUrls = z.strictObject({
  previewUrl: z.string(),
  downloadUrl: z.string(),
  use_proxy: z.boolean(),
});
export type FileShareUrls = z.infer<typeof fileShareUrls>;

/** GET /files/:id: the share, its tokened URLs and the plain proxy links owners hand out. */
export const fileShareDetail = fileShare.extend({
  urls: fileShareUrls.extend({ proxyPreviewUrl: z.string(), proxyDownloadUrl: z.string() }),
});
export type FileShareDetail = z.infer<typeof fileShareDetail>;

/** GET /files. */
export const fileShareList = z.strictObject({
  files: z.array(fileShare),
  pagination: listPagination,
});
export type FileShareList = z.infer<typeof fileShareList>;

/** POST /fs/create-share: a share of an explorer file. */
export const createdFileShare = fileShare.extend({
  ...fileShareUrls.shape,
  fileId: z.string(),
  success: z.literal(true),
  message: z.string(),
});
export type CreatedFileShare = z.infer<typeof createdFileShare>;

/** DELETE /files/batch-delete. */
export const fileBatchDeleteResult = z.strictObject({
  success: z.number(),
  failed: z.array(z.strictObject({ id: z.string(), error: z.string() })),
});
export type FileBatchDeleteResult = z.infer<typeof fileBatchDeleteResult>;

/** What a visitor sees of a file share before its password: only what the password prompt needs. */
const publicFileLocked = lockedShare;
const publicFileShown = z.strictObject({
  id: z.string(),
  slug: z.string(),
  filename: z.string(),
  mimetype: z.string(),
  size: z.number(),
  encrypted_meta: nullableString,
  remark: nullableString,
  created_at: z.string(),
  created_by: z.string(),
  requires_password: z.literal(false),
  has_password: z.boolean(),
  views: z.number(),
  max_views: z.number().nullable(),
  remaining_views: z.number().nullable(),
  expires_at: nullableString,
  is_office: z.boolean(),
  use_proxy: z.boolean(),
});
const publicFileOpen = publicFileShown.extend({ ...fileShareUrls.shape, accessToken: z.string() });

/**
 * GET /public/files/:slug and POST …/verify. A protected share shows nothing
 * about its file (name, id, owner) until the password is right; URLs (and the
 * access token the routes also set as a cookie) come only once it may be seen.
 */
export const publicFile = z.union([publicFileOpen, publicFileShown, publicFileLocked]);
export type LockedPublicFile = z.infer<typeof publicFileLocked>;
/** An unlocked share's metadata, with its URLs when the visitor may fetch the content. */
export type PublicFile = z.infer<typeof publicFileShown> &
  Partial<Omit<z.infer<typeof publicFileOpen>, keyof z.infer<typeof publicFileShown>>>;

/** GET /office-preview/:slug (0.7.3 clients read the same fields at the top level too). */
export const officeViewerUrls = z.strictObject({
  url: z.string(),
  microsoft: z.string(),
  google: z.string(),
  filename: z.string(),
  mimetype: z.string(),
  expires_in: z.number(),
  is_temporary: z.literal(true),
});
export type OfficeViewerUrls = z.infer<typeof officeViewerUrls>;
