/**
 * URL upload (FILE_SHARE): /url/info, /url/proxy, /url/presign, /url/commit,
 * /url/multipart/init|complete|abort (the share multipart service with the
 * remote file's name, type and size), /url/cancel, and the ClipShare
 * extension /url/fetch (download on the server as a task). The remote side is
 * reached only through the SafeFetcher.
 */
import {
  Permission,
  urlCancelRequest,
  urlFetchRequest,
  urlInfoRequest,
  urlMultipartInitRequest,
  urlPresignRequest,
} from "@clipshare/shared";
import { Hono } from "hono";
import { requirePermission } from "../../auth/policy";
import type { AppContext } from "../../context";
import { describeResponse } from "../../domain/url-upload/remote-file";
import { contentDisposition } from "../../storage/content-disposition";
import { parseWith, readJson } from "../body";
import { ok, okAliased } from "../envelope";
import { nodeBody } from "../node-body";
import { publicOrigin } from "../request-origin";
import { described } from "../route-doc";
import type { AppEnv } from "../types";
import { RESPONSE_ALIASES } from "../wire-aliases";
import { commitUpload } from "./files";
import { shareMultipartFinishRoutes } from "./files-multipart";

export function urlUploadRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();
  const service = ctx.urlUploads;

  app.post(
    "/url/info",
    described(
      (w) => ({
        summary: "What a remote URL holds",
        errors: ["bad_request", "storage_unreachable"],
        tag: "URL upload",
        access: "key",
        permissions: ["FILE_SHARE"],
        body: w.urlInfoRequest,
        data: w.remoteFileInfo,
      }),
      async (c) => {
        requirePermission(c.get("principal"), Permission.FILE_SHARE);
        const { url } = await readJson(c, urlInfoRequest);
        return ok(c, await service.info(url), "URL info fetched");
      },
    ),
  );

  // The browser's fallback when the remote server allows no cross-origin read. The body is
  // streamed through, as an attachment that can never render (or run script) on this origin.
  app.get(
    "/url/proxy",
    described(
      (w) => ({
        summary: "The remote file through the server (no CORS at the source)",
        errors: ["bad_request", "storage_unreachable"],
        tag: "URL upload",
        access: "key",
        permissions: ["FILE_SHARE"],
        query: w.urlInfoRequest,
        file: "bytes",
      }),
      async (c) => {
        requirePermission(c.get("principal"), Permission.FILE_SHARE);
        const { url } = parseWith(urlInfoRequest, { url: c.req.query("url") });
        const remote = await service.openProxy(url, c.req.raw.signal);
        const info = describeResponse(remote, "GET");
        const headers = new Headers({
          "Content-Type": info.contentType,
          "Content-Disposition": contentDisposition("attachment", info.filename),
          "X-Content-Type-Options": "nosniff",
          "Content-Security-Policy": "default-src 'none'; sandbox",
          "Cache-Control": "private, no-store",
        });
        if (remote.contentLength !== null) headers.set("Content-Length", String(remote.contentLength));
        return new Response(nodeBody(c, remote.body), { status: 200, headers });
      },
    ),
  );

  app.post(
    "/url/presign",
    described(
      (w) => ({
        summary: "Reserve a share for a remote file",
        errors: [...w.shareStorageErrors, "slug_taken", "invalid_expiry", "insufficient_storage"],
        tag: "URL upload",
        access: "key",
        permissions: ["FILE_SHARE"],
        body: w.urlPresignRequest,
        data: w.urlPresignedUpload,
      }),
      async (c) => {
        const principal = c.get("principal");
        requirePermission(principal, Permission.FILE_SHARE);
        const body = await readJson(c, urlPresignRequest);
        const presigned = await service.presign(principal, body, publicOrigin(c, ctx.config.trustProxy));
        return okAliased(c, presigned, RESPONSE_ALIASES.uploadShare, "Presigned upload URL created");
      },
    ),
  );

  app.post(
    "/url/commit",
    described(
      (w) => ({
        summary: "Publish a URL upload",
        errors: ["file_not_found", "upload_missing", "size_mismatch", "insufficient_storage"],
        tag: "URL upload",
        access: "key",
        permissions: ["FILE_SHARE"],
        body: w.commitRequest,
        data: w.publishedFileShare,
      }),
      commitUpload(ctx),
    ),
  );

  app.post(
    "/url/multipart/init",
    described(
      (w) => ({
        summary: "Start a URL upload in parts",
        errors: [...w.shareStorageErrors, "invalid_parts", "too_many_parts", "slug_taken"],
        tag: "URL upload",
        access: "key",
        permissions: ["FILE_SHARE"],
        body: w.urlMultipartInitRequest,
        data: w.urlMultipartStarted,
      }),
      async (c) => {
        const principal = c.get("principal");
        requirePermission(principal, Permission.FILE_SHARE);
        const body = await readJson(c, urlMultipartInitRequest);
        const origin = publicOrigin(c, ctx.config.trustProxy);
        const started = await service.multipartInit(principal, body, origin);
        return okAliased(c, started, RESPONSE_ALIASES.uploadShare, "Multipart upload started");
      },
    ),
  );

  shareMultipartFinishRoutes(app, ctx, {
    prefix: "/url/multipart",
    tag: "URL upload",
    completeSummary: "Finish a URL upload in parts",
    abortSummary: "Abort a URL upload in parts",
    completeErrors: [],
  });

  app.post(
    "/url/cancel",
    described(
      (w) => ({
        summary: "Drop a URL upload that was not committed",
        errors: ["file_not_found"],
        tag: "URL upload",
        access: "key",
        permissions: ["FILE_SHARE"],
        body: w.urlCancelRequest,
        data: w.z.unknown(),
      }),
      async (c) => {
        const principal = c.get("principal");
        requirePermission(principal, Permission.FILE_SHARE);
        const body = await readJson(c, urlCancelRequest);
        const cancelled = await service.cancel(principal, body.file_id);
        return ok(c, { ...cancelled, message: "File record deleted" }, "URL upload cancelled");
      },
    ),
  );

  app.post(
    "/url/fetch",
    described(
      (w) => ({
        summary: "Fetch a remote file on the server (a task)",
        errors: [...w.fsPathErrors, "bad_request", "size_unknown"],
        tag: "URL upload",
        access: "key",
        permissions: ["FILE_SHARE"],
        body: w.urlFetchRequest,
        data: w.fsTask,
      }),
      async (c) => {
        const principal = c.get("principal");
        requirePermission(principal, Permission.FILE_SHARE);
        const body = await readJson(c, urlFetchRequest);
        return ok(c, await service.queueFetch(principal, body), "Download queued", 202);
      },
    ),
  );

  return app;
}
