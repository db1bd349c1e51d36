/**
 * File-share management and uploads (FILE_SHARE): /files, /upload,
 * /upload-direct/:filename, /s3/presign and /s3/commit. The signed LOCAL
 * upload URL is the upload domain's one route (uploads.ts).
 */
import {
  batchDeleteFilesRequest,
  commitRequest,
  FILES_DEFAULT_LIMIT,
  filenameInput,
  onFirstUse,
  Permission,
  presignRequest,
  updateFileRequest,
  uploadOptions,
} from "@clipshare/shared";
import { type Context, Hono } from "hono";
import { z } from "zod";
import { requirePermission } from "../../auth/policy";
import type { AppContext } from "../../context";
import { badRequest } from "../../errors";
import { spoolDir } from "../../lib/spool";
import { declaredLength, parseWith, readJson, requestStream } from "../body";
import { ok, okAliased } from "../envelope";
import { readMultipartFile } from "../multipart";
import { publicOrigin } from "../request-origin";
import { described } from "../route-doc";
import type { AppEnv } from "../types";
import { RESPONSE_ALIASES } from "../wire-aliases";
import { toolLinks } from "./deletion-links";
import { shareMultipartRoutes } from "./files-multipart";

const listQuery = onFirstUse(() =>
  z.object({
    limit: z.coerce.number().int().min(1).max(200).optional(),
    offset: z.coerce.number().int().min(0).optional(),
    search: z.string().trim().max(200).optional(),
    created_by: z.string().max(200).optional(),
    /** Administrators: only this user's. */
    owner_id: z.string().max(200).optional(),
    storage_config_id: z.string().max(100).optional(),
  }),
);

/**
 * The file name of /upload-direct/:filename, percent-decoded exactly once from
 * the raw request path (the router's own decoding leaves bad escapes as they
 * are, and decoding its result again would turn "%25" into a broken escape).
 */
function rawFilename(url: string): string {
  const raw = new URL(url).pathname.split("/").pop() ?? "";
  try {
    return decodeURIComponent(raw);
  } catch {
    throw badRequest("File name is not validly percent-encoded", "invalid_file_name");
  }
}

/** POST /s3/commit and /url/commit: a presigned upload becomes its share (UploadService.commit). */
export function commitUpload(ctx: AppContext) {
  return async (c: Context<AppEnv>) => {
    const principal = c.get("principal");
    requirePermission(principal, Permission.FILE_SHARE);
    const body = await readJson(c, commitRequest);
    return ok(c, await ctx.uploads.commit(principal, body), "File committed");
  };
}

