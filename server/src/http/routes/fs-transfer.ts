/**
 * Moving bytes in and out of the explorer tree without holding them: presigned
 * and multipart uploads (LOCAL bytes go to the upload domain's signed URL, uploads.ts),
 * batch copies (server-side, tasks for long ones, or the 0.7.3 client-side
 * flow), and ZIP downloads.
 */
import {
  fsBatchCopyCommitRequest,
  fsBatchCopyRequest,
  fsMultipartAbortRequest,
  fsMultipartCompleteRequest,
  fsMultipartInitRequest,
  fsMultipartResumeRequest,
  fsPresignCommitRequest,
  fsPresignRequest,
  fsZipRequest,
} from "@clipshare/shared";
import { type Context, Hono } from "hono";
import type { z } from "zod";
import type { AppContext } from "../../context";
import type { FsActor } from "../../domain/fs/access";
import { contentDisposition } from "../../storage/content-disposition";
import { parseWith, readJson } from "../body";
import { ok, withInlineStatus } from "../envelope";
import { fsActorOf } from "../fs-actor";
import { nodeBody } from "../node-body";
import type * as Wire from "../openapi/wire";
import { publicOrigin } from "../request-origin";
import { described, keyRouteDocs } from "../route-doc";
import { accessClientOf } from "../share-visitor";
import type { AppEnv } from "../types";

const uploading = keyRouteDocs("File system", ["MOUNT_UPLOAD"]);
const copying = keyRouteDocs("File system", ["MOUNT_COPY"]);
const viewing = keyRouteDocs("File system", ["MOUNT_VIEW"]);

