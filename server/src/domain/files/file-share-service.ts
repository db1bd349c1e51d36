/**
 * File shares: management by owners, and visitor access. Visitor rules match
 * pastes: a view counts when a visitor is given the file or a URL to it
 * (metadata page, office viewer URL, or a download without an access token,
 * ranged or not), atomically against max_views; owners, the admin and HEAD
 * never count, and link-preview bots get metadata only. Each counted view
 * hands out a short-lived access token, so the rest of that download (Range
 * continuations, video seeking, resumes) does not count again.
 */
import { type batchDeleteFilesRequest, OFFICE_MIME_TYPES, type updateFileRequest } from "@clipshare/shared";
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from "kysely";
import type { z } from "zod";
import { checkSharePassword, hashPassword } from "../../auth/passwords";
import { isCreator } from "../../auth/policy";
import type { Principal } from "../../auth/principal";
import type { RateLimiter } from "../../auth/rate-limiter";
import type { Db } from "../../db/database";
import { nowIso } from "../../db/database";
import type { Database, FileRow } from "../../db/schema";
import { AppError, conflict, gone, notFound } from "../../errors";
import { randomBase62 } from "../../lib/crypto";
import { SHARE_TOKEN_TTL_SECONDS, type ShareAccessTokens } from "../../lib/share-access-token";
import type { Logger } from "../../logger";
import { isUniqueViolation } from "../api-keys/api-key-service";
import type { StorageConfigService } from "../storage-configs/storage-config-service";

type UpdateInput = z.output<typeof updateFileRequest>;
type BatchDeleteInput = z.output<typeof batchDeleteFilesRequest>;

/** Length of generated share slugs. */
export const RANDOM_SLUG_LENGTH = 10;

export const FILE_MESSAGES = {
  notFound: "File does not exist",
  expired: "File has expired",
  viewLimit: "File has reached its maximum views",
  wrongPassword: "Incorrect password",
  passwordRequired: "Password required to access this file",
  slugTaken: "Link suffix already in use, try another suffix",
  botRefused: "Link previews get no file content: open the link in a browser",
} as const;

/** The outcome of a visitor's content request: what to serve and the access token it may go on with. */
export interface DownloadGrant {
  row: FileRow;
  /** The token that authorizes the rest of this download (the one presented, or a new one); null when none is needed. */
  token: string | null;
  /** A view was used for this request (the token is new). */
  counted: boolean;
}

/** The remark a share made from the explorer gets unless one is given (as 0.7.3 wrote it). */
export function explorerShareRemark(path: string): string {
  return `From file system: ${path}`;
}

/**
 * The remark visitors see: the explorer's default remark names the server
 * path, which is for the owner only, so visitors get none instead.
 */
function visitorRemark(row: Pick<FileRow, "remark" | "file_path">): string | null {
  if (row.file_path !== null && row.remark === explorerShareRemark(row.file_path)) return null;
  return row.remark;
}

type FileState = "ok" | "expired" | "view_limit";

export function fileState(
  row: Pick<FileRow, "expires_at" | "max_views" | "views">,
  now = nowIso(),
): FileState {
  if (row.expires_at !== null && row.expires_at <= now) return "expired";
  if (row.max_views !== null && row.views >= row.max_views) return "view_limit";
  return "ok";
}

function goneFor(state: Exclude<FileState, "ok">): AppError {
  return state === "expired"
    ? gone(FILE_MESSAGES.expired, "file_expired")
    : gone(FILE_MESSAGES.viewLimit, "file_view_limit");
}

export function isOfficeType(mimetype: string): boolean {
  return OFFICE_MIME_TYPES.includes(mimetype.split(";")[0]!.trim().toLowerCase());
}

/**
 * Where an unfinished upload stands: "uploading" while its upload session is
 * live (the client may still finish it), "incomplete" once the session has
 * lapsed (the next housekeeping pass releases its link suffix). Null for a
 * published share.
 */
export type UploadState = "uploading" | "incomplete" | null;

