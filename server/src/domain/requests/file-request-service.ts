/**
 * File requests: a link (/r/<slug>) through which visitors without an account
 * upload files to the request's creator (docs/file-requests.md).
 *
 * This is the creator's side: an admin or a key with the file-share bit
 * creates, lists, changes, closes and deletes requests and sees and deletes
 * what they received (the creator rule decides who sees which request). The
 * visitor's side, one request by its slug, is request-visits.ts.
 */
import { randomUUID } from "node:crypto";
import {
  type CreateFileRequestBody,
  type FileRequest,
  type FileRequestDetail,
  Permission,
  type UpdateFileRequestBody,
} from "@clipshare/shared";
import { isCreator, ownership, whereOwned } from "../../auth/creator";
import { hashPassword } from "../../auth/passwords";
import { requirePermission } from "../../auth/policy";
import type { Principal } from "../../auth/principal";
import type { RateLimiter } from "../../auth/rate-limiter";
import type { Db } from "../../db/database";
import { nowIso } from "../../db/database";
import type { FileRequestRow, FileRequestUploadRow } from "../../db/schema";
import { containsPattern, countMatching, isUniqueViolation } from "../../db/sql-helpers";
import { badRequest, conflict, isAppError, notFound } from "../../errors";
import type { Logger } from "../../logger";
import type { FileShareService } from "../files/file-share-service";
import type { ShareMultipartService } from "../files/share-multipart";
import { apiActor } from "../fs/access";
import type { FsMultipartUploads } from "../fs/fs-multipart-uploads";
import type { VirtualFileSystem } from "../fs/vfs";
import { normalizeVirtualPath, vjoin } from "../fs/vpath";
import type { ShareAccessTokens } from "../shares/access-tokens";
import { newSlug } from "../shares/share-access";
import type { StorageConfigService } from "../storage-configs/storage-config-service";
import { findUpload, presentRequest, presentUpload, requestCreator, requestGone } from "./request-rows";
import { releaseSlot } from "./request-slots";
import { RequestUploads } from "./request-uploads";
import { FileRequestVisits } from "./request-visits";

interface Deps {
  db: Db;
  /** Deletes a received file share (removeReceived), with the creator's rights. */
  fileShares: Pick<FileShareService, "batchDelete">;
  configs: StorageConfigService;
  vfs: VirtualFileSystem;
  uploads: RequestUploads;
}

export class FileRequestService {
  constructor(private readonly deps: Deps) {}

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
    return presentRequest(row);
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
    return { items: rows.map(presentRequest), total: total };
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
    return { ...presentRequest(row), uploads: uploads.map(presentUpload) };
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
    if (body.status === "closed" && row.status !== "closed") await this.deps.uploads.discardPending(row);
    const after = await this.deps.db
      .selectFrom("file_requests")
      .selectAll()
      .where("id", "=", row.id)
      .executeTakeFirstOrThrow();
    return presentRequest(after);
  }

  /** The creator deletes a file the request received: the file goes, its slot comes back. */
  async removeReceived(principal: Principal, id: string, uploadId: string): Promise<void> {
    const row = await this.owned(principal, id);
    const upload = await findUpload(this.deps.db, row.id, uploadId, "received");
    if (!upload) throw notFound("This request received no such file", "upload_not_found");
    if (upload.file_id) {
      await this.deps.fileShares.batchDelete(principal, { ids: [upload.file_id], delete_mode: "both" });
    } else if (upload.path) {
      const creator = await requestCreator(this.deps.db, row);
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

  /** Deletes the request; uploads in flight are aborted, received files stay with the creator. */
  async remove(principal: Principal, id: string): Promise<void> {
    const row = await this.owned(principal, id);
    await this.deps.uploads.discardPending(row);
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
}

function expiryOf(hours: number | null | undefined): string | null {
  return hours ? new Date(Date.now() + hours * 3600_000).toISOString() : null;
}

/** Both sides of file requests over one set of uploads in flight. */
export function createFileRequestServices(deps: {
  db: Db;
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
}) {
  const uploads = new RequestUploads(deps);
  return {
    requests: new FileRequestService({ ...deps, uploads }),
    visits: new FileRequestVisits({ ...deps, uploads }),
    uploads,
  };
}
