/**
 * Every /api route, with the shared schemas of what it takes and what it
 * answers in `data`. The OpenAPI document is built from this table, and a
 * test checks that it names exactly the routes the app registers.
 */
import * as w from "@clipshare/shared";
import { z } from "zod";

export type Access = "public" | "admin" | "key";

export interface Operation {
  summary: string;
  tag: string;
  /** Who may call it: anyone, the administrator, or a signed-in caller (admin or an API key with the bit). */
  access: Access;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The body is a file (raw bytes or a multipart form), not JSON. */
  upload?: "raw" | "form";
  /** The schema of `data` in the JSON envelope; absent for an answer whose `data` is null. */
  data?: z.ZodType;
  /** The answer is the file itself (plain text, or a JSON document), not the JSON envelope. */
  file?: "bytes" | "text" | "json";
}

const list = <T extends z.ZodType>(schema: T) => z.array(schema);
const counted = (field: string) => z.strictObject({ [field]: z.number() });
const pageQuery = z.object({
  limit: z.number().optional(),
  offset: z.number().optional(),
  page: z.number().optional(),
  search: z.string().optional(),
});

/** "METHOD /path" (Hono's path syntax, below /api) → the operation. */
export const OPERATIONS: Record<string, Operation> = {
  // ---- system and sign-in
  "GET /health": {
    summary: "Liveness and database check",
    tag: "System",
    access: "public",
    data: z.unknown(),
  },
  "GET /version": { summary: "Name and version", tag: "System", access: "public", data: z.unknown() },
  "GET /system/max-upload-size": {
    summary: "The maximum upload size",
    tag: "System",
    access: "public",
    data: w.maxUploadSize,
  },
  "POST /admin/login": {
    summary: "Administrator sign-in",
    tag: "Sign-in",
    access: "public",
    body: w.loginRequest,
    data: w.adminLogin,
  },
  "POST /admin/logout": { summary: "Revoke this admin token", tag: "Sign-in", access: "admin" },
  "GET /test/admin-token": { summary: "Check an admin token", tag: "Sign-in", access: "admin" },
  "GET /test/api-key": {
    summary: "Who the credentials are",
    tag: "Sign-in",
    access: "key",
    data: w.credentialCheck,
  },
  "POST /admin/change-password": {
    summary: "Change the administrator's name or password",
    tag: "Sign-in",
    access: "admin",
    body: w.changePasswordRequest,
  },

  // ---- administration
  "GET /admin/api-keys": { summary: "List API keys", tag: "API keys", access: "admin", data: list(w.apiKey) },
  "POST /admin/api-keys": {
    summary: "Create an API key (the key is shown once)",
    tag: "API keys",
    access: "admin",
    body: w.createApiKeyRequest,
    data: w.createdApiKey,
  },
  "GET /admin/api-keys/:id": { summary: "One API key", tag: "API keys", access: "admin", data: w.apiKey },
  "PUT /admin/api-keys/:id": {
    summary: "Edit an API key",
    tag: "API keys",
    access: "admin",
    body: w.updateApiKeyRequest,
    data: w.apiKey,
  },
  "DELETE /admin/api-keys/:id": { summary: "Delete an API key", tag: "API keys", access: "admin" },
  "GET /admin/system-settings": {
    summary: "System settings",
    tag: "Settings",
    access: "admin",
    data: list(w.systemSettingRow),
  },
  "PUT /admin/system-settings": {
    summary: "Change system settings",
    tag: "Settings",
    access: "admin",
    body: w.updateSystemSettingsRequest,
    data: list(w.systemSettingRow),
  },
  "GET /admin/proxy-sign-settings": {
    summary: "Proxy link signing",
    tag: "Settings",
    access: "admin",
    data: w.proxySignSettings,
  },
  "POST /admin/proxy-sign-settings": {
    summary: "Change proxy link signing",
    tag: "Settings",
    access: "admin",
    body: w.proxySignSettingsRequest,
    data: w.proxySignSettings,
  },
  "GET /admin/dashboard/stats": {
    summary: "Dashboard figures",
    tag: "Dashboard",
    access: "admin",
    data: w.dashboardStats,
  },
  "GET /admin/cache/stats": {
    summary: "Explorer cache counters",
    tag: "Dashboard",
    access: "admin",
    data: w.cacheStats,
  },
  "POST /admin/cache/clear": {
    summary: "Clear explorer caches",
    tag: "Dashboard",
    access: "admin",
    body: w.cacheClearRequest,
    data: w.cacheClearResult,
  },
  "POST /user/cache/clear": {
    summary: "Clear the caches below the key's base path",
    tag: "Mounts",
    access: "key",
    body: w.cacheClearRequest,
    data: w.cacheClearResult,
  },
  "GET /admin/mounts": { summary: "List mounts", tag: "Mounts", access: "admin", data: list(w.mount) },
  "POST /admin/mounts": {
    summary: "Create a mount",
    tag: "Mounts",
    access: "admin",
    body: w.createMountRequest,
    data: w.mount,
  },
  "GET /admin/mounts/:id": { summary: "One mount", tag: "Mounts", access: "admin", data: w.mount },
  "PUT /admin/mounts/:id": {
    summary: "Edit a mount",
    tag: "Mounts",
    access: "admin",
    body: w.updateMountRequest,
    data: w.mount,
  },
  "DELETE /admin/mounts/:id": { summary: "Delete a mount", tag: "Mounts", access: "admin" },
  "GET /user/mounts": {
    summary: "Mounts the key can see",
    tag: "Mounts",
    access: "key",
    data: list(w.mount),
  },
  "GET /user/mounts/:id": {
    summary: "One mount the key can see",
    tag: "Mounts",
    access: "key",
    data: w.mount,
  },
  "GET /s3-configs": {
    summary: "List storage configs",
    tag: "Storage",
    access: "key",
    data: list(w.storageConfig),
  },
  "POST /s3-configs": {
    summary: "Create a storage config",
    tag: "Storage",
    access: "admin",
    body: w.createStorageConfigRequest,
    data: w.storageConfig,
  },
  "GET /s3-configs/:id": {
    summary: "One storage config",
    tag: "Storage",
    access: "key",
    data: w.storageConfig,
  },
  "PUT /s3-configs/:id": {
    summary: "Edit a storage config",
    tag: "Storage",
    access: "admin",
    body: w.updateStorageConfigRequest,
    data: w.storageConfig,
  },
  "DELETE /s3-configs/:id": { summary: "Delete a storage config", tag: "Storage", access: "admin" },
  "PUT /s3-configs/:id/set-default": {
    summary: "Make a config the default",
    tag: "Storage",
    access: "admin",
  },
  "POST /s3-configs/:id/test": {
    summary: "Check that the storage works (write, read, list, presign, CORS)",
    tag: "Storage",
    access: "admin",
    data: w.storageTestOutcome,
  },

  // ---- pastes
  "POST /paste": {
    summary: "Create a paste",
    tag: "Pastes",
    access: "key",
    body: w.createPasteRequest,
    data: w.createdPaste,
  },
  "GET /paste/:slug": {
    summary: "View a paste (counts a view)",
    tag: "Pastes",
    access: "public",
    data: w.pasteVisit,
  },
  "POST /paste/:slug": {
    summary: "Open a password-protected paste",
    tag: "Pastes",
    access: "public",
    body: w.pastePasswordRequest,
    data: w.pasteVisit,
  },
  "GET /raw/:slug": { summary: "A paste as plain text", tag: "Pastes", access: "public", file: "text" },
  "GET /pastes": {
    summary: "List own pastes (the admin: all)",
    tag: "Pastes",
    access: "key",
    query: pageQuery,
    data: list(w.pasteListRow),
  },
  "GET /pastes/:id": {
    summary: "One paste with its content",
    tag: "Pastes",
    access: "key",
    data: w.pasteDetail,
  },
  "PUT /pastes/:id": {
    summary: "Edit a paste",
    tag: "Pastes",
    access: "key",
    body: w.updatePasteRequest,
    data: w.pasteListRow,
  },
  "DELETE /pastes/batch-delete": {
    summary: "Delete pastes",
    tag: "Pastes",
    access: "key",
    body: w.idListRequest,
    data: counted("deleted"),
  },
  "POST /pastes/clear-expired": {
    summary: "Delete own expired pastes",
    tag: "Pastes",
    access: "key",
    data: counted("cleared"),
  },
  "POST /admin/pastes/clear-expired": {
    summary: "Delete every expired paste",
    tag: "Pastes",
    access: "admin",
    data: counted("cleared"),
  },

  // ---- file shares
  "GET /files": {
    summary: "List own file shares (the admin: all)",
    tag: "File shares",
    access: "key",
    query: pageQuery,
    data: w.fileShareList,
  },
  "GET /files/:id": { summary: "One file share", tag: "File shares", access: "key", data: w.fileShareDetail },
  "PUT /files/:id": {
    summary: "Edit a file share",
    tag: "File shares",
    access: "key",
    body: w.updateFileRequest,
    data: w.fileShare,
  },
  "DELETE /files/batch-delete": {
    summary: "Delete file shares (and their files)",
    tag: "File shares",
    access: "key",
    body: w.batchDeleteFilesRequest,
    data: w.fileBatchDeleteResult,
  },
  "POST /upload": {
    summary: "Upload a file share through the server (multipart form)",
    tag: "File shares",
    access: "key",
    upload: "form",
    data: w.publishedFileShare,
  },
  "PUT /upload-direct/:filename": {
    summary: "Upload a file share as the raw body",
    tag: "File shares",
    access: "key",
    query: w.uploadOptions,
    upload: "raw",
    data: w.publishedFileShare,
  },
  "POST /s3/presign": {
    summary: "Reserve a file share and get a URL to PUT its bytes to",
    tag: "File shares",
    access: "key",
    body: w.presignRequest,
    data: w.presignedUpload,
  },
  "PUT /s3/local-upload/:session": {
    summary: "The signed upload URL of LOCAL storage",
    tag: "File shares",
    access: "public",
    upload: "raw",
    data: z.unknown(),
  },
  "POST /s3/commit": {
    summary: "Publish a presigned upload",
    tag: "File shares",
    access: "key",
    body: w.commitRequest,
    data: w.publishedFileShare,
  },
  "POST /files/multipart/init": {
    summary: "Start a file share uploaded in parts",
    tag: "File shares",
    access: "key",
    body: w.shareMultipartInitRequest,
    data: w.shareMultipartStarted,
  },
  "PUT /files/multipart/part": {
    summary: "The signed part URL of LOCAL storage",
    tag: "File shares",
    access: "public",
    upload: "raw",
    data: z.unknown(),
  },
  "POST /files/multipart/resume": {
    summary: "Parts stored so far and fresh part URLs",
    tag: "File shares",
    access: "key",
    body: w.shareMultipartRef,
    data: w.shareMultipartResume,
  },
  "POST /files/multipart/complete": {
    summary: "Assemble the parts and publish the share",
    tag: "File shares",
    access: "key",
    body: w.shareMultipartCompleteRequest,
    data: w.shareMultipartDone,
  },
  "POST /files/multipart/abort": {
    summary: "Abort an upload in parts",
    tag: "File shares",
    access: "key",
    body: w.shareMultipartRef,
    data: z.unknown(),
  },
  "GET /public/files/:slug": {
    summary: "A file share's page data (counts a view)",
    tag: "File shares",
    access: "public",
    data: w.publicFile,
  },
  "POST /public/files/:slug/verify": {
    summary: "Open a password-protected file share",
    tag: "File shares",
    access: "public",
    body: w.filePasswordRequest,
    data: w.publicFile,
  },
  "GET /file-view/:slug": {
    summary: "The shared file, inline",
    tag: "File shares",
    access: "public",
    file: "bytes",
  },
  "GET /file-download/:slug": {
    summary: "The shared file, as a download",
    tag: "File shares",
    access: "public",
    file: "bytes",
  },
  "GET /office-preview/:slug": {
    summary: "Office viewer URLs for a shared document",
    tag: "File shares",
    access: "public",
    data: w.officeViewerUrls,
  },

  // ---- URL uploads
  "POST /url/info": {
    summary: "What a remote URL holds",
    tag: "URL upload",
    access: "key",
    body: w.urlInfoRequest,
    data: w.remoteFileInfo,
  },
  "GET /url/proxy": {
    summary: "The remote file through the server (no CORS at the source)",
    tag: "URL upload",
    access: "key",
    query: w.urlInfoRequest,
    file: "bytes",
  },
  "POST /url/presign": {
    summary: "Reserve a share for a remote file",
    tag: "URL upload",
    access: "key",
    body: w.urlPresignRequest,
    data: w.urlPresignedUpload,
  },
  "POST /url/commit": {
    summary: "Publish a URL upload",
    tag: "URL upload",
    access: "key",
    body: w.commitRequest,
    data: w.publishedFileShare,
  },
  "POST /url/cancel": {
    summary: "Drop a URL upload that was not committed",
    tag: "URL upload",
    access: "key",
    body: w.urlCancelRequest,
    data: z.unknown(),
  },
  "POST /url/multipart/init": {
    summary: "Start a URL upload in parts",
    tag: "URL upload",
    access: "key",
    body: w.urlMultipartInitRequest,
    data: w.urlMultipartStarted,
  },
  "POST /url/multipart/complete": {
    summary: "Finish a URL upload in parts",
    tag: "URL upload",
    access: "key",
    body: w.shareMultipartCompleteRequest,
    data: w.shareMultipartDone,
  },
  "POST /url/multipart/abort": {
    summary: "Abort a URL upload in parts",
    tag: "URL upload",
    access: "key",
    body: w.shareMultipartRef,
    data: z.unknown(),
  },
  "POST /url/fetch": {
    summary: "Fetch a remote file on the server (a task)",
    tag: "URL upload",
    access: "key",
    body: w.urlFetchRequest,
    data: w.fsTask,
  },

  // ---- file system
  "GET /fs/list": {
    summary: "List a directory",
    tag: "File system",
    access: "key",
    query: w.fsListQuery,
    data: w.fsListing,
  },
  "GET /fs/get": {
    summary: "A file or directory, with a file's URLs",
    tag: "File system",
    access: "key",
    query: w.fsPathQuery,
    data: w.fsFileInfo,
  },
  "GET /fs/download": {
    summary: "Download a file",
    tag: "File system",
    access: "key",
    query: w.fsPathQuery,
    file: "bytes",
  },
  "GET /fs/file-link": {
    summary: "A time-limited link to a file",
    tag: "File system",
    access: "key",
    query: w.fsFileLinkQuery,
    data: w.fsFileLink,
  },
  "GET /fs/search": {
    summary: "Search file names",
    tag: "File system",
    access: "key",
    query: w.fsSearchQuery,
    data: w.fsSearchResponse,
  },
  "POST /fs/mkdir": {
    summary: "Create a directory",
    tag: "File system",
    access: "key",
    body: w.fsMkdirRequest,
    data: z.unknown(),
  },
  "POST /fs/upload": {
    summary: "Upload a file (multipart form), or start an upload in parts",
    tag: "File system",
    access: "key",
    upload: "form",
    data: z.union([w.fsUploadResult, w.fsMultipartStarted]),
  },
  "PUT /fs/upload": {
    summary: "Upload a file as the raw body",
    tag: "File system",
    access: "key",
    query: w.fsPathQuery,
    upload: "raw",
    data: w.fsUploadResult,
  },
  "POST /fs/update": {
    summary: "Write a text file",
    tag: "File system",
    access: "key",
    body: w.fsUpdateRequest,
    data: w.fsUpdateResult,
  },
  "POST /fs/rename": {
    summary: "Rename or move",
    tag: "File system",
    access: "key",
    body: w.fsRenameRequest,
    data: z.strictObject({ oldPath: z.string(), newPath: z.string() }),
  },
  "DELETE /fs/batch-remove": {
    summary: "Delete files and directories",
    tag: "File system",
    access: "key",
    body: w.fsBatchRemoveRequest,
    data: w.fsBatchRemoveResult,
  },
  "POST /fs/batch-copy": {
    summary: "Copy files and directories",
    tag: "File system",
    access: "key",
    body: w.fsBatchCopyRequest,
    data: w.fsCopyResult,
  },
  "POST /fs/batch-copy-commit": {
    summary: "Record copies the browser made across storages",
    tag: "File system",
    access: "key",
    body: w.fsBatchCopyCommitRequest,
    data: z.unknown(),
  },
  "POST /fs/create-share": {
    summary: "Share an explorer file",
    tag: "File system",
    access: "key",
    body: w.fsCreateShareRequest,
    data: w.createdFileShare,
  },
  "POST /fs/presign": {
    summary: "A URL to PUT a new file's bytes to",
    tag: "File system",
    access: "key",
    body: w.fsPresignRequest,
    data: z.unknown(),
  },
  "POST /fs/presign/commit": {
    summary: "Finish a presigned explorer upload",
    tag: "File system",
    access: "key",
    body: w.fsPresignCommitRequest,
    data: z.unknown(),
  },
  "PUT /fs/upload-session/:id": {
    summary: "The signed upload URL of LOCAL mounts",
    tag: "File system",
    access: "public",
    upload: "raw",
    data: z.unknown(),
  },
  "PUT /fs/upload-session/:id/parts/:part": {
    summary: "The signed part URL of LOCAL mounts",
    tag: "File system",
    access: "public",
    upload: "raw",
    data: z.unknown(),
  },
  "POST /fs/multipart/init": {
    summary: "Start an explorer upload in parts",
    tag: "File system",
    access: "key",
    body: w.fsMultipartInitRequest,
    data: w.fsMultipartStarted,
  },
  "POST /fs/multipart/resume": {
    summary: "Parts stored so far and fresh part URLs",
    tag: "File system",
    access: "key",
    body: w.fsMultipartResumeRequest,
    data: w.fsMultipartResume,
  },
  "POST /fs/multipart/complete": {
    summary: "Assemble the parts",
    tag: "File system",
    access: "key",
    body: w.fsMultipartCompleteRequest,
    data: w.fsMultipartDone,
  },
  "POST /fs/multipart/abort": {
    summary: "Abort an explorer upload in parts",
    tag: "File system",
    access: "key",
    body: w.fsMultipartAbortRequest,
    data: z.unknown(),
  },
  "GET /fs/zip": {
    summary: "Download a selection as a ZIP",
    tag: "File system",
    access: "key",
    query: w.fsZipRequest,
    file: "bytes",
  },
  "POST /fs/zip": {
    summary: "Download a selection as a ZIP",
    tag: "File system",
    access: "key",
    body: w.fsZipRequest,
    file: "bytes",
  },
  "POST /fs/zip/link": {
    summary: "A signed link that downloads a selection as a ZIP",
    tag: "File system",
    access: "key",
    body: w.fsZipRequest,
    data: w.fsZipLink,
  },
  "GET /fs/tasks": {
    summary: "Own tasks (the admin: all)",
    tag: "Tasks",
    access: "key",
    query: w.taskListQuery,
    data: w.fsTaskList,
  },
  "GET /fs/tasks/:id": { summary: "One task", tag: "Tasks", access: "key", data: w.fsTask },
  "POST /fs/tasks/:id/cancel": { summary: "Cancel a task", tag: "Tasks", access: "key", data: w.fsTask },
  "DELETE /fs/tasks/:id": { summary: "Delete a finished task", tag: "Tasks", access: "key" },
  "GET /p/*": {
    summary: "A mounted file through the server (proxy links)",
    tag: "File system",
    access: "public",
    file: "bytes",
  },
  "GET /openapi.json": { summary: "This document", tag: "System", access: "public", file: "json" },
};
