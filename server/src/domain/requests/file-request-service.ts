/**
 * File requests: a link (/r/<slug>) through which visitors without an account
 * upload files to the request's creator (docs/file-requests.md).
 *
 * Management is the creator's (an admin or a key with the file-share bit; the
 * creator rule decides who sees which request). A visitor gets nothing beyond
 * the one request: its title, message and limits, its uploads in parts, and,
 * if the creator allows, the names of the files received.
 *
 * A visitor's upload is done on the creator's behalf with the creator's rights
 * (a deleted or expired key stops its requests): a file-share request reserves
 * a pending file share through the share multipart service, a folder request
 * starts an explorer multipart upload under a name no file in the folder has.
 * Before either, the upload takes a slot (request-slots.ts); a refused,
 * aborted or abandoned upload gives it back and leaves no bytes stored.
 */
import { randomUUID } from "node:crypto";
import {
  type CreateFileRequestBody,
  type FileRequest,
  type FileRequestDetail,
  type FileRequestUpload,
  fileRequestPagePath,
  Permission,
  type PublicFileRequest,
  type RequestUploadInitBody,
  type RequestUploadResume,
  type RequestUploadStarted,
  type UpdateFileRequestBody,
} from "@clipshare/shared";
import { isCreator, ownership, whereOwned } from "../../auth/creator";
import { checkSharePassword, hashPassword } from "../../auth/passwords";
import { requirePermission } from "../../auth/policy";
import type { Principal } from "../../auth/principal";
import type { RateLimiter } from "../../auth/rate-limiter";
import type { Db } from "../../db/database";
import { nowIso } from "../../db/database";
import type { FileRequestRow, FileRequestUploadRow } from "../../db/schema";
import { containsPattern, countMatching, isUniqueViolation } from "../../db/sql-helpers";
import { AppError, badRequest, conflict, gone, isAppError, notFound, unauthorized } from "../../errors";
import { randomBase62 } from "../../lib/crypto";
import type { Logger } from "../../logger";
import type { MultipartPart } from "../../storage/types";
import type { FileShareService } from "../files/file-share-service";
import type { ShareMultipartService } from "../files/share-multipart";
import { shareMimeType } from "../files/upload-service";
import { apiActor } from "../fs/access";
import type { FsMultipartUploads } from "../fs/fs-multipart-uploads";
import type { VirtualFileSystem } from "../fs/vfs";
import { normalizeVirtualPath, vjoin } from "../fs/vpath";
import type { ShareAccessTokens } from "../shares/access-tokens";
import { newSlug } from "../shares/share-access";
import type { StorageConfigService } from "../storage-configs/storage-config-service";
import { resolveCreator } from "../tasks/creator";
import { MULTIPART_TTL_SECONDS } from "../uploads/upload-sessions";
import { releaseSlot, requestState, takeSlot } from "./request-slots";

const requestGone = () => notFound("File request does not exist", "request_not_found");
const uploadGone = () =>
  notFound("Upload does not exist or has expired; start the upload again", "upload_not_found");

/** The error a request that takes no upload answers with. */
function refusal(row: FileRequestRow, size = 0): AppError {
  const state = requestState(row);
  if (state === "closed") return gone("This file request is closed", "request_closed");
  if (state === "expired") return gone("This file request has expired", "request_expired");
  if (row.max_total_bytes !== null && row.reserved_bytes + size > row.max_total_bytes && state === "open")
    return new AppError(409, "request_full", "The file is larger than what this request still takes");
  return conflict("This file request has received all the files it takes", "request_full");
}

/** Whether `filename` (with the client's type) is one of the request's allowed types. */
export function typeAllowed(allowed: string[] | null, filename: string, mimetype: string): boolean {
  if (!allowed || allowed.length === 0) return true;
  const name = filename.toLowerCase();
  const type = mimetype.split(";")[0]!.trim().toLowerCase();
  return allowed.some((entry) => {
    if (entry.startsWith(".")) return name.endsWith(entry);
    if (entry.endsWith("/*")) return type.startsWith(entry.slice(0, -1));
    return type === entry;
  });
}

