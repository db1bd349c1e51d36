/**
 * Collections (domain/collections): management under /collections (the admin,
 * or a key with the file-share bit, for its own; path items also need
 * mount-view) and the visitor's routes under /public/collections/:slug, which
 * need no credentials. A visit goes on with its access token: the cookie set
 * on /api/public/collections/<slug> or `?token=` (download-continuation.ts).
 */
import { Readable } from "node:stream";
import {
  batchDeleteCollectionsBody,
  collectionContentQuery,
  collectionFolderQuery,
  collectionPasswordBody,
  collectionThumbnailQuery,
  createCollectionBody,
  listCollectionsQuery,
  Permission,
  updateCollectionBody,
} from "@clipshare/shared";
import { type Context, Hono } from "hono";
import { requirePermission } from "../../auth/policy";
import type { AppContext } from "../../context";
import type { CollectionRow } from "../../db/schema";
import type { VisitAnswer } from "../../domain/collections/collection-visits";
import { zipFileName } from "../../domain/fs/zip-service";
import type { ContentGrant } from "../../domain/shares/share-access";
import { zipStream } from "../../lib/zip/zip-writer";
import { contentDisposition } from "../../storage/content-disposition";
import { parseWith, readJson } from "../body";
import { collectionContentPaths, continuationToken, withContinuationCookies } from "../download-continuation";
import { ok } from "../envelope";
import { fsActorOf } from "../fs-actor";
import { nodeBody } from "../node-body";
import { publicOrigin } from "../request-origin";
import { described, shareRouteDocs } from "../route-doc";
import { serveObject } from "../serve-object";
import { isPreviewBot, mayCountView, noStore, visitor } from "../share-visitor";
import type { AppEnv } from "../types";
import { withContentRouteStatus } from "./public-files";
import { sendThumbnail } from "./thumbnails";

/** Management: the creator, signed in with the file-share bit; visits: no credentials. */
const { managed, visiting } = shareRouteDocs("Collections");
/** A visitor opening a collection: gone, used up, or behind a password (with the limiter on it). */
const visitErrors = [
  "collection_not_found",
  "collection_expired",
  "collection_view_limit",
  "password_required",
  "wrong_password",
  "rate_limited",
] as const;
const itemErrors = [...visitErrors, "collection_item_not_found", "preview_bot_refused"] as const;
const itemPathErrors = [...itemErrors, "invalid_path", "path_forbidden", "storage_error"] as const;

