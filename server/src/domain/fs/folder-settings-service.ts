/**
 * Folder settings (docs/folder-settings.md): the admin's edits, what a folder
 * shows above its listing, and path-password unlocking. The rules themselves
 * are applied by the tree (VirtualFileSystem.authorize, folder-rules.ts);
 * every change here drops the mount table on every instance, which holds them.
 */
import { randomUUID } from "node:crypto";
import type { FolderPass, FolderSettings, FolderView, folderSettingsRequest } from "@clipshare/shared";
import type { z } from "zod";
import { hashPassword, verifyPassword } from "../../auth/passwords";
import { requireAdmin } from "../../auth/policy";
import { RATE_LIMITS, type RateLimiter } from "../../auth/rate-limiter";
import type { Db } from "../../db/database";
import { nowIso } from "../../db/database";
import type { FolderSettingsRow } from "../../db/schema";
import { badRequest, forbidden, notFound } from "../../errors";
import type { FsActor } from "./access";
import type { FolderPasses } from "./folder-passes";
import { parseGlobList } from "./index-globs";
import type { VirtualFileSystem } from "./vfs";
import { displayPath, normalizeVirtualPath } from "./vpath";

type SettingsInput = z.infer<typeof folderSettingsRequest>;

export class FolderSettingsService {
  constructor(
    private readonly db: Db,
    private readonly vfs: VirtualFileSystem,
    private readonly passes: FolderPasses,
    private readonly limiter: RateLimiter,
    private readonly changed: () => Promise<void>,
  ) {}

  /** Every folder's settings (admin list), by path. */
  async list(actor: FsActor): Promise<FolderSettings[]> {
    requireAdmin(actor.principal);
    const rows = await this.db.selectFrom("folder_settings").selectAll().orderBy("path").execute();
    return rows.map(present);
  }

  /** What `path` shows above its listing; checked like a listing of it. */
  async view(actor: FsActor, input: string): Promise<FolderView> {
    const path = normalizeVirtualPath(input);
    await this.vfs.authorize(actor, "view", path);
    const rules = await this.vfs.mounts.folderRules();
    const effective = rules.effective(path);
    const admin = actor.principal.kind === "admin";
    const own = admin ? (rules.chain(path)[0] ?? null) : null;
    return {
      path: displayPath(path, true),
      readme: effective.readme?.text ?? null,
      header: effective.header?.text ?? null,
      locked_at: effective.lockedAt === null ? null : displayPath(effective.lockedAt, true),
      can_manage: admin,
      public: effective.publicList,
      own: own?.path === path ? present(own) : null,
    };
  }

  /** Creates or replaces one folder's settings; a row left with nothing set is removed. */
  async put(actor: FsActor, input: SettingsInput): Promise<FolderSettings | null> {
    requireAdmin(actor.principal);
    const path = normalizeVirtualPath(input.path);
    const patterns = parseGlobList(input.hide_patterns ?? "");
    if (patterns.some((p) => p.split("/").includes("..")))
      throw badRequest("A hide pattern cannot step out of its folder", "validation_failed");
    const existing = await this.db
      .selectFrom("folder_settings")
      .selectAll()
      .where("path", "=", path)
      .executeTakeFirst();
    const passwordHash =
      input.password === undefined
        ? (existing?.password_hash ?? null)
        : input.password === null
          ? null
          : await hashPassword(input.password);
    const values = {
      readme: blankToNull(input.readme),
      header: blankToNull(input.header),
      hide_patterns: patterns.join("\n"),
      password_hash: passwordHash,
      public_list:
        input.public_list === undefined || input.public_list === null ? null : input.public_list ? 1 : 0,
      updated_at: nowIso(),
    };
    const empty =
      values.readme === null &&
      values.header === null &&
      values.hide_patterns === "" &&
      values.password_hash === null &&
      values.public_list === null;
    let row: FolderSettingsRow | null = null;
    if (empty) {
      if (existing) await this.db.deleteFrom("folder_settings").where("id", "=", existing.id).execute();
    } else if (existing) {
      await this.db.updateTable("folder_settings").set(values).where("id", "=", existing.id).execute();
      row = { ...existing, ...values };
    } else {
      row = { id: randomUUID(), path, created_at: values.updated_at, ...values };
      await this.db.insertInto("folder_settings").values(row).execute();
    }
    await this.changed();
    return row && present(row);
  }

  async remove(actor: FsActor, input: string): Promise<void> {
    requireAdmin(actor.principal);
    const path = normalizeVirtualPath(input);
    const result = await this.db.deleteFrom("folder_settings").where("path", "=", path).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw notFound("This folder has no settings", "not_found");
    await this.changed();
  }

  /**
   * A pass to the folder whose password guards `path`, for a correct password:
   * checked against the folder-password limit per address and folder before
   * the hash is computed, like share passwords.
   */
  async unlock(actor: FsActor, input: string, password: string, clientIp: string): Promise<FolderPass> {
    const path = normalizeVirtualPath(input);
    await this.vfs.checkReach(actor, "view", path);
    const rules = await this.vfs.mounts.folderRules();
    const lock = rules.lockFor(path);
    // Hidden paths answer as if they did not exist, before any password is looked at.
    if (actor.principal.kind !== "admin" && !rules.shows(path)) throw notFound("Not found", "not_found");
    if (!lock?.password_hash) throw badRequest("This folder has no password", "folder_not_locked");
    const hash = lock.password_hash;
    const ok = await this.limiter.attempt(
      RATE_LIMITS.folderPassword,
      { clientIp, target: `folder:${lock.id}`, secret: password },
      () => verifyPassword(password, hash),
    );
    if (!ok) throw forbidden("Incorrect folder password", "folder_password_wrong");
    const pass = this.passes.issue(lock, actor.principal);
    return { path: displayPath(lock.path, true), ...pass };
  }
}

function blankToNull(text: string | null | undefined): string | null {
  return text === undefined || text === null || text.trim() === "" ? null : text;
}

function present(row: FolderSettingsRow): FolderSettings {
  return {
    id: row.id,
    path: displayPath(row.path, true),
    readme: row.readme,
    header: row.header,
    hide_patterns: row.hide_patterns,
    has_password: row.password_hash !== null,
    public_list: row.public_list === null ? null : row.public_list === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
