/**
 * File shares uploaded in parts (POST /files/multipart/init|resume|complete|abort),
 * so no request body is ever bigger than one part and an interrupted upload
 * continues from the parts already stored. The share row is reserved as
 * `pending` like a presigned upload; the upload domain's multipart session
 * (upload-sessions.ts) holds the storage's upload id and the client's part
 * plan, signs LOCAL part URLs and assembles the parts; this module keeps the
 * share record: reserving, publishing with the share options, releasing.
 *
 * Callers that only add metadata (URL uploads: the source URL) reuse `init`,
 * `complete` and `abort` as they are.
 */

import type {
  InlineStatusFree,
  ShareMultipartDone,
  ShareMultipartResume,
  ShareMultipartStarted,
  ShareOptionsUpdate,
  UploadOptions,
} from "@clipshare/shared";
import { isCreator } from "../../auth/creator";
import type { Principal } from "../../auth/principal";
import type { FileRow } from "../../db/schema";
import { badRequest, isAppError } from "../../errors";
import { checkDeclaredSize, uploadTooLarge } from "../../lib/ingest";
import type { MultipartPart, StorageDriver } from "../../storage/types";
import type { SettingsService } from "../settings/settings-service";
import type { StorageConfigService } from "../storage-configs/storage-config-service";
import {
  MULTIPART_TTL_SECONDS,
  SESSION_KIND,
  type UploadSession,
  type UploadSessions,
  uploadGone,
} from "../uploads/upload-sessions";
import { shareSummary, type UploadService } from "./upload-service";

export interface ShareMultipartInit extends UploadOptions {
  filename: string;
  encrypted_meta?: string | undefined;
  total_size: number;
  part_size: number;
  part_count: number;
}

export interface MultipartRef {
  file_id: string;
  upload_id: string;
}

interface Upload {
  row: FileRow;
  session: UploadSession;
  driver: StorageDriver;
}

export class ShareMultipartService {
  constructor(
    private readonly uploads: UploadService,
    private readonly sessions: UploadSessions,
    private readonly configs: StorageConfigService,
    private readonly settings: SettingsService,
  ) {}

  /** Reserves the share, starts the storage's multipart upload and signs a URL per part. */
  async init(
    principal: Principal,
    input: ShareMultipartInit,
    origin: string,
  ): Promise<ShareMultipartStarted> {
    checkDeclaredSize({ maxBytes: await this.settings.maxUploadBytes(), declaredSize: input.total_size });
    const { config, driver } = await this.uploads.resolveConfig(principal, input.s3_config_id);
    if (!driver.initMultipart || !driver.uploadPart || !driver.completeMultipart || !driver.listParts) {
      throw badRequest("This storage does not support multipart uploads", "not_supported");
    }
    await this.configs.quota.assertFits(config, input.total_size);
    const reserved = await this.uploads.reserve(principal, config, input.filename, input, {
      kind: SESSION_KIND.multipart,
      ttlSeconds: MULTIPART_TTL_SECONDS,
      reservedBytes: input.total_size,
      partSize: input.part_size,
      partCount: input.part_count,
    });
    const { row } = reserved;
    let session: UploadSession;
    try {
      const uploadId = await driver.initMultipart(row.storage_path, {
        contentType: row.mimetype,
        partSize: input.part_size,
      });
      session = await this.sessions.attachUpload(reserved.session, uploadId);
    } catch (e) {
      await this.uploads.discard(row, driver);
      throw e;
    }
    return {
      file_id: row.id,
      upload_id: session.upload_id!,
      slug: row.slug,
      storage_path: row.storage_path,
      part_size: input.part_size,
      part_count: input.part_count,
      total_size: input.total_size,
      presigned_urls: await this.sessions.partUrls(driver, session, origin),
      filename: row.filename,
      ...shareSummary(row),
    };
  }

  /** The parts the storage already holds, and fresh URLs for every part (old ones may have expired). */
  async resume(principal: Principal, ref: MultipartRef, origin: string): Promise<ShareMultipartResume> {
    const upload = await this.find(principal, ref);
    let parts: Awaited<ReturnType<UploadSessions["storedParts"]>>;
    try {
      parts = await this.sessions.storedParts(upload.driver, upload.session);
    } catch (e) {
      // The storage forgot the upload (aborted or expired there): the share cannot be finished.
      if (isAppError(e) && e.error === "upload_not_found")
        await this.uploads.discard(upload.row, upload.driver);
      throw e;
    }
    return {
      parts: parts.map((p) => ({ partNumber: p.partNumber, etag: p.etag, size: p.size })),
      presigned_urls: await this.sessions.partUrls(upload.driver, upload.session, origin),
    };
  }

  /**
   * Assembles the parts and publishes the share with the options sent here.
   * Exactly one of two concurrent completes does the work; the other gets 409,
   * and a complete after a successful one gets the same answer again.
   */
  async complete(
    principal: Principal,
    input: MultipartRef & ShareOptionsUpdate & { parts: MultipartPart[] },
    /** When set, a file of any other size is refused and removed (file requests hold a slot of this size). */
    announcedSize?: number,
  ): Promise<InlineStatusFree<ShareMultipartDone>> {
    const row = await this.ownRow(principal, input.file_id);
    if (row.status === "active") return this.present(row);
    const upload = await this.find(principal, input);
    const { driver } = upload;
    const written = await this.sessions.assemble(driver, upload.session, input.parts);
    try {
      const maxBytes = await this.settings.maxUploadBytes();
      if (written.size > maxBytes) throw uploadTooLarge(maxBytes, written.size);
      if (announcedSize !== undefined && written.size !== announcedSize)
        throw badRequest("The stored file is not the size the upload announced", "request_size_mismatch");
      const { row: config } = await this.configs.driverById(upload.row.storage_config_id!);
      await this.configs.quota.assertFits(config, written.size, upload.row.id);
    } catch (e) {
      await this.uploads.discard(upload.row, driver);
      throw e;
    }
    await this.uploads.activate(upload.row, written.size, written.etag, input);
    return this.present(await this.ownRow(principal, upload.row.id));
  }

  /** Aborts the storage upload (its parts go) and removes the share row and its slug reservation. */
  async abort(principal: Principal, ref: MultipartRef) {
    const upload = await this.find(principal, ref);
    await this.sessions.abort(upload.driver, upload.session);
    await this.uploads.discard(upload.row, upload.driver);
    return { file_id: upload.row.id };
  }

  // ---- internals -----------------------------------------------------------

  private async ownRow(principal: Principal, fileId: string): Promise<FileRow> {
    const row = await this.uploads.shareRow(fileId);
    // Someone else's upload is as unknown to the caller as one that is gone.
    if (!row || !isCreator(principal, row)) throw uploadGone();
    return row;
  }

  /** The caller's pending share and its live multipart session, or 404 upload_not_found. */
  private async find(principal: Principal, ref: MultipartRef): Promise<Upload> {
    const row = await this.ownRow(principal, ref.file_id);
    const session = await this.sessions.find(null, [SESSION_KIND.multipart, SESSION_KIND.completing], {
      fileId: row.id,
      uploadId: ref.upload_id,
    });
    if (row.status !== "pending" || !session?.upload_id || !row.storage_config_id) throw uploadGone();
    const { driver } = await this.configs.driverById(row.storage_config_id);
    return { row, driver, session };
  }

  private present(row: FileRow): InlineStatusFree<ShareMultipartDone> {
    return {
      file_id: row.id,
      slug: row.slug,
      filename: row.filename,
      size: row.size,
      etag: row.etag,
      ...shareSummary(row),
    };
  }
}
