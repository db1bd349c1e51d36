/**
 * Thumbnails: GET /fs/thumbnail?path= for explorer files (the same permission
 * and base-path checks as /fs/download) and GET /file-thumbnail/:slug for file
 * shares (the visitor's rules: password or access token, expiry, used-up
 * views; looking at a thumbnail never uses a view).
 */

import { open } from "node:fs/promises";
import { fsThumbnailQuery, type ThumbnailSize, thumbnailQuery } from "@clipshare/shared";
import { type Context, Hono } from "hono";
import type { AppContext } from "../../context";
import type { Thumbnail, ThumbnailService, ThumbnailSource } from "../../domain/thumbnails/thumbnail-service";
import { storageNotFound } from "../../storage/errors";
import { parseWith } from "../body";
import { continuationToken } from "../download-continuation";
import { fsActorOf } from "../fs-actor";
import { nodeBody } from "../node-body";
import { described } from "../route-doc";
import { etagMatches } from "../serve-object";
import { isPreviewBot, visitor } from "../share-visitor";
import type { AppEnv } from "../types";
import { withContentRouteStatus } from "./public-files";

/** A URL naming the file's version may be kept for a year; without one the client revalidates each time. */
const VERSIONED_CACHE = "private, max-age=31536000, immutable";
const UNVERSIONED_CACHE = "private, no-cache";

/** Sends a thumbnail of `source` (made on first request), with validators so a client revalidates cheaply. */
export async function sendThumbnail(
  thumbnails: ThumbnailService,
  c: Context<AppEnv>,
  source: ThumbnailSource,
  query: { size: ThumbnailSize; v?: string | undefined },
) {
  const headers = new Headers({
    "Cache-Control": query.v ? VERSIONED_CACHE : UNVERSIONED_CACHE,
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; sandbox",
  });
  const etag = thumbnails.etag(source, query.size);
  headers.set("ETag", `"${etag}"`);
  const ifNoneMatch = c.req.header("if-none-match");
  if (ifNoneMatch && etagMatches(ifNoneMatch, etag)) return new Response(null, { status: 304, headers });
  // Opened before answering: a thumbnail evicted in between is made again, not a broken answer.
  let thumb: Thumbnail = await thumbnails.get(source, query.size);
  const file = await open(thumb.file).catch(async () => {
    thumb = await thumbnails.get(source, query.size);
    return open(thumb.file);
  });
  headers.set("Content-Type", "image/webp");
  headers.set("Content-Length", String(thumb.bytes));
  if (c.req.method === "HEAD") {
    await file.close();
    return new Response(null, { status: 200, headers });
  }
  return new Response(nodeBody(c, file.createReadStream()), { status: 200, headers });
}

export function thumbnailRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();
  const send = (
    c: Context<AppEnv>,
    source: ThumbnailSource,
    query: { size: ThumbnailSize; v?: string | undefined },
  ) => sendThumbnail(ctx.thumbnails, c, source, query);

  app.get(
    "/fs/thumbnail",
    described(
      (w) => ({
        summary: "A WebP thumbnail of an image or video",
        errors: [...w.fsPathErrors, "not_supported"],
        tag: "File system",
        access: "key",
        permissions: ["MOUNT_VIEW"],
        visitors: true,
        query: w.fsThumbnailQuery,
        file: "image",
      }),
      async (c) => {
        const q = parseWith(fsThumbnailQuery, c.req.query());
        const { target, entry } = await ctx.fs.vfs.openFile(fsActorOf(c), q.path);
        return send(
          c,
          { storageId: target.config.id, driver: target.driver, path: target.subPath, entry },
          q,
        );
      },
    ),
  );

  app.get(
    "/file-thumbnail/:slug",
    described(
      (w) => ({
        summary: "A WebP thumbnail of a shared image or video (does not use a view)",
        errors: [...w.fileVisitErrors, "not_supported"],
        tag: "File shares",
        access: "public",
        query: w.thumbnailQuery,
        file: "image",
      }),
      async (c) => {
        const q = parseWith(thumbnailQuery, c.req.query());
        const { principal, slug, clientIp } = visitor(c);
        // delivers: false — a thumbnail is not the file, so it never uses a view.
        const { row } = await ctx.fileShares
          .authorizeDownload(
            principal,
            slug,
            { token: continuationToken(c), password: c.req.query("password") },
            { delivers: false, bot: isPreviewBot(c), clientIp },
          )
          .catch((e: unknown) => {
            throw withContentRouteStatus(e);
          });
        const { row: config, driver } = await ctx.storageConfigs.driverById(row.storage_config_id!);
        const entry = await driver.stat(row.storage_path);
        if (!entry || entry.isDirectory) throw storageNotFound(row.storage_path);
        // The share's recorded type and name decide what it is, not the stored object's.
        const named = { ...entry, name: row.filename, contentType: row.mimetype || entry.contentType };
        return send(c, { storageId: config.id, driver, path: row.storage_path, entry: named }, q);
      },
    ),
  );

  return app;
}
