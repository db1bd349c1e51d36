/**
 * What visitors of /file/:slug call: metadata, password check, the proxied
 * view/download streams and Office viewer URLs. Every URL handed out is
 * absolute on the origin the client reached us on (a web app served from
 * another origin fetches them as they are).
 */
import { archiveEntryQuery, filePasswordRequest } from "@clipshare/shared";
import { type Context, Hono } from "hono";
import type { AppContext } from "../../context";
import type { FileRow } from "../../db/schema";
import {
  archiveKindOf,
  listArchive,
  notAnArchive,
  openArchiveEntry,
  openedArchive,
} from "../../domain/archives/archive-reader";
import type { DownloadGrant } from "../../domain/files/file-share-service";
import { SHARE_TOKEN_TTL_SECONDS } from "../../domain/shares/access-tokens";
import { AppError, isAppError } from "../../errors";
import { metrics } from "../../lib/metrics";
import { archiveEntryResponse } from "../archive-entry";
import { parseWith, readJson } from "../body";
import { continuationToken, fileContentPaths, withContinuationCookies } from "../download-continuation";
import { ok, okWithTopLevel, plainTextError } from "../envelope";
import { publicOrigin } from "../request-origin";
import { described } from "../route-doc";
import { isRevalidation, notModifiedFor, serveObject } from "../serve-object";
import { isPreviewBot, logAccess, mayCountView, noStore, visitor } from "../share-visitor";
import type { AppEnv } from "../types";

/**
 * 0.7.3 clients branch on a wrong password on the content routes being 403
 * (the JSON verify route stays 401).
 */
export function withContentRouteStatus(e: unknown): unknown {
  if (isAppError(e) && e.error === "wrong_password") return new AppError(403, e.error, e.message);
  return e;
}

/** A metadata answer that handed out tokened URLs also sets the token for the content routes. */
function withAccessCookies(res: Response, data: { slug: string; accessToken?: string }, origin: string) {
  return data.accessToken
    ? withContinuationCookies(res, { paths: fileContentPaths(data.slug), token: data.accessToken }, origin)
    : res;
}