export function fileRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();

  app.get(
    "/files",
    described(
      (w) => ({
        summary: "List own file shares (the admin: all)",
        tag: "File shares",
        access: "key",
        permissions: ["FILE_SHARE"],
        query: w.pageQuery,
        data: w.fileShareList,
      }),
      async (c) => {
        const principal = c.get("principal");
        requirePermission(principal, Permission.FILE_SHARE);
        const q = parseWith(listQuery, c.req.query());
        const limit = q.limit ?? FILES_DEFAULT_LIMIT;
        const offset = q.offset ?? 0;
        const { items, total } = await ctx.fileShares.list(principal, {
          limit,
          offset,
          search: q.search || undefined,
          createdBy: q.created_by,
          ownerId: q.owner_id,
          storageConfigId: q.storage_config_id,
        });
        return ok(
          c,
          { files: items, pagination: { total, limit, offset, hasMore: offset + items.length < total } },
          "Fetched",
        );
      },
    ),
  );

  app.delete(
    "/files/batch-delete",
    described(
      (w) => ({
        summary: "Delete file shares (and their files)",
        errors: ["storage_error"],
        tag: "File shares",
        access: "key",
        permissions: ["FILE_SHARE"],
        body: w.batchDeleteFilesRequest,
        data: w.fileBatchDeleteResult,
      }),
      async (c) => {
        const principal = c.get("principal");
        requirePermission(principal, Permission.FILE_SHARE);
        const body = await readJson(c, batchDeleteFilesRequest);
        const result = await ctx.fileShares.batchDelete(principal, body);
        return ok(
          c,
          result,
          `Batch delete done, success: ${result.success}, failed: ${result.failed.length}`,
        );
      },
    ),
  );

  app.get(
    "/files/:id",
    described(
      (w) => ({
        summary: "One file share",
        errors: ["file_not_found"],
        tag: "File shares",
        access: "key",
        permissions: ["FILE_SHARE"],
        data: w.fileShareDetail,
      }),
      async (c) => {
        const principal = c.get("principal");
        requirePermission(principal, Permission.FILE_SHARE);
        const origin = publicOrigin(c, ctx.config.trustProxy);
        return ok(c, await ctx.fileShares.get(principal, c.req.param("id")!, origin), "Fetched");
      },
    ),
  );

  app.put(
    "/files/:id",
    described(
      (w) => ({
        summary: "Edit a file share",
        errors: ["file_not_found", "slug_taken", "invalid_expiry", "nothing_to_update"],
        tag: "File shares",
        access: "key",
        permissions: ["FILE_SHARE"],
        body: w.updateFileRequest,
        data: w.fileShare,
      }),
      async (c) => {
        const principal = c.get("principal");
        requirePermission(principal, Permission.FILE_SHARE);
        const body = await readJson(c, updateFileRequest);
        return ok(
          c,
          await ctx.fileShares.update(principal, c.req.param("id")!, body),
          "File metadata updated",
        );
      },
    ),
  );

  // Raw body upload; share options in the query string.
  app.put(
    "/upload-direct/:filename",
    described(
      (w) => ({
        summary: "Upload a file share as the raw body",
        errors: [
          ...w.uploadErrors,
          ...w.shareStorageErrors,
          "slug_taken",
          "invalid_expiry",
          "invalid_file_name",
        ],
        tag: "File shares",
        access: "key",
        permissions: ["FILE_SHARE"],
        query: w.uploadOptions,
        upload: "raw",
        data: w.publishedFileShare,
      }),
      async (c) => {
        const principal = c.get("principal");
        requirePermission(principal, Permission.FILE_SHARE);
        const filename = parseWith(filenameInput, rawFilename(c.req.url));
        const options = parseWith(uploadOptions, c.req.query());
        const data = await ctx.uploads.uploadStream(principal, filename, requestStream(c), {
          ...options,
          mimetype: options.mimetype ?? c.req.header("content-type"),
          declaredSize: declaredLength(c.req.header("content-length")),
        });
        return ok(c, data, "File uploaded", 201);
      },
    ),
  );

  // Multipart form: `file` and the share fields, in any order.
  app.post(
    "/upload",
    described(
      (w) => ({
        summary: "Upload a file share through the server (multipart form)",
        errors: [...w.uploadErrors, ...w.formErrors, ...w.shareStorageErrors, "slug_taken", "invalid_expiry"],
        tag: "File shares",
        access: "key",
        permissions: ["FILE_SHARE"],
        upload: "form",
        data: w.uploadedFileShare,
      }),
      async (c) => {
        const principal = c.get("principal");
        requirePermission(principal, Permission.FILE_SHARE);
        const data = await readMultipartFile(c, {
          fileField: "file",
          // The web app sends the share fields first; a form that starts with the file waits for its fields.
          placed: (fields) => Object.keys(fields).length > 0,
          spool: { dir: spoolDir(ctx.config.dataDir), maxBytes: await ctx.settings.maxUploadBytes() },
          onFile: async (part) => {
            const options = parseWith(uploadOptions, part.fields);
            const filename = parseWith(filenameInput, part.fields.filename || part.filename || "");
            const announced =
              part.fields.size && /^\d+$/.test(part.fields.size) ? Number(part.fields.size) : null;
            return ctx.uploads.uploadStream(principal, filename, part.stream, {
              ...options,
              mimetype: options.mimetype ?? part.mimeType,
              declaredSize: part.size ?? announced,
            });
          },
          onAbandon: (uploaded) =>
            ctx.fileShares.batchDelete(principal, { ids: [uploaded.id], delete_mode: "both" }),
        });
        // Screenshot tools (ShareX, curl one-liners) read an absolute link and a deletion link from here.
        return ok(c, { ...data, ...toolLinks(ctx, c, data) }, "File uploaded", 201);
      },
    ),
  );

  app.post(
    "/s3/presign",
    described(
      (w) => ({
        summary: "Reserve a file share and get a URL to PUT its bytes to",
        errors: [
          ...w.shareStorageErrors,
          "slug_taken",
          "invalid_expiry",
          "invalid_file_name",
          "insufficient_storage",
          "not_supported",
        ],
        tag: "File shares",
        access: "key",
        permissions: ["FILE_SHARE"],
        body: w.presignRequest,
        data: w.presignedUpload,
      }),
      async (c) => {
        const principal = c.get("principal");
        requirePermission(principal, Permission.FILE_SHARE);
        const body = await readJson(c, presignRequest);
        const presigned = await ctx.uploads.presign(principal, body, publicOrigin(c, ctx.config.trustProxy));
        return okAliased(c, presigned, RESPONSE_ALIASES.uploadShare, "Presigned upload URL created");
      },
    ),
  );

  app.post(
    "/s3/commit",
    described(
      (w) => ({
        summary: "Publish a presigned upload",
        errors: ["file_not_found", "upload_missing", "size_mismatch", "insufficient_storage"],
        tag: "File shares",
        access: "key",
        permissions: ["FILE_SHARE"],
        body: w.commitRequest,
        data: w.publishedFileShare,
      }),
      commitUpload(ctx),
    ),
  );

  app.route("/", shareMultipartRoutes(ctx));
  return app;
}
