/**
 * File shares uploaded in parts (FILE_SHARE): /files/multipart/init, resume,
 * complete and abort. LOCAL parts go to the upload domain's signed URL (uploads.ts).
 */
import {
  Permission,
  shareMultipartCompleteRequest,
  shareMultipartInitRequest,
  shareMultipartRef,
} from "@clipshare/shared";
import { type Context, Hono } from "hono";
import { requirePermission } from "../../auth/policy";
import type { AppContext } from "../../context";
import { readJson } from "../body";
import { ok, okAliased, withInlineStatus } from "../envelope";
import { publicOrigin } from "../request-origin";
import { described } from "../route-doc";
import type { AppEnv } from "../types";
import { RESPONSE_ALIASES } from "../wire-aliases";

/** A complete names up to 10,000 parts with their ETags. */
const COMPLETE_JSON_LIMIT = 4 * 1024 * 1024;

/** The body of files/multipart/complete (and url/multipart/complete), parts with their ETag under one name. */
export async function readCompleteRequest(c: Context) {
  const body = await readJson(c, shareMultipartCompleteRequest, COMPLETE_JSON_LIMIT);
  const parts = body.parts.map((p) => ({ partNumber: p.partNumber, etag: p.etag ?? p.ETag ?? "" }));
  return { ...body, parts };
}

/**
 * Complete and abort of a share upload in parts: files/multipart/* and 0.7.3's URL-upload
 * spelling url/multipart/* are the same uploads, so both register these handlers.
 */
export function shareMultipartFinishers(ctx: AppContext) {
  const service = ctx.shareMultipart;
  return {
    async complete(c: Context<AppEnv>) {
      const principal = c.get("principal");
      requirePermission(principal, Permission.FILE_SHARE);
      const done = await service.complete(principal, await readCompleteRequest(c));
      return okAliased(c, withInlineStatus(done), RESPONSE_ALIASES.uploadShare, "Upload completed");
    },
    async abort(c: Context<AppEnv>) {
      const principal = c.get("principal");
      requirePermission(principal, Permission.FILE_SHARE);
      const aborted = await service.abort(principal, await readJson(c, shareMultipartRef));
      const data = withInlineStatus(aborted, "Upload aborted");
      return okAliased(c, data, RESPONSE_ALIASES.uploadShare, "Upload aborted");
    },
  };
}

export function shareMultipartRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();
  const service = ctx.shareMultipart;
  const origin = (c: Parameters<typeof publicOrigin>[0]) => publicOrigin(c, ctx.config.trustProxy);
  const finish = shareMultipartFinishers(ctx);

  app.post(
    "/files/multipart/init",
    described(
      (w) => ({
        summary: "Start a file share uploaded in parts",
        errors: [
          ...w.shareStorageErrors,
          "invalid_parts",
          "too_many_parts",
          "slug_taken",
          "invalid_expiry",
          "insufficient_storage",
        ],
        tag: "File shares",
        access: "key",
        permissions: ["FILE_SHARE"],
        body: w.shareMultipartInitRequest,
        data: w.shareMultipartStarted,
      }),
      async (c) => {
        const principal = c.get("principal");
        requirePermission(principal, Permission.FILE_SHARE);
        const body = await readJson(c, shareMultipartInitRequest);
        const started = await service.init(principal, body, origin(c));
        return okAliased(c, started, RESPONSE_ALIASES.uploadShare, "Multipart upload started");
      },
    ),
  );

  app.post(
    "/files/multipart/resume",
    described(
      (w) => ({
        summary: "Parts stored so far and fresh part URLs",
        errors: [...w.multipartErrors, "file_not_found"],
        tag: "File shares",
        access: "key",
        permissions: ["FILE_SHARE"],
        body: w.shareMultipartRef,
        data: w.shareMultipartResume,
      }),
      async (c) => {
        const principal = c.get("principal");
        requirePermission(principal, Permission.FILE_SHARE);
        const body = await readJson(c, shareMultipartRef);
        return ok(c, await service.resume(principal, body, origin(c)), "Multipart upload can continue");
      },
    ),
  );

  app.post(
    "/files/multipart/complete",
    described(
      (w) => ({
        summary: "Assemble the parts and publish the share",
        errors: [...w.multipartErrors, "file_not_found", "size_mismatch", "insufficient_storage"],
        tag: "File shares",
        access: "key",
        permissions: ["FILE_SHARE"],
        body: w.shareMultipartCompleteRequest,
        data: w.shareMultipartDone,
      }),
      finish.complete,
    ),
  );

  app.post(
    "/files/multipart/abort",
    described(
      (w) => ({
        summary: "Abort an upload in parts",
        errors: [...w.multipartErrors, "file_not_found"],
        tag: "File shares",
        access: "key",
        permissions: ["FILE_SHARE"],
        body: w.shareMultipartRef,
        data: w.z.unknown(),
      }),
      finish.abort,
    ),
  );

  return app;
}
