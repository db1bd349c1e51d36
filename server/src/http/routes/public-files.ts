/**
 * What visitors of /file/:slug call: metadata, password check, the proxied
 * view/download streams and Office viewer URLs.
 */
import { filePasswordRequest } from "@clipshare/shared";
import { type Context, Hono } from "hono";
import type { AppContext } from "../../context";
import type { FileRow } from "../../db/schema";
import { isLinkPreviewBot } from "../../lib/link-preview-bots";
import { readJson } from "../body";
import { ok, plainTextError } from "../envelope";
import { publicOrigin } from "../request-origin";
import { serveObject } from "../serve-object";
import type { AppEnv } from "../types";

export function publicFileRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();
  const shares = ctx.fileShares;

  const countsView = (c: Context<AppEnv>) =>
    c.req.method === "GET" && !isLinkPreviewBot(c.req.header("user-agent")) && !c.req.header("range");

  app.get("/public/files/:slug", async (c) => {
    const data = await shares.view(c.get("principal"), c.req.param("slug"), { countView: countsView(c) });
    c.header("Cache-Control", "no-store");
    return ok(c, data, "Fetched");
  });

  app.post("/public/files/:slug/verify", async (c) => {
    const body = await readJson(c, filePasswordRequest);
    const data = await shares.unlock(
      c.get("principal"),
      c.req.param("slug"),
      body.password,
      c.get("clientIp"),
    );
    c.header("Cache-Control", "no-store");
    return ok(c, data, "Password verified");
  });

  const stream = (disposition: "inline" | "attachment") => async (c: Context<AppEnv>) => {
    try {
      const row = await shares.authorizeDownload(
        c.get("principal"),
        c.req.param("slug")!,
        { token: c.req.query("token"), password: c.req.query("password") },
        { countView: countsView(c), clientIp: c.get("clientIp") },
      );
      return await deliver(c, row, disposition);
    } catch (e) {
      return plainTextError(c, e);
    }
  };

  const deliver = async (c: Context<AppEnv>, row: FileRow, disposition: "inline" | "attachment") => {
    const { row: config, driver } = await ctx.storageConfigs.driverById(row.storage_config_id!);
    // Direct mode sends the browser to the storage itself where it can sign a URL.
    if (row.use_proxy === 0 && driver.presignRead && c.req.method === "GET") {
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
    return serveObject(c, driver, row.storage_path, {
      filename: row.filename,
      contentType: row.mimetype,
      disposition,
    });
  };

  app.get("/file-view/:slug", stream("inline"));
  app.get("/file-download/:slug", stream("attachment"));

  app.get("/office-preview/:slug", async (c) => {
    const row = await shares.authorizeDownload(
      c.get("principal"),
      c.req.param("slug"),
      { token: c.req.query("token"), password: c.req.query("password") },
      { countView: false, clientIp: c.get("clientIp") },
    );
    const { driver } = await ctx.storageConfigs.driverById(row.storage_config_id!);
    // The viewers fetch the file themselves: give them a presigned URL or our tokened proxy URL.
    const source = driver.presignRead
      ? (
          await driver.presignRead(row.storage_path, {
            filename: row.filename,
            disposition: "inline",
            expiresIn: 3600,
          })
        ).url
      : `${publicOrigin(c, ctx.config.trustProxy)}${shares.urlsFor(row).previewUrl}`;
    return ok(c, shares.officeViewerUrls(row, source), "Fetched");
  });

  return app;
}
