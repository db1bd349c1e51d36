import { z } from "zod";
import { STORAGE_TYPES } from "../schemas/storage-configs";
import { fileShare, fileShareUrls } from "./files";

/** What the file-share upload routes answer in `data`. */

const nullableString = z.string().nullable();

/**
 * What upload answers say about the share being made. The share upload answers
 * below are in the one spelling used inside; the server adds 0.7.3's camelCase
 * copies at its edge (server/src/http/wire-aliases.ts).
 */
export const uploadShareSummary = z.strictObject({
  content_type: z.string(),
  has_password: z.boolean(),
  expires_at: nullableString,
  max_views: z.number().nullable(),
  /** The share page's path. */
  url: z.string(),
});
export type UploadShareSummary = z.infer<typeof uploadShareSummary>;

/** POST /s3/presign: where to PUT the bytes; the share is reserved until the commit. */
export const presignedUpload = uploadShareSummary.extend({
  file_id: z.string(),
  upload_url: z.string(),
  upload_headers: z.record(z.string(), z.string()),
  upload_method: z.literal("PUT"),
  storage_path: z.string(),
  s3_url: nullableString,
  slug: z.string(),
  provider_type: nullableString,
  storage_type: z.enum(STORAGE_TYPES),
  upload_expires_at: z.string(),
});
export type PresignedUpload = z.infer<typeof presignedUpload>;

/** POST /url/presign: a presigned upload named after the remote file. */
export const urlPresignedUpload = presignedUpload.extend({
  cors_supported: z.boolean(),
  source_url: z.string(),
});
export type UrlPresignedUpload = z.infer<typeof urlPresignedUpload>;

/** A published share (POST /upload, PUT /upload-direct/:name, POST /s3/commit, /url/commit): the share and its URLs. */
export const publishedFileShare = fileShare.extend(fileShareUrls.shape);
export type PublishedFileShare = z.infer<typeof publishedFileShare>;

/** POST /upload also gives tools (ShareX, curl) the absolute share page and a signed deletion link. */
export const uploadedFileShare = publishedFileShare.extend({
  share_url: z.string(),
  deletion_url: z.string(),
});
export type UploadedFileShare = z.infer<typeof uploadedFileShare>;

/** GET /system/max-upload-size (no sign-in needed). */
export const maxUploadSize = z.strictObject({
  max_upload_size: z.number(),
  max_upload_size_unit: z.string(),
  max_upload_size_bytes: z.number(),
});
export type MaxUploadSize = z.infer<typeof maxUploadSize>;

/** POST /url/info: what the remote server says about a file. */
export const remoteFileInfo = z.strictObject({
  url: z.string(),
  filename: z.string(),
  contentType: z.string(),
  size: z.number().nullable(),
  lastModified: nullableString,
  method: z.enum(["HEAD", "GET"]),
  corsSupported: z.boolean(),
  /** The server answers Range requests (resumable, seekable). */
  rangesSupported: z.boolean(),
});
export type RemoteFileInfo = z.infer<typeof remoteFileInfo>;

/** A URL to PUT one part to: S3's presigned one, or ClipShare's signed one for LOCAL storage. */
export const partUrl = z.strictObject({ partNumber: z.number(), url: z.string() });
export type PartUrl = z.infer<typeof partUrl>;

/** A part the storage already holds. */
export const storedPart = z.strictObject({ partNumber: z.number(), etag: z.string(), size: z.number() });
export type StoredPart = z.infer<typeof storedPart>;

/** POST /files/multipart/init (and /url/multipart/init): the share reserved, and where its parts go. */
export const shareMultipartStarted = uploadShareSummary.extend({
  file_id: z.string(),
  upload_id: z.string(),
  slug: z.string(),
  storage_path: z.string(),
  part_size: z.number(),
  part_count: z.number(),
  total_size: z.number(),
  presigned_urls: z.array(partUrl),
  filename: z.string(),
});
export type ShareMultipartStarted = z.infer<typeof shareMultipartStarted>;

/** POST /url/multipart/init: the browser downloads the remote file and uploads it in parts. */
export const urlMultipartStarted = shareMultipartStarted.extend({
  cors_supported: z.boolean(),
  source_url: z.string(),
});
export type UrlMultipartStarted = z.infer<typeof urlMultipartStarted>;

/** POST /files/multipart/resume: what is stored, and fresh URLs for every part. */
export const shareMultipartResume = z.strictObject({
  parts: z.array(storedPart),
  presigned_urls: z.array(partUrl),
});
export type ShareMultipartResume = z.infer<typeof shareMultipartResume>;

/** POST /files/multipart/complete (and /url/multipart/complete): the published share. */
export const shareMultipartDone = uploadShareSummary.extend({
  success: z.literal(true),
  file_id: z.string(),
  slug: z.string(),
  filename: z.string(),
  size: z.number(),
  etag: nullableString,
});
export type ShareMultipartDone = z.infer<typeof shareMultipartDone>;

/** POST /fs/multipart/init (and POST /fs/upload with use_multipart): where an explorer file's parts go. */
export const fsMultipartStarted = z.strictObject({
  uploadId: z.string(),
  key: z.string(),
  partSize: z.number(),
  partCount: z.number(),
  presignedUrls: z.array(partUrl),
  mount_id: z.string(),
  path: z.string(),
  storage_type: z.string(),
  expiresAt: z.string(),
});
export type FsMultipartStarted = z.infer<typeof fsMultipartStarted>;

/** POST /fs/multipart/resume. */
export const fsMultipartResume = z.strictObject({
  parts: z.array(storedPart),
  presignedUrls: z.array(partUrl),
});
export type FsMultipartResume = z.infer<typeof fsMultipartResume>;

/** POST /fs/multipart/complete. */
export const fsMultipartDone = z.strictObject({
  success: z.literal(true),
  fileName: z.string(),
  size: z.number(),
  contentType: z.string(),
  s3Path: z.string(),
  s3Url: nullableString,
  etag: nullableString,
  location: z.string(),
  message: z.string(),
});
export type FsMultipartDone = z.infer<typeof fsMultipartDone>;