export function uploadState(
  row: Pick<FileRow, "status">,
  sessionExpiresAt: string | null | undefined,
  now = nowIso(),
): UploadState {
  if (row.status !== "pending") return null;
  return sessionExpiresAt && sessionExpiresAt > now ? "uploading" : "incomplete";
}

/** Management row: everything but the password hash. */
export function presentFile(
  row: FileRow & {
    storage_config_name?: string | null;
    storage_provider_type?: string | null;
    key_name?: string | null;
    upload_expires_at?: string | null;
  },
) {
  const state = fileState(row);
  return {
    id: row.id,
    slug: row.slug,
    filename: row.filename,
    mimetype: row.mimetype,
    size: row.size,
    etag: row.etag,
    remark: row.remark,
    storage_config_id: row.storage_config_id,
    storage_type: row.storage_type,
    storage_path: row.storage_path,
    file_path: row.file_path,
    mount_id: row.mount_id,
    storage_config_name: row.storage_config_name ?? null,
    storage_provider_type: row.storage_provider_type ?? null,
    has_password: row.password_hash !== null,
    expires_at: row.expires_at,
    max_views: row.max_views,
    views: row.views,
    remaining_views: row.max_views === null ? null : Math.max(0, row.max_views - row.views),
    is_expired: state !== "ok",
    state,
    use_proxy: row.use_proxy === 1,
    status: row.status,
    upload_state: uploadState(row, row.upload_expires_at),
    upload_expires_at: row.status === "pending" ? (row.upload_expires_at ?? null) : null,
    created_by: row.created_by,
    key_name: row.key_name ?? null,
    created_at: row.created_at,
    updated_at: row.updated_at,
    url: `/file/${row.slug}`,
  };
}

export interface ListFilesQuery {
  limit: number;
  offset: number;
  search?: string;
  createdBy?: string;
  storageConfigId?: string;
}

