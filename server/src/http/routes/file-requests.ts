/**
 * File requests (domain/requests): management under /requests (the admin, or
 * a key with the file-share bit, for its own requests) and the visitor's
 * routes under /public/requests/:slug, which need no credentials. A visitor
 * sends the token of a password-protected request in X-File-Request-Token.
 * LOCAL parts go to the upload domain's signed URL (uploads.ts).
 */
import {
  createFileRequestBody,
  FILE_REQUEST_TOKEN_HEADER,
  listFileRequestsQuery,
  Permission,
  requestPasswordBody,
  requestUploadCompleteBody,
  requestUploadInitBody,
  updateFileRequestBody,
} from "@clipshare/shared";
import { type Context, Hono } from "hono";
import { requirePermission } from "../../auth/policy";
import type { AppContext } from "../../context";
import type { Visitor } from "../../domain/requests/request-visits";
import { parseWith, readJson } from "../body";
import { ok } from "../envelope";
import { publicOrigin } from "../request-origin";
import { described, shareRouteDocs } from "../route-doc";
import { noStore } from "../share-visitor";
import type { AppEnv } from "../types";

/** Management: the creator, signed in with the file-share bit; visits: no credentials. */
const { managed, visiting } = shareRouteDocs("File requests");
const refusals = ["request_not_found", "request_closed", "request_expired", "password_required"] as const;

