/**
 * File shares uploaded in parts (FILE_SHARE): /files/multipart/init, resume,
 * complete and abort. LOCAL parts go to the upload domain's signed URL (uploads.ts).
 */
import {
  type ErrorCode,
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
import { described, shareRouteDocs } from "../route-doc";
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

/** Where a share upload in parts is finished: its path prefix, its tag and texts in the API document. */
interface FinishRoutes {
  prefix: "/files/multipart" | "/url/multipart";
  tag: string;
  completeSummary: string;
  abortSummary: string;
  /** Errors of complete beyond those of every upload in parts. */
  completeErrors: ErrorCode[];
}

/**
 * Complete and abort of a share upload in parts: files/multipart/* and 0.7.3's URL-upload
 * spelling url/multipart/* are the same uploads, so both register these routes.
 */
export function shareMultipartFinishRoutes(app: Hono<AppEnv>, ctx: AppContext, at: FinishRoutes) {
  const service = ctx.shareMultipart;
  const { managed } = shareRouteDocs(at.tag);

  app.post(
    `${at.prefix}/complete`,
    described(
      (w) =>
        managed({
          summary: at.completeSummary,
          errors: [...w.multipartErrors, "file_not_found", "size_mismatch", ...at.completeErrors],
          body: w.shareMultipartCompleteRequest,
          data: w.shareMultipartDone,
        }),
      async (c) => {
        const principal = c.get("principal");
        requirePermission(principal, Permission.FILE_SHARE);
        const done = await service.complete(principal, await readCompleteRequest(c));
        return okAliased(c, withInlineStatus(done), RESPONSE_ALIASES.uploadShare, "Upload completed");
      },
    ),
  );

  app.post(
    `${at.prefix}/abort`,
    described(
      (w) =>
        managed({
          summary: at.abortSummary,
          errors: [...w.multipartErrors, "file_not_found"],
          body: w.shareMultipartRef,
          data: w.z.unknown(),
        }),
      async (c) => {
        const principal = c.get("principal");
        requirePermission(principal, Permission.FILE_SHARE);
        const aborted = await service.abort(principal, await readJson(c, shareMultipartRef));
        const data = withInlineStatus(aborted, "Upload aborted");
        return okAliased(c, data, RESPONSE_ALIASES.uploadShare, "Upload aborted");
      },
    ),
  );
}

export function shareMultipartRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();
  const service = ctx.shareMultipart;
  const origin = (c: Parameters<typeof publicOrigin>[0]) => publicOrigin(c, ctx.config.trustProxy);

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

  shareMultipartFinishRoutes(app, ctx, {
    prefix: "/files/multipart",
    tag: "File shares",
    completeSummary: "Assemble the parts and publish the share",
    abortSummary: "Abort an upload in parts",
    completeErrors: ["insufficient_storage"],
  });

  return app;
}
