/**
 * File shares: management by owners, and visitor access. Visitor rules match
 * pastes: a view counts when a visitor is given the file or a URL to it
 * (metadata page, office viewer URL, or a download without an access token,
 * ranged or not), atomically against max_views; owners, the admin and HEAD
 * never count, and link-preview bots get metadata only. Each counted view
 * hands out a short-lived access token, so the rest of that download (Range
 * continuations, video seeking, resumes) does not count again.
 */
import type {
  batchDeleteFilesRequest,
  FileBatchDeleteResult,
  FileShare,
  FileShareDetail,
  FileShareUrls,
  LockedPublicFile,
  OfficeViewerUrls,
  PublicFile,
  updateFileRequest,
} from "@clipshare/shared";
import type { z } from "zod";
import { createdByKey, isCreator, whereOwned } from "../../auth/creator";
import { hashPassword } from "../../auth/passwords";
import type { Principal } from "../../auth/principal";
import type { RateLimiter } from "../../auth/rate-limiter";
import type { Db } from "../../db/database";
import { nowIso } from "../../db/database";
import type { FileRow } from "../../db/schema";
import { containsPattern, countMatching } from "../../db/sql-helpers";
import { AppError } from "../../errors";
import type { Logger } from "../../logger";
import { SHARE_TOKEN_TTL_SECONDS, type ShareAccessTokens } from "../shares/access-tokens";
import {
  type ContentGrant,
  lockedShare,
  type PasswordAttempt,
  remainingViews,
  ShareAccess,
} from "../shares/share-access";
import type { ShareEvents } from "../shares/share-events";
import type { StorageConfigService } from "../storage-configs/storage-config-service";
import { isOfficeType, presentFile, sharedFile, visitorRemark } from "./file-share-fields";
import { ShareStorageSweep } from "./share-storage-sweep";

type UpdateInput = z.output<typeof updateFileRequest>;
type BatchDeleteInput = z.output<typeof batchDeleteFilesRequest>;

export const FILE_MESSAGES = {
  notFound: "File does not exist",
  notOwned: "File does not exist or no access",
  notOwnedAdmin: "File does not exist",
  expired: "File has expired",
  viewLimit: "File has reached its maximum views",
  wrongPassword: "Incorrect password",
  passwordRequired: "Password required to access this file",
  passwordNotRequired: "This file does not need a password",
  slugTaken: "Link suffix already in use, try another suffix",
} as const;

/** The outcome of a visitor's content request (ShareAccess.authorizeContent). */
export type DownloadGrant = ContentGrant<FileRow>;

export interface ListFilesQuery {
  limit: number;
  offset: number;
  search?: string;
  createdBy?: string;
  /** Administrators: only this user's shares. */
  ownerId?: string;
  storageConfigId?: string;
}

export class FileShareService {
  private readonly access: ShareAccess<FileRow>;
  private readonly objects: ShareStorageSweep;
  private readonly deleteListeners: Array<(ids: string[]) => Promise<void>> = [];

  constructor(
    private readonly db: Db,
    configs: StorageConfigService,
    rateLimiter: RateLimiter,
    tokens: ShareAccessTokens,
    log: Logger,
    events?: ShareEvents,
  ) {
    this.access = new ShareAccess(
      db,
      rateLimiter,
      tokens,
      { kind: "file", table: "files", messages: FILE_MESSAGES, hasStatus: true },
      events,
    );
    this.objects = new ShareStorageSweep(db, configs, log);
  }

  // ---- management -------------------------------------------------------

  /**
   * The admin also sees reserved uploads that never finished (status pending):
   * they hold a link suffix and count as used space, so they must be visible
   * and releasable. Key holders see their published shares only.
   */
  async list(principal: Principal, query: ListFilesQuery) {
    let base = this.db
      .selectFrom("files")
      .where("files.status", "in", principal.kind === "admin" ? ["active", "pending"] : ["active"]);
    if (principal.kind !== "admin") base = whereOwned(base, "files", principal);
    else {
      if (query.createdBy) base = base.where("files.created_by", "=", query.createdBy);
      if (query.ownerId) base = base.where("files.owner_id", "=", query.ownerId);
    }
    if (query.storageConfigId) base = base.where("files.storage_config_id", "=", query.storageConfigId);
    if (query.search) {
      const pattern = containsPattern(query.search);
      base = base.where((eb) =>
        eb.or([
          eb("files.filename", "like", pattern),
          eb("files.slug", "like", pattern),
          eb("files.remark", "like", pattern),
        ]),
      );
    }
    const total = await countMatching(base);
    const rows = await base
      .leftJoin("storage_configs", "storage_configs.id", "files.storage_config_id")
      .leftJoin("api_keys", (join) => join.on(createdByKey("files.created_by")))
      .leftJoin("users", "users.id", "files.owner_id")
      .selectAll("files")
      .select([
        "users.username as owner_name",
        "storage_configs.name as storage_config_name",
        "storage_configs.provider_type as storage_provider_type",
        "api_keys.name as key_name",
        (eb) =>
          eb
            .selectFrom("upload_sessions")
            .select((s) => s.fn.max("upload_sessions.expires_at").as("e"))
            .whereRef("upload_sessions.file_id", "=", "files.id")
            .as("upload_expires_at"),
      ])
      .orderBy("files.created_at", "desc")
      .orderBy("files.id")
      .limit(query.limit)
      .offset(query.offset)
      .execute();
    return { items: rows.map(presentFile), total: total };
  }