export function collectionRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();
  const collections = ctx.collections;
  const visits = ctx.collectionVisits;
  const origin = (c: Context<AppEnv>) => publicOrigin(c, ctx.config.trustProxy);

  // ---- management
  app.post(
    "/collections",
    described(
      (w) =>
        managed({
          summary: "Share several files or a folder under one link",
          description:
            "Items are file shares of the caller ({file_id}) or explorer paths ({path}, which also needs MOUNT_VIEW).",
          errors: ["slug_taken", "collection_item_invalid", ...w.fsPathErrors],
          body: w.createCollectionBody,
          data: w.collection,
        }),
      async (c) => {
        requirePermission(c.get("principal"), Permission.FILE_SHARE);
        const body = await readJson(c, createCollectionBody);
        const created = await collections.create(c.get("principal"), fsActorOf(c), body);
        return ok(c, created, "Collection created", 201);
      },
    ),
  );
  app.get(
    "/collections",
    described(
      (w) =>
        managed({
          summary: "List own collections (the admin: all)",
          query: w.listCollectionsQuery,
          data: w.collectionList,
        }),
      async (c) => {
        const q = parseWith(listCollectionsQuery, c.req.query());
        const limit = q.limit ?? 20;
        const offset = q.offset ?? 0;
        const { items, total } = await collections.list(c.get("principal"), {
          limit,
          offset,
          search: q.search,
        });
        return ok(
          c,
          {
            collections: items,
            pagination: { total, limit, offset, hasMore: offset + items.length < total },
          },
          "Fetched",
        );
      },
    ),
  );
  app.delete(
    "/collections/batch-delete",
    described(
      (w) =>
        managed({
          summary: "Delete collections (with `delete_files`, also the file shares they list)",
          body: w.batchDeleteCollectionsBody,
          data: w.z.strictObject({
            success: w.z.number(),
            failed: w.z.array(w.z.strictObject({ id: w.z.string(), error: w.z.string() })),
          }),
        }),
      async (c) => {
        requirePermission(c.get("principal"), Permission.FILE_SHARE);
        const body = await readJson(c, batchDeleteCollectionsBody);
        const result = await collections.batchDelete(c.get("principal"), body.ids, body.delete_files);
        return ok(c, result, `Deleted ${result.success}, failed ${result.failed.length}`);
      },
    ),
  );
  app.get(
    "/collections/:id",
    described(
      (w) =>
        managed({
          summary: "One collection with its items",
          errors: ["collection_not_found"],
          data: w.collectionDetail,
        }),
      async (c) => ok(c, await collections.detail(c.get("principal"), c.req.param("id")!), "Fetched"),
    ),
  );
  app.put(
    "/collections/:id",
    described(
      (w) =>
        managed({
          summary: "Edit a collection (a new view limit starts the count again; `items` replaces the list)",
          errors: ["collection_not_found", "nothing_to_update", "slug_taken", "collection_item_invalid"],
          body: w.updateCollectionBody,
          data: w.collection,
        }),
      async (c) => {
        requirePermission(c.get("principal"), Permission.FILE_SHARE);
        const body = await readJson(c, updateCollectionBody);
        const updated = await collections.update(c.get("principal"), fsActorOf(c), c.req.param("id")!, body);
        return ok(c, updated, "Collection updated");
      },
    ),
  );

  // ---- the visitor

  /** The visit's answer; a new token also becomes the cookie on the collection's routes. */
  const answer = (c: Context<AppEnv>, { data, newToken }: VisitAnswer, message: string) => {
    noStore(c);
    const res = ok(c, data, message);
    return newToken
      ? withContinuationCookies(res, { paths: collectionContentPaths(data.slug), token: newToken }, origin(c))
      : res;
  };

  app.get(
    "/public/collections/:slug",
    described(
      (w) =>
        visiting({
          summary: "A collection's page: its items, with URLs carrying the visit's token (counts a view)",
          errors: [...visitErrors],
          data: w.z.union([w.publicCollection, w.lockedCollection]),
        }),
      async (c) => {
        const { principal, slug } = visitor(c);
        const visit = await visits.view(principal, slug, {
          countView: mayCountView(c),
          token: continuationToken(c),
          origin: origin(c),
        });
        return answer(c, visit, "Fetched");
      },
    ),
  );
  app.post(
    "/public/collections/:slug/verify",
    described(
      (w) =>
        visiting({
          summary: "Open a password-protected collection",
          errors: [...visitErrors, "password_not_required"],
          body: w.collectionPasswordBody,
          data: w.publicCollection,
        }),
      async (c) => {
        const body = await readJson(c, collectionPasswordBody);
        const { principal, ...at } = visitor(c);
        const visit = await visits.unlock(principal, { ...at, password: body.password }, origin(c));
        return answer(c, visit, "Password verified");
      },
    ),
  );

  /**
   * The access check of every content route: a token continues the visit; without one, the
   * password (`?password=`) and, on a view-limited collection, one view (`delivers`: a GET).
   */
  const authorize = async (
    c: Context<AppEnv>,
    delivers = c.req.method === "GET",
  ): Promise<ContentGrant<CollectionRow>> => {
    try {
      const { principal, slug, clientIp } = visitor(c);
      return await visits.authorize(
        principal,
        slug,
        { token: continuationToken(c), password: c.req.query("password") },
        { delivers, bot: isPreviewBot(c), clientIp },
      );
    } catch (e) {
      throw withContentRouteStatus(e);
    }
  };
  /** A request that used a view goes on with the new token (a browser's next request sends it). */
  const continued = (c: Context<AppEnv>, grant: ContentGrant<CollectionRow>, res: Response) =>
    grant.token && grant.token !== continuationToken(c)
      ? withContinuationCookies(
          res,
          { paths: collectionContentPaths(grant.row.slug), token: grant.token },
          origin(c),
        )
      : res;

  app.get(
    "/public/collections/:slug/items/:item/list",
    described(
      (w) =>
        visiting({
          summary: "One page of a folder in a collection",
          errors: [...itemPathErrors],
          query: w.collectionFolderQuery,
          data: w.collectionFolderPage,
        }),
      async (c) => {
        const q = parseWith(collectionFolderQuery, c.req.query());
        const grant = await authorize(c);
        const page = await visits.folderPage(
          grant,
          c.req.param("item")!,
          q.path,
          q.cursor ?? null,
          origin(c),
        );
        noStore(c);
        return continued(c, grant, ok(c, page, "Fetched"));
      },
    ),
  );

  const content = (disposition: "inline" | "attachment") => async (c: Context<AppEnv>) => {
    const q = parseWith(collectionContentQuery, c.req.query());
    const grant = await authorize(c);
    const item = await visits.item(grant.row, c.req.param("item")!);
    const file = await visits.content(grant.row, item, q.path);
    const res = await serveObject(c, file.driver, file.path, {
      filename: file.filename,
      contentType: file.contentType,
      disposition,
      entry: file.entry,
    });
    return continued(c, grant, res);
  };
  app.get(
    "/public/collections/:slug/items/:item/view",
    described(
      (w) =>
        visiting({
          summary: "A file of a collection, inline (previews)",
          errors: [...itemPathErrors, "invalid_range", "range_not_satisfiable"],
          query: w.collectionContentQuery,
          file: "bytes",
        }),
      content("inline"),
    ),
  );
  app.get(
    "/public/collections/:slug/items/:item/download",
    described(
      (w) =>
        visiting({
          summary: "A file of a collection, as a download",
          errors: [...itemPathErrors, "invalid_range", "range_not_satisfiable"],
          query: w.collectionContentQuery,
          file: "bytes",
        }),
      content("attachment"),
    ),
  );
  app.get(
    "/public/collections/:slug/items/:item/thumbnail",
    described(
      (w) =>
        visiting({
          summary: "A WebP thumbnail of an image or video in a collection (does not use a view)",
          errors: [...itemPathErrors, "not_supported"],
          query: w.collectionThumbnailQuery,
          file: "image",
        }),
      async (c) => {
        const q = parseWith(collectionThumbnailQuery, c.req.query());
        // delivers: false — a thumbnail is not the file, so it never uses a view.
        const grant = await authorize(c, false);
        const item = await visits.item(grant.row, c.req.param("item")!);
        const file = await visits.content(grant.row, item, q.path);
        return sendThumbnail(
          ctx.thumbnails,
          c,
          { storageId: file.storageId, driver: file.driver, path: file.path, entry: file.entry },
          q,
        );
      },
    ),
  );
  app.get(
    "/public/collections/:slug/zip",
    described(
      () =>
        visiting({
          summary: "Everything in a collection as one streamed ZIP (counts one view without a token)",
          errors: [...itemErrors],
          file: "bytes",
        }),
      async (c) => {
        const grant = await authorize(c);
        const { filename, entries } = await visits.zip(grant.row);
        const res = new Response(
          c.req.method === "HEAD" ? null : nodeBody(c, Readable.from(zipStream(entries))),
          {
            status: 200,
            headers: {
              "Content-Type": "application/zip",
              "Content-Disposition": contentDisposition("attachment", zipFileName(filename, [])),
              "Cache-Control": "no-store",
              "X-Content-Type-Options": "nosniff",
            },
          },
        );
        return continued(c, grant, res);
      },
    ),
  );

  return app;
}