export function publicFileRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();
  const shares = ctx.fileShares;
  const origin = (c: Context<AppEnv>) => publicOrigin(c, ctx.config.trustProxy);

  app.get(
    "/public/files/:slug",
    described(
      (w) => ({
        summary: "A file share's page data (counts a view)",
        errors: [...w.fileVisitErrors],
        tag: "File shares",
        access: "public",
        data: w.publicFile,
      }),
      async (c) => {
        const { principal, slug } = visitor(c);
        const { data, delivered } = await shares.view(principal, slug, {
          countView: mayCountView(c),
          origin: origin(c),
        });
        if (delivered) logAccess(c, ctx.accessLog, delivered, "file", "page_view", null);
        noStore(c);
        return withAccessCookies(ok(c, data, "Fetched"), data, origin(c));
      },
    ),
  );

  app.post(
    "/public/files/:slug/verify",
    described(
      (w) => ({
        summary: "Open a password-protected file share",
        errors: [...w.fileVisitErrors, "password_not_required"],
        tag: "File shares",
        access: "public",
        body: w.filePasswordRequest,
        data: w.publicFile,
      }),
      async (c) => {
        const body = await readJson(c, filePasswordRequest);
        const { principal, ...at } = visitor(c);
        const attempt = { ...at, password: body.password };
        const { data, delivered } = await shares.unlock(principal, attempt, origin(c));
        if (delivered) logAccess(c, ctx.accessLog, delivered, "file", "page_view", null);
        noStore(c);
        return withAccessCookies(ok(c, data, "Password verified"), data, origin(c));
      },
    ),
  );

  /**
   * The access check of every route that hands out content or a URL to it. `delivers: false`
   * checks access without using a view (a HEAD, or a revalidation that turns out to be a 304).
   */
  const authorize = async (
    c: Context<AppEnv>,
    accept?: (row: FileRow) => void,
    delivers = c.req.method === "GET",
  ): Promise<DownloadGrant> => {
    try {
      const { principal, slug, clientIp } = visitor(c);
      return await shares.authorizeDownload(
        principal,
        slug,
        { token: continuationToken(c), password: c.req.query("password") },
        { delivers, bot: isPreviewBot(c), clientIp, accept },
      );
    } catch (e) {
      throw withContentRouteStatus(e);
    }
  };

  /** A 304 for a client whose copy is current: access is checked, but nothing is delivered or counted. */
  const notModified = async (c: Context<AppEnv>, disposition: "inline" | "attachment") => {
    const { row } = await authorize(c, undefined, false);
    const { driver } = await ctx.storageConfigs.driverById(row.storage_config_id!);
    // Direct mode answers with a redirect, which the storage revalidates itself.
    if (row.use_proxy === 0 && driver.presignRead) return null;
    const meta = await driver.stat(row.storage_path);
    if (!meta || meta.isDirectory || !notModifiedFor(c, meta)) return null;
    return serveObject(c, driver, row.storage_path, {
      filename: row.filename,
      contentType: row.mimetype,
      disposition,
      entry: meta,
    });
  };

  const stream = (disposition: "inline" | "attachment") => async (c: Context<AppEnv>) => {
    try {
      if (c.req.method === "GET" && isRevalidation(c)) {
        const unchanged = await notModified(c, disposition);
        if (unchanged) return unchanged;
      }
      const grant = await authorize(c);
      metrics.download(grant.row.storage_type);
      const res = await deliver(c, grant, disposition);
      // A download granted by a view or a password goes on with a new token (Range continuations).
      return grant.token && grant.token !== continuationToken(c)
        ? withContinuationCookies(
            res,
            { paths: fileContentPaths(grant.row.slug), token: grant.token },
            origin(c),
          )
        : res;
    } catch (e) {
      return plainTextError(c, e);
    }
  };

  const deliver = async (c: Context<AppEnv>, grant: DownloadGrant, disposition: "inline" | "attachment") => {
    const { row } = grant;
    const { row: config, driver } = await ctx.storageConfigs.driverById(row.storage_config_id!);
    const logged = !grant.owner && c.req.method === "GET";
    // Direct mode sends the browser to the storage itself where it can sign a URL.
    if (row.use_proxy === 0 && driver.presignRead && c.req.method === "GET") {
      if (logged) logAccess(c, ctx.accessLog, row, "file", "presigned_redirect", null);
      if (config.custom_host && driver.publicUrl && disposition === "inline")
        return c.redirect(driver.publicUrl(row.storage_path), 302);
      const signed = await driver.presignRead(row.storage_path, {
        filename: row.filename,
        disposition,
        contentType: row.mimetype,
        expiresIn: config.signature_expires_in,
      });
      return c.redirect(signed.url, 302);
    }
    const kind = disposition === "inline" ? "preview" : "download";
    return serveObject(c, driver, row.storage_path, {
      filename: row.filename,
      contentType: row.mimetype,
      disposition,
      onSent: logged ? (bytes) => logAccess(c, ctx.accessLog, row, "file", kind, bytes) : undefined,
    });
  };

  app.get(
    "/file-view/:slug",
    described(
      (w) => ({
        summary: "The shared file, inline",
        errors: [...w.fileVisitErrors, "preview_bot_refused", "invalid_range", "range_not_satisfiable"],
        tag: "File shares",
        access: "public",
        file: "bytes",
      }),
      stream("inline"),
    ),
  );
  app.get(
    "/file-download/:slug",
    described(
      (w) => ({
        summary: "The shared file, as a download",
        errors: [...w.fileVisitErrors, "preview_bot_refused", "invalid_range", "range_not_satisfiable"],
        tag: "File shares",
        access: "public",
        file: "bytes",
      }),
      stream("attachment"),
    ),
  );

  // Inside an archive share (domain/archives, with its zip-bomb and name guards): the entries, and
  // one entry streamed out. Both are the share's content: they take a view as a preview does,
  // unless the page's access token already paid for it.
  const archiveOf = async (c: Context<AppEnv>) => {
    const grant = await authorize(c, (row) => {
      // An end-to-end encrypted share is ciphertext to the server.
      if (row.encrypted_meta !== null || !archiveKindOf(row.filename)) throw notAnArchive();
    });
    const { driver } = await ctx.storageConfigs.driverById(grant.row.storage_config_id!);
    const { storage_path: path, filename: name, size } = grant.row;
    return { grant, ...openedArchive(driver, { path, name, size }) };
  };

  app.get(
    "/file-archive/:slug",
    described(
      (w) => ({
        summary: "The entries of a shared ZIP, TAR or TAR.GZ file, without unpacking it",
        errors: [...w.fileVisitErrors, "preview_bot_refused", ...w.archiveErrors],
        tag: "File shares",
        access: "public",
        data: w.fsArchiveListing,
      }),
      async (c) => {
        try {
          const { grant, kind, source } = await archiveOf(c);
          const listing = await listArchive(source, kind);
          if (!grant.owner) logAccess(c, ctx.accessLog, grant.row, "file", "preview", null);
          noStore(c);
          return ok(c, listing, "Fetched");
        } catch (e) {
          throw withContentRouteStatus(e);
        }
      },
    ),
  );

  app.get(
    "/file-archive/:slug/entry",
    described(
      (w) => ({
        summary: "One entry of a shared archive, streamed out",
        errors: [...w.fileVisitErrors, "preview_bot_refused", ...w.archiveEntryErrors],
        tag: "File shares",
        access: "public",
        query: w.archiveEntryQuery,
        file: "bytes",
      }),
      async (c) => {
        try {
          const q = parseWith(archiveEntryQuery, c.req.query());
          const { grant, kind, source } = await archiveOf(c);
          const opened = await openArchiveEntry(source, kind, q.entry);
          const kindOfAccess = q.download ? "download" : "preview";
          if (!grant.owner) logAccess(c, ctx.accessLog, grant.row, "file", kindOfAccess, opened.size);
          return archiveEntryResponse(c, opened, q.entry, q.download ?? false);
        } catch (e) {
          throw withContentRouteStatus(e);
        }
      },
    ),
  );

  // 0.7.3 clients read a top-level `url` (the file's own URL) and build the viewer
  // link themselves; ClipShare's app reads `data` with the viewer links built.
  app.get(
    "/office-preview/:slug",
    described(
      (w) => ({
        summary: "Office viewer URLs for a shared document",
        errors: [...w.fileVisitErrors, "not_office_file"],
        tag: "File shares",
        access: "public",
        data: w.officeViewerUrls,
      }),
      async (c) => {
        const { row, token, owner } = await authorize(c, (r) => shares.assertOfficeType(r));
        // The viewer fetches the file through the URL handed out here; that fetch is logged on its own.
        if (!owner && c.req.method === "GET") logAccess(c, ctx.accessLog, row, "file", "preview", null);
        const { driver } = await ctx.storageConfigs.driverById(row.storage_config_id!);
        // A URL to the content never outlives the access it was handed out under.
        const lifetime = token ? Math.max(60, shares.tokenSecondsLeft(token)) : SHARE_TOKEN_TTL_SECONDS;
        const direct = driver.presignRead
          ? (
              await driver.presignRead(row.storage_path, {
                filename: row.filename,
                disposition: "inline",
                expiresIn: lifetime,
              })
            ).url
          : shares.urlsFor(row, origin(c), token).previewUrl;
        const viewers = shares.officeViewerUrls(row, direct);
        noStore(c);
        return okWithTopLevel(
          c,
          viewers,
          {
            url: direct,
            filename: row.filename,
            mimetype: row.mimetype,
            expires_in: lifetime,
            is_temporary: true,
          },
          "Fetched",
        );
      },
    ),
  );

  return app;
}