export class FileShareService {
  constructor(
    private readonly db: Db,
    private readonly configs: StorageConfigService,
    private readonly rateLimiter: RateLimiter,
    private readonly tokens: ShareAccessTokens,
    private readonly log: Logger,
  ) {}

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
    if (principal.kind === "apiKey")
      base = base.where("files.created_by", "in", [`apikey:${principal.key.id}`, principal.key.id]);
    else if (query.createdBy) base = base.where("files.created_by", "=", query.createdBy);
    if (query.storageConfigId) base = base.where("files.storage_config_id", "=", query.storageConfigId);
    if (query.search) {
      const pattern = `%${query.search.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
      base = base.where((eb) =>
        eb.or([
          eb("files.filename", "like", sql<string>`${pattern} escape '\\'`),
          eb("files.slug", "like", sql<string>`${pattern} escape '\\'`),
          eb("files.remark", "like", sql<string>`${pattern} escape '\\'`),
        ]),
      );
    }
    const { total } = await base
      .select((eb) => eb.fn.countAll<number>().as("total"))
      .executeTakeFirstOrThrow();
    const rows = await base
      .leftJoin("storage_configs", "storage_configs.id", "files.storage_config_id")
      .leftJoin("api_keys", (join) => join.on(sql`files.created_by`, "=", sql`'apikey:' || api_keys.id`))
      .selectAll("files")
      .select([
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
    return { items: rows.map(presentFile), total: Number(total) };
  }

  /**
   * One share for its owner. The proxy URLs carry neither password nor token:
   * they are the "direct links" owners hand out, and count views like any
   * visitor's download.
   */
  async get(principal: Principal, id: string, origin: string) {
    const row = await this.requireOwned(principal, id);
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

  async update(principal: Principal, id: string, input: UpdateInput) {
    const row = await this.requireOwned(principal, id);
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
    try {
      await this.db.updateTable("files").set(patch).where("id", "=", row.id).execute();
    } catch (e) {
      if (isUniqueViolation(e)) throw conflict(FILE_MESSAGES.slugTaken, "slug_taken");
      throw e;
    }
    return presentFile({ ...row, ...patch } as FileRow);
  }

  /** Deletes share rows the caller owns; with "both" also the stored objects (best effort, reported). */
  async batchDelete(principal: Principal, input: BatchDeleteInput) {
    const failed: Array<{ id: string; error: string }> = [];
    let success = 0;
    for (const id of input.ids) {
      const row = await this.db.selectFrom("files").selectAll().where("id", "=", id).executeTakeFirst();
      if (!row || !isCreator(principal, row.created_by)) {
        failed.push({
          id,
          error:
            principal.kind === "admin"
              ? "File does not exist"
              : "File does not exist or no permission to delete",
        });
        continue;
      }
      // A reserved upload is released whole (its partial bytes are nobody's).
      if (row.status !== "pending" || !(await this.releaseReservation(row))) {
        if (input.delete_mode === "both") await this.removeObject(row);
        await this.db.deleteFrom("files").where("id", "=", id).execute();
      }
      success++;
    }
    return { success, failed };
  }

  // ---- visitors ------------------------------------------------------------

  /** GET /public/files/:slug. URLs are absolute on `origin`. */
  async view(principal: Principal, slug: string, options: { countView: boolean; origin: string }) {
    const row = await this.findActive(slug);
    const { origin } = options;
    if (this.isOwner(principal, row)) return this.publicData(row, { withUrls: true, origin });
    const state = fileState(row);
    if (state !== "ok") throw goneFor(state);
    if (row.password_hash !== null) return this.publicData(row, { withUrls: false, origin });
    if (!options.countView) return this.publicData(row, { withUrls: false, origin });
    const counted = await this.countView((eb) => eb("id", "=", row.id));
    if (!counted) throw goneFor(fileState(row) === "expired" ? "expired" : "view_limit");
    return this.publicData(counted, { withUrls: true, origin });
  }

  /** POST /public/files/:slug/verify {password}. */
  async unlock(principal: Principal, slug: string, password: string, clientIp: string, origin: string) {
    const row = await this.findActive(slug);
    const owner = this.isOwner(principal, row);
    const state = fileState(row);
    if (state !== "ok" && !owner) throw goneFor(state);
    if (row.password_hash === null)
      throw new AppError(400, "password_not_required", "This file does not need a password");
    await this.checkPassword(row, password, clientIp);
    if (owner) return this.publicData(row, { withUrls: true, origin });
    const counted = await this.countView((eb) => eb("id", "=", row.id));
    if (!counted) throw goneFor("view_limit");
    return this.publicData(counted, { withUrls: true, origin });
  }

  /**
   * Access check for everything that hands out a share's content or a URL to
   * it (/file-view, /file-download, /office-preview). A valid access token
   * continues a download already paid for, without counting; a link-preview
   * bot without one gets nothing; anyone else needs the password (if any)
   * and, when the share has a view limit and the request delivers content
   * (`delivers`: not HEAD), uses a view, whatever its Range header says.
   */
  async authorizeDownload(
    principal: Principal,
    slug: string,
    credentials: { token?: string | undefined; password?: string | undefined },
    options: {
      delivers: boolean;
      bot: boolean;
      clientIp: string;
      /** Throws when the route cannot serve this share; runs before a view is used. */
      accept?: ((row: FileRow) => void) | undefined;
    },
  ): Promise<DownloadGrant> {
    const row = await this.findActive(slug);
    if (this.isOwner(principal, row)) return { row, token: null, counted: false };
    const state = fileState(row);
    if (state === "expired") throw goneFor(state);
    if (this.tokens.verify("file", row.id, row.password_hash ?? "", credentials.token))
      return { row, token: credentials.token!, counted: false };
    if (options.bot && options.delivers)
      throw new AppError(403, "preview_bot_refused", FILE_MESSAGES.botRefused);
    if (state !== "ok") throw goneFor(state);
    if (row.password_hash !== null) {
      if (!credentials.password) throw new AppError(401, "password_required", FILE_MESSAGES.passwordRequired);
      await this.checkPassword(row, credentials.password, options.clientIp);
    }
    // A new token where it spares the rest of the download something: a view or a password check.
    const grant = (served: FileRow, counted: boolean): DownloadGrant => ({
      row: served,
      token:
        counted || served.password_hash !== null
          ? this.tokens.issue("file", served.id, served.password_hash ?? "")
          : null,
      counted,
    });
    options.accept?.(row);
    if (row.max_views === null || !options.delivers) return grant(row, false);
    const counted = await this.countView((eb) => eb("id", "=", row.id));
    if (!counted) throw goneFor("view_limit");
    return grant(counted, true);
  }

  assertOfficeType(row: FileRow): void {
    if (!isOfficeType(row.mimetype)) throw new AppError(400, "not_office_file", "Not an Office file type");
  }

  tokenSecondsLeft(token: string): number {
    return this.tokens.secondsLeft(token);
  }

  /** Microsoft and Google viewer URLs for an Office file, given a URL the viewers can fetch. */
  officeViewerUrls(row: FileRow, sourceUrl: string) {
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
  urlsFor(row: FileRow, origin = "", token?: string | null) {
    const access = encodeURIComponent(token ?? this.tokens.issue("file", row.id, row.password_hash ?? ""));
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
  async insertRow(row: FileRow, customSlug: boolean): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.db.insertInto("files").values(row).execute();
        return;
      } catch (e) {
        if (!isUniqueViolation(e)) throw e;
        if (customSlug || attempt >= 4) throw conflict(FILE_MESSAGES.slugTaken, "slug_taken");
        row.slug = randomBase62(RANDOM_SLUG_LENGTH);
      }
    }
  }

  async findActive(slug: string): Promise<FileRow> {
    const row = await this.db
      .selectFrom("files")
      .selectAll()
      .where("slug", "=", slug)
      .where("status", "=", "active")
      .executeTakeFirst();
    if (!row) throw notFound(FILE_MESSAGES.notFound, "file_not_found");
    return row;
  }

  // ---- housekeeping --------------------------------------------------------

  /**
   * Removes what nobody can use any more: uploads never committed, shares past
   * their expiry, and used-up shares once the last visitor's download tokens
   * have lapsed. Objects go too when the share owns them (uploaded shares).
   * `reservations` counts uploads never committed (their slugs are free again).
   */
  async sweep(now = new Date()): Promise<{ reservations: number; shares: number }> {
    const nowText = nowIso(now);
    const staleUploads = await this.db
      .selectFrom("upload_sessions")
      .selectAll()
      .where("expires_at", "<=", nowText)
      .where("file_id", "is not", null)
      .limit(500)
      .execute();
    let removed = 0;
    for (const session of staleUploads) {
      const row = await this.db
        .selectFrom("files")
        .selectAll()
        .where("id", "=", session.file_id!)
        .where("status", "=", "pending")
        .executeTakeFirst();
      if (row && (await this.releaseReservation(row))) removed++;
      await this.db.deleteFrom("upload_sessions").where("id", "=", session.id).execute();
    }
    const graceCutoff = nowIso(new Date(now.getTime() - SHARE_TOKEN_TTL_SECONDS * 1000));
    const dead = await this.db
      .selectFrom("files")
      .selectAll()
      .where("status", "=", "active")
      .where("delete_object_with_share", "=", 1)
      .where((eb) =>
        eb.or([
          eb.and([eb("expires_at", "is not", null), eb("expires_at", "<=", nowText)]),
          eb.and([
            eb("max_views", "is not", null),
            eb("views", ">=", eb.ref("max_views")),
            eb("updated_at", "<=", graceCutoff),
          ]),
        ]),
      )
      .limit(500)
      .execute();
    for (const row of dead) {
      await this.removeObject(row);
      await this.db.deleteFrom("files").where("id", "=", row.id).execute();
    }
    return { reservations: removed, shares: dead.length };
  }

  /**
   * Frees the link suffix of an upload that never finished. The row goes
   * first, and only while still pending, so an upload that was published
   * meanwhile is left alone; then its multipart upload is aborted, whatever
   * bytes arrived are removed, and its sessions go. An upload still running
   * then fails at publishing (`UploadService.activate`) instead of publishing
   * a share nobody holds. False when the row was no longer pending.
   */
  async releaseReservation(row: FileRow): Promise<boolean> {
    const deleted = await this.db
      .deleteFrom("files")
      .where("id", "=", row.id)
      .where("status", "=", "pending")
      .executeTakeFirst();
    if (Number(deleted.numDeletedRows) !== 1) return false;
    const sessions = await this.db
      .selectFrom("upload_sessions")
      .select("upload_id")
      .where("file_id", "=", row.id)
      .execute();
    for (const s of sessions) if (s.upload_id) await this.abortUpload(row, s.upload_id);
    await this.removeObject(row);
    await this.db.deleteFrom("upload_sessions").where("file_id", "=", row.id).execute();
    return true;
  }

  /** Drops the parts of a share's unfinished multipart upload. */
  private async abortUpload(row: FileRow, uploadId: string): Promise<void> {
    if (!row.storage_config_id) return;
    try {
      const { driver } = await this.configs.driverById(row.storage_config_id);
      await driver.abortMultipart?.(row.storage_path, uploadId);
    } catch (e) {
      this.log.warn({ err: e, fileId: row.id }, "Could not abort an abandoned multipart upload");
    }
  }

  async removeObject(row: FileRow): Promise<void> {
    if (!row.storage_config_id) return;
    try {
      const { driver } = await this.configs.driverById(row.storage_config_id);
      if (await driver.exists(row.storage_path)) await driver.remove(row.storage_path);
    } catch (e) {
      this.log.warn({ err: e, fileId: row.id }, "Could not remove stored object of a file share");
    }
  }

  // ---- internals -----------------------------------------------------------

  private isOwner(principal: Principal, row: FileRow): boolean {
    return principal.kind !== "anonymous" && isCreator(principal, row.created_by);
  }

  private async requireOwned(principal: Principal, id: string): Promise<FileRow> {
    const row = await this.db
      .selectFrom("files")
      .selectAll()
      .where((eb) => eb.or([eb("id", "=", id), eb("slug", "=", id)]))
      .executeTakeFirst();
    if (!row || !isCreator(principal, row.created_by)) {
      throw notFound(
        principal.kind === "admin" ? FILE_MESSAGES.notFound : "File does not exist or no access",
        "file_not_found",
      );
    }
    return row;
  }

  private async checkPassword(row: FileRow, password: string, clientIp: string): Promise<void> {
    const attempt = { clientIp, target: `file:${row.slug}` };
    if (!(await checkSharePassword(this.rateLimiter, attempt, password, row.password_hash ?? "")))
      throw new AppError(401, "wrong_password", FILE_MESSAGES.wrongPassword);
  }

  /** What visitors see; with URLs, also their access token (the routes set it as the continuation cookie). */
  private publicData(row: FileRow, options: { withUrls: boolean; origin: string }) {
    const token = options.withUrls ? this.tokens.issue("file", row.id, row.password_hash ?? "") : null;
    return {
      id: row.id,
      slug: row.slug,
      filename: row.filename,
      mimetype: row.mimetype,
      size: row.size,
      remark: visitorRemark(row),
      created_at: row.created_at,
      created_by: row.created_by,
      requires_password: row.password_hash !== null && !options.withUrls,
      has_password: row.password_hash !== null,
      views: row.views,
      max_views: row.max_views,
      remaining_views: row.max_views === null ? null : Math.max(0, row.max_views - row.views),
      expires_at: row.expires_at,
      is_office: isOfficeType(row.mimetype),
      ...(token
        ? { ...this.urlsFor(row, options.origin, token), accessToken: token }
        : { use_proxy: row.use_proxy === 1 }),
    };
  }

  private countView(match: (eb: ExpressionBuilder<Database, "files">) => Expression<SqlBool>) {
    const now = nowIso();
    return this.db
      .updateTable("files")
      .set((eb) => ({ views: eb("views", "+", 1), updated_at: now }))
      .where(match)
      .where("status", "=", "active")
      .where((eb) => eb.or([eb("max_views", "is", null), eb("views", "<", eb.ref("max_views"))]))
      .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", now)]))
      .returningAll()
      .executeTakeFirst();
  }
}
