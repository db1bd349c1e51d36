import { z } from "zod";
import { listPagination } from "./pastes";

/** What the file-request routes answer in `data`. */

/** open: takes uploads; closed by its creator; expired; full: every file slot or byte is taken. */
export const FILE_REQUEST_STATES = ["open", "closed", "expired", "full"] as const;
export type FileRequestState = (typeof FILE_REQUEST_STATES)[number];

const limits = {
  max_files: z.number().nullable(),
  max_file_bytes: z.number().nullable(),
  max_total_bytes: z.number().nullable(),
  allowed_types: z.array(z.string()).nullable(),
};

/** A request as its creator manages it. */
export const fileRequest = z.strictObject({
  id: z.string(),
  slug: z.string(),
  /** The visitor page's path. */
  url: z.string(),
  title: z.string(),
  message: z.string().nullable(),
  target_kind: z.enum(["share", "folder"]),
  storage_config_id: z.string().nullable(),
  folder_path: z.string().nullable(),
  ...limits,
  expires_at: z.string().nullable(),
  has_password: z.boolean(),
  show_received: z.boolean(),
  status: z.enum(["open", "closed"]),
  state: z.enum(FILE_REQUEST_STATES),
  /** Slots taken by uploads received or in flight. */
  reserved_files: z.number(),
  reserved_bytes: z.number(),
  created_by: z.string(),
  /** The user the request belongs to, and their name. */
  owner_id: z.string().nullable(),
  owner_name: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type FileRequest = z.infer<typeof fileRequest>;

/** One upload into a request, as its creator sees it. */
export const fileRequestUpload = z.strictObject({
  id: z.string(),
  status: z.enum(["pending", "received"]),
  filename: z.string(),
  size: z.number(),
  /** The file share it became (share targets; null once that share is deleted). */
  file_id: z.string().nullable(),
  file_slug: z.string().nullable(),
  /** The file's path in the explorer (folder targets). */
  path: z.string().nullable(),
  uploader_name: z.string().nullable(),
  note: z.string().nullable(),
  created_at: z.string(),
});
export type FileRequestUpload = z.infer<typeof fileRequestUpload>;

export const fileRequestDetail = fileRequest.extend({ uploads: z.array(fileRequestUpload) });
export type FileRequestDetail = z.infer<typeof fileRequestDetail>;

/** GET /requests. */
export const fileRequestList = z.strictObject({
  requests: z.array(fileRequest),
  pagination: listPagination,
});
export type FileRequestList = z.infer<typeof fileRequestList>;

/** A file a visitor sees as received. */
export const receivedFile = z.strictObject({
  filename: z.string(),
  size: z.number(),
  received_at: z.string(),
});
export type ReceivedFile = z.infer<typeof receivedFile>;

/** GET /public/requests/:slug: what the visitor's page shows. Locked requests hide their message. */
export const publicFileRequest = z.strictObject({
  slug: z.string(),
  title: z.string(),
  message: z.string().nullable(),
  state: z.enum(FILE_REQUEST_STATES),
  password_required: z.boolean(),
  /** The password was given (or none is needed): uploads may start. */
  unlocked: z.boolean(),
  ...limits,
  remaining_files: z.number().nullable(),
  remaining_bytes: z.number().nullable(),
  expires_at: z.string().nullable(),
  /** What arrived so far, when the creator lets uploaders see it (and the request is unlocked). */
  received: z.array(receivedFile).nullable(),
});
export type PublicFileRequest = z.infer<typeof publicFileRequest>;

export const requestUnlocked = z.strictObject({ token: z.string(), expires_in: z.number() });

export const requestPartUrls = z.array(z.strictObject({ partNumber: z.number(), url: z.string() }));

/** POST /public/requests/:slug/uploads: a slot is held; PUT the parts, then complete. */
export const requestUploadStarted = z.strictObject({
  upload_id: z.string(),
  part_size: z.number(),
  part_count: z.number(),
  presigned_urls: requestPartUrls,
  expires_at: z.string(),
});
export type RequestUploadStarted = z.infer<typeof requestUploadStarted>;

export const requestUploadResume = z.strictObject({
  parts: z.array(z.strictObject({ partNumber: z.number(), etag: z.string(), size: z.number() })),
  presigned_urls: requestPartUrls,
});
export type RequestUploadResume = z.infer<typeof requestUploadResume>;