  /**
   * One share for its owner. The proxy URLs carry neither password nor token:
   * they are the "direct links" owners hand out, and count views like any
   * visitor's download.
   */
  async get(principal: Principal, id: string, origin: string): Promise<FileShareDetail> {
    const row = await this.access.findOwned(principal, id);
    const config = row.storage_config_id
      ? await this.db
          .selectFrom("storage_configs")
          .select(["name", "provider_type"])
          .where("id", "=", row.storage_config_id)
          .executeTakeFirst()
      : undefined;
    const slug = encodeURIComponent(row.slug);
    return {
      ...presentFile({
        ...row,
        storage_config_name: config?.name ?? null,
        storage_provider_type: config?.provider_type ?? null,
      }),
      urls: {
        ...this.urlsFor(row, origin),
        proxyPreviewUrl: `${origin}/api/file-view/${slug}`,
        proxyDownloadUrl: `${origin}/api/file-download/${slug}`,
      },
    };
  }

  /** A share the principal created (the admin: any); 404 otherwise. */
  owned(principal: Principal, idOrSlug: string): Promise<FileRow> {
    return this.access.findOwned(principal, idOrSlug);
  }

  async update(principal: Principal, id: string, input: UpdateInput): Promise<FileShare> {
    const row = await this.access.findOwned(principal, id);
    const patch: Partial<FileRow> = { updated_at: nowIso() };
    if (input.remark !== undefined) patch.remark = input.remark || null;
    if (input.slug !== undefined) patch.slug = input.slug;
    if (input.filename !== undefined) patch.filename = input.filename;
    if (input.password !== undefined)
      patch.password_hash = input.password ? await hashPassword(input.password) : null;
    if (input.expires_at !== undefined) patch.expires_at = input.expires_at;
    if (input.max_views !== undefined) {
      patch.max_views = input.max_views;
      patch.views = 0;
    }
    if (input.use_proxy !== undefined) patch.use_proxy = input.use_proxy ? 1 : 0;
    if (input.no_log !== undefined) patch.no_log = input.no_log ? 1 : 0;
    await this.access.update(row.id, patch);
    return presentFile({ ...row, ...patch } as FileRow);
  }

  /** Told of shares about to be deleted by their owner (a file request gives their slots back). */
  onDelete(listener: (ids: string[]) => Promise<void>): void {
    this.deleteListeners.push(listener);
  }

  /** Deletes share rows the caller owns; with "both" also the stored objects (best effort, reported). */
  async batchDelete(principal: Principal, input: BatchDeleteInput): Promise<FileBatchDeleteResult> {
    const failed: Array<{ id: string; error: string }> = [];
    let success = 0;
    for (const id of input.ids) {
      const row = await this.db.selectFrom("files").selectAll().where("id", "=", id).executeTakeFirst();
      if (!row || !isCreator(principal, row)) {
        failed.push({
          id,
          error:
            principal.kind === "admin"
              ? "File does not exist"
              : "File does not exist or no permission to delete",
        });
        continue;
      }
      for (const listener of this.deleteListeners) await listener([row.id]);
      // A reserved upload is released whole (its partial bytes are nobody's).
      if (row.status !== "pending" || !(await this.objects.releaseReservation(row))) {
        if (input.delete_mode === "both") await this.objects.remove(row);
        await this.db.deleteFrom("files").where("id", "=", id).execute();
      }
      success++;
    }
    return { success, failed };
  }

  // ---- visitors ------------------------------------------------------------

