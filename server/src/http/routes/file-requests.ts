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
  requestPasswordBody,
  requestUploadCompleteBody,
  requestUploadInitBody,
  updateFileRequestBody,
} from "@clipshare/shared";
import { type Context, Hono } from "hono";
import type { AppContext } from "../../context";
import type { Visitor } from "../../domain/requests/file-request-service";
import { readJson } from "../body";
import { ok } from "../envelope";
import { publicOrigin } from "../request-origin";
import { noStore } from "../share-visitor";
import type { AppEnv } from "../types";

export function fileRequestRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();
  const requests = ctx.fileRequests;
  const origin = (c: Context<AppEnv>) => publicOrigin(c, ctx.config.trustProxy);
  const visitor = (c: Context<AppEnv>): Visitor => ({
    clientIp: c.get("clientIp"),
    token: c.req.header(FILE_REQUEST_TOKEN_HEADER) ?? null,
  });

  // ---- management
  app.post("/requests", async (c) => {
    const body = await readJson(c, createFileRequestBody);
    return ok(c, await requests.create(c.get("principal"), body), "File request created", 201);
  });
  app.get("/requests", async (c) => ok(c, await requests.list(c.get("principal")), "Fetched"));
  app.get("/requests/:id", async (c) =>
    ok(c, await requests.detail(c.get("principal"), c.req.param("id")), "Fetched"),
  );
  app.put("/requests/:id", async (c) => {
    const body = await readJson(c, updateFileRequestBody);
    return ok(c, await requests.update(c.get("principal"), c.req.param("id"), body), "File request updated");
  });
  app.delete("/requests/:id", async (c) => {
    await requests.remove(c.get("principal"), c.req.param("id"));
    return ok(c, null, "File request deleted");
  });

  // ---- the visitor
  app.get("/public/requests/:slug", async (c) => {
    noStore(c);
    return ok(c, await requests.visit(c.req.param("slug"), visitor(c)), "Fetched");
  });
  app.post("/public/requests/:slug/unlock", async (c) => {
    const body = await readJson(c, requestPasswordBody);
    noStore(c);
    return ok(c, await requests.unlock(c.req.param("slug"), body.password, c.get("clientIp")), "Unlocked");
  });
  app.post("/public/requests/:slug/uploads", async (c) => {
    const body = await readJson(c, requestUploadInitBody);
    const started = await requests.startUpload(c.req.param("slug"), visitor(c), body, origin(c));
    return ok(c, started, "Upload started", 201);
  });
  app.post("/public/requests/:slug/uploads/:upload/resume", async (c) => {
    const state = await requests.resumeUpload(
      c.req.param("slug"),
      c.req.param("upload"),
      visitor(c),
      origin(c),
    );
    return ok(c, state, "Upload can continue");
  });
  app.post("/public/requests/:slug/uploads/:upload/complete", async (c) => {
    const body = await readJson(c, requestUploadCompleteBody);
    const parts = body.parts.map((p) => ({ partNumber: p.partNumber, etag: p.etag ?? p.ETag ?? "" }));
    const receipt = await requests.completeUpload(
      c.req.param("slug"),
      c.req.param("upload"),
      visitor(c),
      parts,
    );
    return ok(c, receipt, "Received");
  });
  app.post("/public/requests/:slug/uploads/:upload/abort", async (c) => {
    await requests.abortUpload(c.req.param("slug"), c.req.param("upload"), visitor(c));
    return ok(c, null, "Upload aborted");
  });

  return app;
}