export function fsTransferRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();
  const { directUploads: uploads, multipartUploads: multipart, batch, zip } = ctx.fs;
  const actorOf = fsActorOf;
  const origin = (c: Context<AppEnv>) => publicOrigin(c, ctx.config.trustProxy);

  app.post(
    "/fs/presign",
    described(
      (w) =>
        uploading({
          summary: "A URL to PUT a new file's bytes to",
          errors: [...w.fsPathErrors, "target_exists", "not_supported", "insufficient_storage"],
          body: w.fsPresignRequest,
          data: w.z.unknown(),
        }),
      async (c) => {
        const body = await readJson(c, fsPresignRequest);
        return ok(c, await uploads.presign(actorOf(c), body, origin(c)), "Presigned upload URL created");
      },
    ),
  );

  app.post(
    "/fs/presign/commit",
    described(
      (w) =>
        uploading({
          summary: "Finish a presigned explorer upload",
          errors: [...w.fsPathErrors, "upload_session_not_found", "upload_missing", "size_mismatch"],
          body: w.fsPresignCommitRequest,
          data: w.z.unknown(),
        }),
      async (c) => {
        const body = await readJson(c, fsPresignCommitRequest);
        return ok(c, await uploads.commitPresigned(actorOf(c), body), "Upload committed");
      },
    ),
  );

  app.post(
    "/fs/multipart/init",
    described(
      (w) =>
        uploading({
          summary: "Start an explorer upload in parts",
          errors: [
            ...w.fsPathErrors,
            "invalid_parts",
            "too_many_parts",
            "target_exists",
            "insufficient_storage",
          ],
          body: w.fsMultipartInitRequest,
          data: w.fsMultipartStarted,
        }),
      async (c) => {
        const body = await readJson(c, fsMultipartInitRequest);
        return ok(c, await multipart.initMultipart(actorOf(c), body, origin(c)), "Multipart upload started");
      },
    ),
  );

  app.post(
    "/fs/multipart/complete",
    described(
      (w) =>
        uploading({
          summary: "Assemble the parts",
          errors: [...w.fsPathErrors, ...w.multipartErrors, "size_mismatch"],
          body: w.fsMultipartCompleteRequest,
          data: w.fsMultipartDone,
        }),
      async (c) => {
        const body = await readJson(c, fsMultipartCompleteRequest, 4 * 1024 * 1024);
        const done = await multipart.completeMultipart(actorOf(c), body);
        return ok(c, withInlineStatus(done, "Upload completed"), "Upload completed");
      },
    ),
  );

  app.post(
    "/fs/multipart/resume",
    described(
      (w) =>
        uploading({
          summary: "Parts stored so far and fresh part URLs",
          errors: [...w.fsPathErrors, ...w.multipartErrors],
          body: w.fsMultipartResumeRequest,
          data: w.fsMultipartResume,
        }),
      async (c) => {
        const body = await readJson(c, fsMultipartResumeRequest);
        return ok(
          c,
          await multipart.resumeMultipart(actorOf(c), body, origin(c)),
          "Multipart upload can continue",
        );
      },
    ),
  );

  app.post(
    "/fs/multipart/abort",
    described(
      (w) =>
        uploading({
          summary: "Abort an explorer upload in parts",
          errors: [...w.fsPathErrors, ...w.multipartErrors],
          body: w.fsMultipartAbortRequest,
          data: w.z.unknown(),
        }),
      async (c) => {
        const body = await readJson(c, fsMultipartAbortRequest);
        await multipart.abortMultipart(actorOf(c), body);
        return ok(c, withInlineStatus({}, "Upload aborted"), "Upload aborted");
      },
    ),
  );

  app.post(
    "/fs/batch-copy",
    described(
      (w) =>
        copying({
          summary: "Copy files and directories",
          errors: [
            ...w.fsPathErrors,
            "target_exists",
            "too_many_files",
            "mount_root",
            "folder_hidden_entries",
          ],
          body: w.fsBatchCopyRequest,
          data: w.fsCopyResult,
        }),
      async (c) => {
        const body = await readJson(c, fsBatchCopyRequest);
        const result = await batch.batchCopy(actorOf(c), body, origin(c));
        const message =
          result.queued > 0
            ? `Copied ${result.success}, skipped ${result.skipped}, failed ${result.failed}; ${result.queued} items continue in a background task`
            : `Copied ${result.success}, skipped ${result.skipped}, failed ${result.failed}`;
        return ok(c, result, message, result.queued > 0 ? 202 : 200);
      },
    ),
  );

  app.post(
    "/fs/batch-copy-commit",
    described(
      (w) =>
        copying({
          summary: "Record copies the browser made across storages",
          errors: [...w.fsPathErrors, "no_copy_items"],
          body: w.fsBatchCopyCommitRequest,
          data: w.z.unknown(),
        }),
      async (c) => {
        const body = await readJson(c, fsBatchCopyCommitRequest, 8 * 1024 * 1024);
        const result = await batch.batchCopyCommit(actorOf(c), body);
        return ok(c, result, `Committed ${result.success.length}, failed ${result.failed.length}`);
      },
    ),
  );

  // ---- ZIP ------------------------------------------------------------------

  const sendZip = async (c: Context<AppEnv>, actor: FsActor, paths: string[], name?: string) => {
    const { filename, stream } = await zip.prepare(actor, paths, name);
    try {
      await ctx.fs.visitorDownloads.admit(actor.principal, paths, "zip", accessClientOf(c), null);
    } catch (e) {
      stream.destroy();
      throw e;
    }
    return new Response(nodeBody(c, stream), {
      status: 200,
      headers: {
        "Content-Type": "application/zip",
        "Content-Disposition": contentDisposition("attachment", filename),
        "Cache-Control": "no-store",
        "X-Content-Type-Options": "nosniff",
      },
    });
  };

  // The selection comes as a JSON body (POST) or as a link's query (GET).
  const zipDoc = (w: typeof Wire, input: { body: z.ZodType } | { query: z.ZodType }) =>
    viewing({
      summary: "Download a selection as a ZIP",
      errors: [...w.fsPathErrors, ...w.visitorDownloadErrors],
      visitors: true,
      ...input,
      file: "bytes",
    });

  app.post(
    "/fs/zip",
    described(
      (w) => zipDoc(w, { body: w.fsZipRequest }),
      async (c) => {
        const body = await readJson(c, fsZipRequest);
        return sendZip(c, actorOf(c), body.paths, body.name);
      },
    ),
  );

  // Plain links: repeated `paths`; either with an Authorization header, or signed by POST /fs/zip/link.
  app.get(
    "/fs/zip",
    described(
      (w) => zipDoc(w, { query: w.fsZipRequest }),
      async (c) => {
        const query = parseWith(fsZipRequest, {
          paths: c.req.queries("paths") ?? c.req.queries("paths[]") ?? [],
          name: c.req.query("name"),
        });
        let actor = actorOf(c);
        const sign = c.req.query("sign");
        if (actor.principal.kind === "anonymous" && sign) {
          // Its paths, folder passes included, were checked when the link was signed.
          actor = await zip.actorForLink({
            paths: query.paths,
            opened: c.req.queries("opened") ?? [],
            name: c.req.query("name") ?? "",
            by: c.req.query("by") ?? "",
            expires: c.req.query("expires") ?? "",
            sign,
          });
        }
        return sendZip(c, actor, query.paths, query.name);
      },
    ),
  );

  app.post(
    "/fs/zip/link",
    described(
      (w) =>
        viewing({
          summary: "A signed link that downloads a selection as a ZIP",
          errors: [...w.fsPathErrors],
          visitors: true,
          body: w.fsZipRequest,
          data: w.fsZipLink,
        }),
      async (c) => {
        const body = await readJson(c, fsZipRequest);
        const link = await zip.link(actorOf(c), body.paths, body.name);
        return ok(c, { ...link, url: `${origin(c)}${link.url}` }, "ZIP link created");
      },
    ),
  );

  return app;
}
