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
import { described } from "../route-doc";
import type { AppEnv } from "../types";

export function folderSettingsRoutes(ctx: AppContext) {
  const app = new Hono<AppEnv>();
  const { folders } = ctx.fs;

  app.get(
    "/fs/folder",
    described(
      (w) => ({
        summary: "What a folder shows above its listing (readme, header) and whether a password guards it",
        tag: "File system",
        access: "key",
        permissions: ["MOUNT_VIEW"],
        visitors: true,
        errors: [...w.fsPathErrors],
        query: w.fsPathQuery,
        data: w.folderView,
      }),
      async (c) => {
        const q = parseWith(fsPathQuery, c.req.query());
        return ok(c, await folders.view(fsActorOf(c), q.path), "Fetched");
      },
    ),
  );

  app.post(
    "/fs/unlock",
    described(
      (w) => ({
        summary: "A pass to a password-protected folder, sent back in X-Folder-Token",
        tag: "File system",
        access: "key",
        permissions: ["MOUNT_VIEW"],
        visitors: true,
        errors: [...w.fsPathErrors, "folder_not_locked", "folder_password_wrong", "rate_limited"],
        body: w.fsUnlockRequest,
        data: w.folderPass,
      }),
      async (c) => {
        const body = await readJson(c, fsUnlockRequest);
        return ok(
          c,
          await folders.unlock(fsActorOf(c), body.path, body.password, c.get("clientIp")),
          "Unlocked",
        );
      },
    ),
  );

  app.get(
    "/admin/folder-settings",
    described(
      (w) => ({
        summary: "Every folder's settings",
        tag: "File system",
        access: "admin",
        data: w.folderSettingsList,
      }),
      async (c) => ok(c, await folders.list(fsActorOf(c)), "Fetched"),
    ),
  );

  app.put(
    "/admin/folder-settings",
    described(
      (w) => ({
        summary: "Create or replace one folder's settings (null when nothing is left set)",
        tag: "File system",
        access: "admin",
        errors: ["invalid_path"],
        body: w.folderSettingsRequest,
        data: w.folderSettings.nullable(),
      }),
      async (c) => {
        const body = await readJson(c, folderSettingsRequest);
        return ok(c, await folders.put(fsActorOf(c), body), "Saved");
      },
    ),
  );

  app.delete(
    "/admin/folder-settings",
    described(
      (w) => ({
        summary: "Remove one folder's settings",
        tag: "File system",
        access: "admin",
        errors: ["invalid_path", "not_found"],
        query: w.fsPathQuery,
      }),
      async (c) => {
        const q = parseWith(fsPathQuery, c.req.query());
        await folders.remove(fsActorOf(c), q.path);
        return ok(c, null, "Deleted");
      },
    ),
  );

  return app;
}