export function fileRequestRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();
  const requests = ctx.fileRequests;
  const visits = ctx.fileRequestVisits;
  const origin = (c: Context<AppEnv>) => publicOrigin(c, ctx.config.trustProxy);
  const visitor = (c: Context<AppEnv>): Visitor => ({
    clientIp: c.get("clientIp"),
    token: c.req.header(FILE_REQUEST_TOKEN_HEADER) ?? null,
  });

  // ---- management
  app.post(
    "/requests",
    described(
      (w) =>
        managed({
          summary: "Create a file request",
          errors: ["slug_taken", "request_target_invalid", "storage_config_forbidden"],
          body: w.createFileRequestBody,
          data: w.fileRequest,
        }),
      async (c) => {
        // The bit before the body: a key without it learns nothing of the body's rules.
        requirePermission(c.get("principal"), Permission.FILE_SHARE);
        const body = await readJson(c, createFileRequestBody);
        return ok(c, await requests.create(c.get("principal"), body), "File request created", 201);
      },
    ),
  );
  app.get(
    "/requests",
    described(
      (w) =>
        managed({
          summary: "List own file requests (the admin: all), newest first, a page at a time",
          query: w.listFileRequestsQuery,
          data: w.fileRequestList,
        }),
      async (c) => {
        const q = parseWith(listFileRequestsQuery, c.req.query());
        const limit = q.limit ?? 20;
        const offset = q.offset ?? 0;
        const { items, total } = await requests.list(c.get("principal"), { limit, offset, search: q.search });
        return ok(
          c,
          { requests: items, pagination: { total, limit, offset, hasMore: offset + items.length < total } },
          "Fetched",
        );
      },
    ),
  );
  app.get(
    "/requests/:id",
    described(
      (w) =>
        managed({
          summary: "One file request with its uploads and their notes",
          errors: ["request_not_found"],
          data: w.fileRequestDetail,
        }),
      async (c) => ok(c, await requests.detail(c.get("principal"), c.req.param("id")!), "Fetched"),
    ),
  );
  app.delete(
    "/requests/:id/uploads/:upload",
    described(
      () =>
        managed({
          summary: "Delete a file the request received (its slot comes back)",
          errors: ["request_not_found", "upload_not_found"],
        }),
      async (c) => {
        await requests.removeReceived(c.get("principal"), c.req.param("id")!, c.req.param("upload")!);
        return ok(c, null, "Received file deleted");
      },
    ),
  );
  app.put(
    "/requests/:id",
    described(
      (w) =>
        managed({
          summary: "Edit, close or reopen a file request",
          errors: ["request_not_found", "nothing_to_update"],
          body: w.updateFileRequestBody,
          data: w.fileRequest,
        }),
      async (c) => {
        requirePermission(c.get("principal"), Permission.FILE_SHARE);
        const body = await readJson(c, updateFileRequestBody);
        return ok(
          c,
          await requests.update(c.get("principal"), c.req.param("id")!, body),
          "File request updated",
        );
      },
    ),
  );
  app.delete(
    "/requests/:id",
    described(
      () =>
        managed({ summary: "Delete a file request (received files stay)", errors: ["request_not_found"] }),
      async (c) => {
        await requests.remove(c.get("principal"), c.req.param("id")!);
        return ok(c, null, "File request deleted");
      },
    ),
  );

  // ---- the visitor
  app.get(
    "/public/requests/:slug",
    described(
      (w) =>
        visiting({
          summary: "What a file request's visitor page shows",
          errors: ["request_not_found"],
          data: w.publicFileRequest,
        }),
      async (c) => {
        noStore(c);
        return ok(c, await visits.visit(c.req.param("slug")!, visitor(c)), "Fetched");
      },
    ),
  );
  app.post(
    "/public/requests/:slug/unlock",
    described(
      (w) =>
        visiting({
          summary: "Open a password-protected file request",
          errors: ["request_not_found", "wrong_password", "password_not_required", "rate_limited"],
          body: w.requestPasswordBody,
          data: w.requestUnlocked,
        }),
      async (c) => {
        const body = await readJson(c, requestPasswordBody);
        noStore(c);
        return ok(c, await visits.unlock(c.req.param("slug")!, body.password, c.get("clientIp")), "Unlocked");
      },
    ),
  );
  app.post(
    "/public/requests/:slug/uploads",
    described(
      (w) =>
        visiting({
          summary: "Take a slot and start an upload in parts",
          errors: [
            ...refusals,
            "request_full",
            "request_file_too_large",
            "request_type_not_allowed",
            "insufficient_storage",
          ],
          body: w.requestUploadInitBody,
          data: w.requestUploadStarted,
        }),
      async (c) => {
        const body = await readJson(c, requestUploadInitBody);
        const started = await visits.startUpload(c.req.param("slug")!, visitor(c), body, origin(c));
        return ok(c, started, "Upload started", 201);
      },
    ),
  );
  app.post(
    "/public/requests/:slug/uploads/:upload/resume",
    described(
      (w) =>
        visiting({
          summary: "The parts stored so far, and fresh part URLs",
          errors: [...refusals, "upload_not_found"],
          data: w.requestUploadResume,
        }),
      async (c) => {
        const slug = c.req.param("slug")!;
        const state = await visits.resumeUpload(slug, c.req.param("upload")!, visitor(c), origin(c));
        return ok(c, state, "Upload can continue");
      },
    ),
  );
  app.post(
    "/public/requests/:slug/uploads/:upload/complete",
    described(
      (w) =>
        visiting({
          summary: "Assemble the parts: the file is received",
          errors: [
            ...refusals,
            "upload_not_found",
            "invalid_part",
            "upload_completing",
            "request_size_mismatch",
          ],
          body: w.requestUploadCompleteBody,
          data: w.receivedFile,
        }),
      async (c) => {
        const body = await readJson(c, requestUploadCompleteBody);
        const parts = body.parts.map((p) => ({ partNumber: p.partNumber, etag: p.etag ?? p.ETag ?? "" }));
        const slug = c.req.param("slug")!;
        const receipt = await visits.completeUpload(slug, c.req.param("upload")!, visitor(c), parts);
        return ok(c, receipt, "Received");
      },
    ),
  );
  app.post(
    "/public/requests/:slug/uploads/:upload/abort",
    described(
      () =>
        visiting({
          summary: "Stop an upload and give its slot back",
          errors: [...refusals, "upload_not_found"],
        }),
      async (c) => {
        await visits.abortUpload(c.req.param("slug")!, c.req.param("upload")!, visitor(c));
        return ok(c, null, "Upload aborted");
      },
    ),
  );

  return app;
}