  /**
   * GET /public/files/:slug. URLs are absolute on `origin`. `delivered` is the
   * row when URLs to the content went to a visitor (what the access log records).
   */
  async view(
    principal: Principal,
    slug: string,
    options: { countView: boolean; origin: string },
  ): Promise<{ data: PublicFile | LockedPublicFile; delivered: FileRow | null }> {
    const { row, grant } = await this.access.open(principal, slug, options);
    const data =
      row.password_hash !== null && grant === "metadata"
        ? lockedShare(row)
        : this.publicData(row, { withUrls: grant !== "metadata", origin: options.origin });
    return { data, delivered: grant === "view" ? row : null };
  }

  /** POST /public/files/:slug/verify {password}. */
  async unlock(
    principal: Principal,
    attempt: PasswordAttempt,
    origin: string,
  ): Promise<{ data: PublicFile; delivered: FileRow | null }> {
    const { row, owner } = await this.access.unlock(principal, attempt);
    return { data: this.publicData(row, { withUrls: true, origin }), delivered: owner ? null : row };
  }

  /** The access check of /file-view, /file-download and /office-preview (ShareAccess.authorizeContent). */
  authorizeDownload(
    principal: Principal,
    slug: string,
    credentials: { token?: string | undefined; password?: string | undefined },
    options: Parameters<ShareAccess<FileRow>["authorizeContent"]>[3],
  ): Promise<DownloadGrant> {
    return this.access.authorizeContent(principal, slug, credentials, options);
  }

  assertOfficeType(row: FileRow): void {
    if (!isOfficeType(row.mimetype)) throw new AppError(400, "not_office_file", "Not an Office file type");
  }

  tokenSecondsLeft(token: string): number {
    return this.access.tokenSecondsLeft(token);
  }

  /** Microsoft and Google viewer URLs for an Office file, given a URL the viewers can fetch. */
  officeViewerUrls(row: FileRow, sourceUrl: string): OfficeViewerUrls {
    this.assertOfficeType(row);
    const encoded = encodeURIComponent(sourceUrl);
    return {
      url: `https://view.officeapps.live.com/op/view.aspx?src=${encoded}`,
      microsoft: `https://view.officeapps.live.com/op/view.aspx?src=${encoded}`,
      google: `https://docs.google.com/viewer?url=${encoded}&embedded=true`,
      filename: row.filename,
      mimetype: row.mimetype,
      expires_in: SHARE_TOKEN_TTL_SECONDS,
      is_temporary: true,
    };
  }

  /**
   * Proxy URLs carrying an access token (`token`, else a fresh one), absolute
   * when given the origin clients reach us on.
   */
  urlsFor(row: FileRow, origin = "", token?: string | null): FileShareUrls {
    const access = encodeURIComponent(token ?? this.access.issueToken(row));
    return {
      previewUrl: `${origin}/api/file-view/${encodeURIComponent(row.slug)}?token=${access}`,
      downloadUrl: `${origin}/api/file-download/${encodeURIComponent(row.slug)}?token=${access}`,
      use_proxy: row.use_proxy === 1,
    };
  }

  /**
   * Inserts a share row. Without a custom slug a taken random slug is replaced
   * by another (a few tries); a taken custom slug is 409.
   */
  insertRow(row: FileRow, customSlug: boolean): Promise<void> {
    return this.access.insert(row, customSlug);
  }

  // ---- housekeeping --------------------------------------------------------

  /** See ShareStorageSweep.sweep. */
  sweep(now = new Date()): Promise<{ reservations: number; shares: number }> {
    return this.objects.sweep(now);
  }

  /** Removes a share's stored object (best effort, see ShareStorageSweep.remove). */
  removeObject(row: FileRow): Promise<void> {
    return this.objects.remove(row);
  }

  // ---- internals -----------------------------------------------------------

  /** What visitors see; with URLs, also their access token (the routes set it as the continuation cookie). */
  private publicData(row: FileRow, options: { withUrls: boolean; origin: string }): PublicFile {
    const token = options.withUrls ? this.access.issueToken(row) : null;
    return {
      ...sharedFile(row),
      remark: visitorRemark(row),
      created_at: row.created_at,
      created_by: row.created_by,
      requires_password: false,
      has_password: row.password_hash !== null,
      views: row.views,
      max_views: row.max_views,
      remaining_views: remainingViews(row),
      expires_at: row.expires_at,
      is_office: isOfficeType(row.mimetype),
      ...(token
        ? { ...this.urlsFor(row, options.origin, token), accessToken: token }
        : { use_proxy: row.use_proxy === 1 }),
    };
  }
}
