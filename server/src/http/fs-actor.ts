import type { Context } from "hono";
import { apiActor, type FsActor } from "../domain/fs/access";
import { FOLDER_TOKEN_HEADER, folderTokensOf } from "../domain/fs/folder-passes";
import type { AppEnv } from "./types";

/** The caller of a file-system route: its principal and the folder passes it sends (X-Folder-Token). */
export const fsActorOf = (c: Context<AppEnv>): FsActor =>
  apiActor(c.get("principal"), folderTokensOf(c.req.header(FOLDER_TOKEN_HEADER)));