/** "report.pdf" → "report (2).pdf": the n-th free variant of a name. */
export function numberedName(name: string, n: number): string {
  if (n === 0) return name;
  const dot = name.lastIndexOf(".");
  return dot > 0 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`;
}

interface Deps {
  db: Db;
  /** Deletes a received file share (removeReceived), with the creator's rights. */
  fileShares: Pick<FileShareService, "batchDelete">;
  log: Logger;
  limiter: RateLimiter;
  tokens: ShareAccessTokens;
  configs: StorageConfigService;
  shareMultipart: ShareMultipartService;
  vfs: VirtualFileSystem;
  fsMultipart: FsMultipartUploads;
  /** Told of every file received (notifications); not awaited by the visitor. */
  onReceived?: (request: FileRequestRow, upload: FileRequestUploadRow) => void;
}

/** Who a visitor is, as far as a request cares: the address (rate limits) and the unlock token. */
export interface Visitor {
  clientIp: string;
  token: string | null;
}

export class FileRequestService {
  constructor(private readonly deps: Deps) {}

  // ---- management ------------------------------------------------------------

  async create(principal: Principal, body: CreateFileRequestBody): Promise<FileRequest> {
    requirePermission(principal, Permission.FILE_SHARE);
    const target = await this.checkTarget(principal, body.target);
    const now = nowIso();
    const row: FileRequestRow = {
      id: randomUUID(),
      slug: body.slug ?? newSlug(),
      title: body.title,
      message: body.message || null,
      ...ownership(principal),
      target_kind: body.target.kind,
      storage_config_id: target.storageConfigId,
      folder_path: target.folderPath,
      max_files: body.max_files ?? null,
      max_file_bytes: body.max_file_bytes ?? null,
      max_total_bytes: body.max_total_bytes ?? null,
      allowed_types: body.allowed_types?.length ? JSON.stringify(body.allowed_types) : null,
      expires_at: expiryOf(body.expires_in),
      password_hash: body.password ? await hashPassword(body.password) : null,
      show_received: body.show_received ? 1 : 0,
      status: "open",
      reserved_files: 0,
      reserved_bytes: 0,
      created_at: now,
      updated_at: now,
    };
    try {
      await this.deps.db.insertInto("file_requests").values(row).execute();
    } catch (e) {
      if (isUniqueViolation(e)) throw conflict("Link suffix already taken, try another", "slug_taken");
      throw e;
    }
    return present(row);
  }

  /** Own requests (the admin: all), newest first, a page at a time; `search` matches title, message or slug. */
  async list(
    principal: Principal,
    query: { limit: number; offset: number; search?: string | undefined },
  ): Promise<{ items: FileRequest[]; total: number }> {
    requirePermission(principal, Permission.FILE_SHARE);
    let base = whereOwned(this.deps.db.selectFrom("file_requests"), "file_requests", principal);
    if (query.search) {
      const pattern = containsPattern(query.search);
      base = base.where((eb) =>
        eb.or([
          eb("file_requests.title", "like", pattern),
          eb("file_requests.message", "like", pattern),
          eb("file_requests.slug", "like", pattern),
        ]),
      );
    }
    const total = await countMatching(base);
    const rows = await base
      .leftJoin("users", "users.id", "file_requests.owner_id")
      .selectAll("file_requests")
      .select("users.username as owner_name")
      .orderBy("file_requests.created_at", "desc")
      .orderBy("file_requests.id")
      .limit(query.limit)
      .offset(query.offset)
      .execute();
    return { items: rows.map(present), total: total };
  }

  async detail(principal: Principal, id: string): Promise<FileRequestDetail> {
    const row = await this.owned(principal, id);
    const uploads = await this.deps.db
      .selectFrom("file_request_uploads as u")
      .leftJoin("files as f", "f.id", "u.file_id")
      .selectAll("u")
      .select("f.slug as file_slug")
      .where("u.request_id", "=", row.id)
      .orderBy("u.created_at", "desc")
      .execute();
    return { ...present(row), uploads: uploads.map(presentUpload) };
  }

  async update(principal: Principal, id: string, body: UpdateFileRequestBody): Promise<FileRequest> {
    const row = await this.owned(principal, id);
    const changes: Partial<FileRequestRow> = {
      ...(body.title !== undefined ? { title: body.title } : {}),
      ...(body.message !== undefined ? { message: body.message || null } : {}),
      ...(body.max_files !== undefined ? { max_files: body.max_files } : {}),
      ...(body.max_file_bytes !== undefined ? { max_file_bytes: body.max_file_bytes } : {}),
      ...(body.max_total_bytes !== undefined ? { max_total_bytes: body.max_total_bytes } : {}),
      ...(body.allowed_types !== undefined
        ? { allowed_types: body.allowed_types?.length ? JSON.stringify(body.allowed_types) : null }
        : {}),
      ...(body.expires_in !== undefined ? { expires_at: expiryOf(body.expires_in) } : {}),
      ...(body.password !== undefined
        ? { password_hash: body.password ? await hashPassword(body.password) : null }
        : {}),
      ...(body.show_received !== undefined ? { show_received: body.show_received ? 1 : 0 } : {}),
      ...(body.status !== undefined ? { status: body.status } : {}),
    };
    if (Object.keys(changes).length === 0)
      throw badRequest("No valid update fields provided", "nothing_to_update");
    changes.updated_at = nowIso();
    await this.deps.db.updateTable("file_requests").set(changes).where("id", "=", row.id).execute();
    // Closing stops the uploads under way: none of them completes into a closed request.
    if (body.status === "closed" && row.status !== "closed") await this.discardPending(row);
    const after = await this.deps.db
      .selectFrom("file_requests")
      .selectAll()
      .where("id", "=", row.id)
      .executeTakeFirstOrThrow();
    return present(after);
  }

  /** The creator deletes a file the request received: the file goes, its slot comes back. */
  async removeReceived(principal: Principal, id: string, uploadId: string): Promise<void> {
    const row = await this.owned(principal, id);
    const upload = await this.deps.db
      .selectFrom("file_request_uploads")
      .selectAll()
      .where("id", "=", uploadId)
      .where("request_id", "=", row.id)
      .where("status", "=", "received")
      .executeTakeFirst();
    if (!upload) throw notFound("This request received no such file", "upload_not_found");
    if (upload.file_id) {
      await this.deps.fileShares.batchDelete(principal, { ids: [upload.file_id], delete_mode: "both" });
    } else if (upload.path) {
      const creator = await this.creator(row);
      await this.deps.vfs.remove(apiActor(creator), upload.path).catch((e: unknown) => {
        if (!(isAppError(e) && e.status === 404)) throw e; // gone already: the slot still comes back
      });
    }
    await releaseSlot(this.deps.db, upload, "received");
  }

  /** File shares about to be deleted (file management, a collection's files): their requests' slots come back. */
  async sharesDeleted(fileIds: string[]): Promise<void> {
    if (fileIds.length === 0) return;
    const uploads = await this.deps.db
      .selectFrom("file_request_uploads")
      .selectAll()
      .where("file_id", "in", fileIds)
      .where("status", "=", "received")
      .execute();
    for (const upload of uploads) await releaseSlot(this.deps.db, upload, "received");
  }

  private async discardPending(row: FileRequestRow): Promise<void> {
    const pending = await this.deps.db
      .selectFrom("file_request_uploads")
      .selectAll()
      .where("request_id", "=", row.id)
      .where("status", "=", "pending")
      .execute();
    for (const upload of pending) await this.discardUpload(row, upload);
  }

  /** Deletes the request; uploads in flight are aborted, received files stay with the creator. */
  async remove(principal: Principal, id: string): Promise<void> {
    const row = await this.owned(principal, id);
    await this.discardPending(row);
    await this.deps.db.deleteFrom("file_requests").where("id", "=", row.id).execute();
  }

  private async owned(principal: Principal, id: string): Promise<FileRequestRow> {
    requirePermission(principal, Permission.FILE_SHARE);
    const row = await this.deps.db
      .selectFrom("file_requests")
      .selectAll()
      .where((eb) => eb.or([eb("id", "=", id), eb("slug", "=", id)]))
      .executeTakeFirst();
    if (!row || !isCreator(principal, row)) throw requestGone();
    return row;
  }

  /** The creator must be able to use the target now: its storage config, or upload into its folder. */
  private async checkTarget(principal: Principal, target: CreateFileRequestBody["target"]) {
    if (target.kind === "share") {
      const config = target.storage_config_id
        ? await this.deps.configs.requireUsable(principal, target.storage_config_id)
        : await this.deps.configs.defaultFor(principal);
      return { storageConfigId: config.id, folderPath: null };
    }
    requirePermission(principal, apiActor(principal).bits.upload);
    const folderPath = normalizeVirtualPath(target.path);
    const entry = await this.deps.vfs.stat(apiActor(principal), folderPath).catch((e: unknown) => {
      throw isAppError(e) && e.status < 500 ? badRequest(e.message, "request_target_invalid") : e;
    });
    if (!entry.isDirectory) throw badRequest("The target is not a folder", "request_target_invalid");
    // The same check an upload into the folder makes: the creator may write there.
    await this.deps.vfs.requireMount(vjoin(folderPath, "probe"), apiActor(principal));
    return { storageConfigId: null, folderPath };
  }

  // ---- the visitor ---------------------------------------------------------------

  async visit(slug: string, visitor: Visitor): Promise<PublicFileRequest> {
    const row = await this.bySlug(slug);
    const unlocked = this.unlocked(row, visitor.token);
    const received =
      unlocked && row.show_received === 1
        ? await this.deps.db
            .selectFrom("file_request_uploads")
            .select(["filename", "size", "created_at"])
            .where("request_id", "=", row.id)
            .where("status", "=", "received")
            .orderBy("created_at", "desc")
            .limit(500)
            .execute()
        : null;
    return {
      slug: row.slug,
      title: row.title,
      message: unlocked ? row.message : null,
      state: requestState(row),
      password_required: row.password_hash !== null,
      unlocked,
      max_files: row.max_files,
      max_file_bytes: row.max_file_bytes,
      max_total_bytes: row.max_total_bytes,
      allowed_types: allowedTypes(row),
      remaining_files: row.max_files === null ? null : Math.max(0, row.max_files - row.reserved_files),
      remaining_bytes:
        row.max_total_bytes === null ? null : Math.max(0, row.max_total_bytes - row.reserved_bytes),
      expires_at: row.expires_at,
      received:
        received?.map((r) => ({ filename: r.filename, size: r.size, received_at: r.created_at })) ?? null,
    };
  }

  /** The request's password, checked against the share-password rate limit; answers a token. */
  async unlock(slug: string, password: string, clientIp: string) {
    const row = await this.bySlug(slug);
    if (!row.password_hash) throw badRequest("This request has no password", "password_not_required");
    const right = await checkSharePassword(
      this.deps.limiter,
      { clientIp, target: `request:${row.id}` },
      password,
      row.password_hash,
    );
    if (!right) throw unauthorized("Incorrect password", "wrong_password");
    const token = this.deps.tokens.issue("request", row.id, row.password_hash);
    return { token, expires_in: this.deps.tokens.secondsLeft(token) };
  }

  /** Takes a slot, then starts the storage's multipart upload on the creator's behalf. */
  async startUpload(
    slug: string,
    visitor: Visitor,
    body: RequestUploadInitBody,
    origin: string,
  ): Promise<RequestUploadStarted> {
    const row = await this.openFor(slug, visitor);
    const mimetype = shareMimeType(body.filename, body.mimetype);
    if (!typeAllowed(allowedTypes(row), body.filename, mimetype))
      throw new AppError(
        415,
        "request_type_not_allowed",
        `${body.filename} is not a type this request accepts`,
      );
    if (row.max_file_bytes !== null && body.size > row.max_file_bytes)
      throw new AppError(
        413,
        "request_file_too_large",
        `The file is larger than this request allows (${row.max_file_bytes} bytes)`,
      );
    if (!(await takeSlot(this.deps.db, row.id, body.size))) throw refusal(await this.bySlug(slug), body.size);
    const now = new Date();
    const upload: FileRequestUploadRow = {
      id: randomBase62(32),
      request_id: row.id,
      status: "pending",
      filename: body.filename,
      size: body.size,
      file_id: null,
      path: null,
      upload_id: null,
      uploader_name: body.uploader_name || null,
      note: body.note || null,
      expires_at: new Date(now.getTime() + MULTIPART_TTL_SECONDS * 1000).toISOString(),
      created_at: nowIso(now),
    };
    try {
      await this.deps.db.insertInto("file_request_uploads").values(upload).execute();
    } catch (e) {
      await this.giveBack(upload);
      throw e;
    }
    try {
      const creator = await this.creator(row);
      const started =
        row.target_kind === "folder"
          ? await this.startFolderUpload(creator, row, upload, body, origin)
          : await this.startShareUpload(creator, row, body, origin);
      await this.deps.db
        .updateTable("file_request_uploads")
        .set(started.link)
        .where("id", "=", upload.id)
        .execute();
      return {
        upload_id: upload.id,
        part_size: body.part_size,
        part_count: body.part_count,
        presigned_urls: started.urls,
        expires_at: upload.expires_at,
      };
    } catch (e) {
      await this.giveBack(upload);
      throw e;
    }
  }

  async resumeUpload(
    slug: string,
    uploadId: string,
    visitor: Visitor,
    origin: string,
  ): Promise<RequestUploadResume> {
    const { row, upload } = await this.pendingUpload(slug, uploadId, visitor);
    const creator = await this.creator(row);
    if (row.target_kind === "folder") {
      const state = await this.deps.fsMultipart.resumeMultipart(
        apiActor(creator),
        { path: upload.path!, uploadId: upload.upload_id! },
        origin,
      );
      return { parts: state.parts, presigned_urls: state.presignedUrls };
    }
    return this.deps.shareMultipart.resume(creator, this.shareRef(upload), origin);
  }

  /** Assembles the parts; the file is received only when it is exactly the size announced. */
  async completeUpload(slug: string, uploadId: string, visitor: Visitor, parts: MultipartPart[]) {
    const { row, upload } = await this.pendingUpload(slug, uploadId, visitor);
    // Closed while the bytes were arriving: the upload ends here, its slot comes back.
    if (row.status === "closed") {
      await this.discardUpload(row, upload);
      throw refusal(row);
    }
    const creator = await this.creator(row);
    try {
      if (row.target_kind === "folder") {
        const actor = apiActor(creator);
        const done = await this.deps.fsMultipart.completeMultipart(actor, {
          path: upload.path!,
          uploadId: upload.upload_id!,
          parts,
        });
        if (done.size !== upload.size) {
          await this.deps.vfs.remove(actor, upload.path!).catch(() => undefined);
          throw sizeMismatch();
        }
      } else {
        await this.deps.shareMultipart.complete(creator, { ...this.shareRef(upload), parts }, upload.size);
      }
    } catch (e) {
      // Parts that are wrong or missing can be sent again; anything else ends the upload.
      if (!(isAppError(e) && (e.error === "invalid_part" || e.error === "upload_completing"))) {
        await this.discardUpload(row, upload);
      }
      throw e;
    }
    const marked = await this.deps.db
      .updateTable("file_request_uploads")
      .set({ status: "received", created_at: nowIso() })
      .where("id", "=", upload.id)
      .where("status", "=", "pending")
      .executeTakeFirst();
    if (Number(marked.numUpdatedRows) !== 1) throw uploadGone();
    this.deps.onReceived?.(row, upload);
    return { filename: upload.filename, size: upload.size, received_at: nowIso() };
  }

  async abortUpload(slug: string, uploadId: string, visitor: Visitor): Promise<void> {
    const { row, upload } = await this.pendingUpload(slug, uploadId, visitor);
    await this.discardUpload(row, upload);
  }

  /** Uploads nobody finished within the multipart lifetime: their storage uploads go, their slots come back. */
  async sweep(now = new Date()): Promise<number> {
    const lapsed = await this.deps.db
      .selectFrom("file_request_uploads")
      .selectAll()
      .where("status", "=", "pending")
      .where("expires_at", "<=", nowIso(now))
      .limit(500)
      .execute();
    for (const upload of lapsed) {
      const row = await this.deps.db
        .selectFrom("file_requests")
        .selectAll()
        .where("id", "=", upload.request_id)
        .executeTakeFirst();
      if (row) await this.discardUpload(row, upload);
    }
    return lapsed.length;
  }

  // ---- internals -----------------------------------------------------------------

  private async startShareUpload(
    creator: Principal,
    row: FileRequestRow,
    body: RequestUploadInitBody,
    origin: string,
  ) {
    const started = await this.deps.shareMultipart.init(
      creator,
      {
        filename: body.filename,
        total_size: body.size,
        part_size: body.part_size,
        part_count: body.part_count,
        ...(row.storage_config_id ? { s3_config_id: row.storage_config_id } : {}),
        ...(body.mimetype ? { mimetype: body.mimetype } : {}),
        remark: requestRemark(row),
      },
      origin,
    );
    return {
      link: { file_id: started.file_id, upload_id: started.upload_id },
      urls: started.presigned_urls,
    };
  }

  /** Into the folder under a name no file there (nor another upload in flight) has: nothing is overwritten. */
  private async startFolderUpload(
    creator: Principal,
    row: FileRequestRow,
    upload: FileRequestUploadRow,
    body: RequestUploadInitBody,
    origin: string,
  ) {
    const actor = apiActor(creator);
    const folder = row.folder_path!;
    for (let n = 0; n < 100; n++) {
      const name = numberedName(body.filename, n);
      const path = vjoin(folder, name);
      const target = await this.deps.vfs.requireMount(path, actor);
      if (await this.deps.vfs.statIn(target)) continue;
      try {
        // The unique index on pending paths: another upload in flight has this name.
        await this.deps.db
          .updateTable("file_request_uploads")
          .set({ path })
          .where("id", "=", upload.id)
          .execute();
      } catch (e) {
        if (isUniqueViolation(e)) continue;
        throw e;
      }
      const started = await this.deps.fsMultipart.initMultipart(
        actor,
        {
          path: folder,
          fileName: name,
          fileSize: body.size,
          partSize: body.part_size,
          partCount: body.part_count,
          ...(body.mimetype ? { contentType: body.mimetype } : {}),
        },
        origin,
      );
      return { link: { path: started.path, upload_id: started.uploadId }, urls: started.presignedUrls };
    }
    throw conflict("Too many files of this name in the folder", "target_exists");
  }

  /** Stops an upload in flight: its storage upload and any pending share go, then its slot. */
  private async discardUpload(row: FileRequestRow, upload: FileRequestUploadRow): Promise<void> {
    if (upload.status !== "pending") return;
    const creator = await resolveCreator(this.deps.db, row.created_by);
    // A pending share the share sweep already removed (file_id is null then) took its storage upload along.
    const live = row.target_kind === "folder" ? upload.path : upload.file_id;
    if (creator && upload.upload_id && live) {
      const stop =
        row.target_kind === "folder"
          ? this.deps.fsMultipart.abortMultipart(apiActor(creator), {
              path: live,
              uploadId: upload.upload_id,
            })
          : this.deps.shareMultipart.abort(creator, { file_id: live, upload_id: upload.upload_id });
      await stop.catch((err: unknown) => {
        // Gone already (completed and cleaned up, or swept): nothing left to stop.
        if (!(isAppError(err) && err.status === 404))
          this.deps.log.warn({ err, uploadId: upload.id }, "Could not abort a file-request upload");
      });
    }
    await this.giveBack(upload);
  }

  private async giveBack(upload: FileRequestUploadRow): Promise<void> {
    await releaseSlot(this.deps.db, upload);
  }

  private shareRef(upload: FileRequestUploadRow) {
    if (!upload.file_id || !upload.upload_id) throw uploadGone();
    return { file_id: upload.file_id, upload_id: upload.upload_id };
  }

  private async creator(row: FileRequestRow): Promise<Principal> {
    const creator = await resolveCreator(this.deps.db, row.created_by);
    // A request lives on its creator's rights: a deleted or expired key closes it.
    if (!creator) throw gone("This file request is closed", "request_closed");
    return creator;
  }

  private async bySlug(slug: string): Promise<FileRequestRow> {
    const row = await this.deps.db
      .selectFrom("file_requests")
      .selectAll()
      .where("slug", "=", slug)
      .executeTakeFirst();
    if (!row) throw requestGone();
    return row;
  }

  private unlocked(row: FileRequestRow, token: string | null): boolean {
    return row.password_hash === null || this.deps.tokens.verify("request", row.id, row.password_hash, token);
  }

  private requireUnlocked(row: FileRequestRow, token: string | null): void {
    if (!this.unlocked(row, token)) throw unauthorized("A password is required", "password_required");
  }

  /** A request that takes uploads now, unlocked by this visitor. */
  private async openFor(slug: string, visitor: Visitor): Promise<FileRequestRow> {
    const row = await this.bySlug(slug);
    this.requireUnlocked(row, visitor.token);
    if (requestState(row) !== "open") throw refusal(row);
    return row;
  }

  /** A visitor's upload in flight: the random upload id is what lets its sender continue it. */
  private async pendingUpload(slug: string, uploadId: string, visitor: Visitor) {
    const row = await this.bySlug(slug);
    this.requireUnlocked(row, visitor.token);
    const upload = await this.deps.db
      .selectFrom("file_request_uploads")
      .selectAll()
      .where("id", "=", uploadId)
      .where("request_id", "=", row.id)
      .where("status", "=", "pending")
      .executeTakeFirst();
    // Closing the request ended its uploads: say so, not merely "gone".
    if (!upload) throw row.status === "closed" ? refusal(row) : uploadGone();
    return { row, upload };
  }
}

const sizeMismatch = () =>
  badRequest("The stored file is not the size the upload announced", "request_size_mismatch");

function expiryOf(hours: number | null | undefined): string | null {
  return hours ? new Date(Date.now() + hours * 3600_000).toISOString() : null;
}

function allowedTypes(row: FileRequestRow): string[] | null {
  return row.allowed_types ? (JSON.parse(row.allowed_types) as string[]) : null;
}

/**
 * The remark of a file share a request received: the request it came from. The uploader's name
 * and note stay in the request's list, since anyone given the share's link would read its remark.
 */
function requestRemark(row: FileRequestRow): string {
  return `File request: ${row.title}`;
}

function present(row: FileRequestRow & { owner_name?: string | null }): FileRequest {
  return {
    id: row.id,
    slug: row.slug,
    url: fileRequestPagePath(row.slug),
    title: row.title,
    message: row.message,
    target_kind: row.target_kind === "folder" ? "folder" : "share",
    storage_config_id: row.storage_config_id,
    folder_path: row.folder_path,
    max_files: row.max_files,
    max_file_bytes: row.max_file_bytes,
    max_total_bytes: row.max_total_bytes,
    allowed_types: allowedTypes(row),
    expires_at: row.expires_at,
    has_password: row.password_hash !== null,
    show_received: row.show_received === 1,
    status: row.status === "closed" ? "closed" : "open",
    state: requestState(row),
    reserved_files: row.reserved_files,
    reserved_bytes: row.reserved_bytes,
    created_by: row.created_by,
    owner_id: row.owner_id,
    owner_name: row.owner_name ?? null,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function presentUpload(row: FileRequestUploadRow & { file_slug: string | null }): FileRequestUpload {
  return {
    id: row.id,
    status: row.status === "received" ? "received" : "pending",
    filename: row.filename,
    size: row.size,
    file_id: row.file_id,
    file_slug: row.file_slug,
    path: row.path,
    uploader_name: row.uploader_name,
    note: row.note,
    created_at: row.created_at,
  };
}
