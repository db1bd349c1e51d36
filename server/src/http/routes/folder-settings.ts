/**
 * Folder settings (docs/folder-settings.md): what a folder shows above its
 * listing (GET /fs/folder), unlocking a password-protected folder (POST
 * /fs/unlock, rate-limited), and the admin's list and edits
 * (/admin/folder-settings). The rules are applied by the tree itself.
 */
import { folderSettingsRequest, fsPathQuery, fsUnlockRequest } from "@clipshare/shared";
import { Hono } from "hono";
import type { AppContext } from "../../context";
import { parseWith, readJson } from "../body";
import { ok } from "../envelope";
import { fsActorOf } from "../fs-actor";
import type { AppEnv } from "../types";

export function folderSettingsRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();
  const { folders } = ctx.fs;

  app.get("/fs/folder", async (c) => {
    const q = parseWith(fsPathQuery, c.req.query());
    return ok(c, await folders.view(fsActorOf(c), q.path), "Fetched");
  });

  app.post("/fs/unlock", async (c) => {
    const body = await readJson(c, fsUnlockRequest);
    return ok(c, await folders.unlock(fsActorOf(c), body.path, body.password, c.get("clientIp")), "Unlocked");
  });

  app.get("/admin/folder-settings", async (c) => ok(c, await folders.list(fsActorOf(c)), "Fetched"));

  app.put("/admin/folder-settings", async (c) => {
    const body = await readJson(c, folderSettingsRequest);
    return ok(c, await folders.put(fsActorOf(c), body), "Saved");
  });

  app.delete("/admin/folder-settings", async (c) => {
    const q = parseWith(fsPathQuery, c.req.query());
    await folders.remove(fsActorOf(c), q.path);
    return ok(c, null, "Deleted");
  });

  return app;
}
