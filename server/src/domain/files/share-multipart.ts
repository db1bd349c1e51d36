/**
 * File shares uploaded in parts (POST /files/multipart/init|resume|complete|abort),
 * so no request body is ever bigger than one part and an interrupted upload
 * continues from the parts already stored. The share row is reserved as
 * `pending` like a presigned upload; its upload_sessions row (kind
 * `share-multipart`) holds the storage's upload id and the client's part plan.
 * On S3 the client PUTs each part to a presigned UploadPart URL; on LOCAL to a
 * signed URL on this server (`receivePart`), one part per request.
 *
 * Callers that only add metadata (URL uploads: the source URL) reuse `init`,
 * `complete` and `abort` as they are.
 */

import type { Readable } from "node:stream";
import {
  type InlineStatusFree,
  MULTIPART_PART_SIZE,
  type ShareMultipartDone,
  type ShareMultipartResume,
  type ShareMultipartStarted,
  type ShareOptionsUpdate,
  type UploadOptions,
} from "@clipshare/shared";
import { isCreator } from "../../auth/creator";
import type { Principal } from "../../auth/principal";
import type { Db } from "../../db/database";
import { nowIso } from "../../db/database";
import type { FileRow } from "../../db/schema";
import { AppError, badRequest, conflict, isAppError, notFound } from "../../errors";
import { constantTimeEqual, deriveKey, hmacSha256 } from "../../lib/crypto";
import { checkDeclaredSize, ingest, partTooLarge, uploadTooLarge } from "../../lib/ingest";
import type { MultipartPart, StorageDriver } from "../../storage/types";
import type { SettingsService } from "../settings/settings-service";
import type { StorageConfigService } from "../storage-configs/storage-config-service";
import { shareSummary, type UploadService } from "./upload-service";

/**
 * Uploads in parts may take long (big files, paused laptops) but not longer than
 * this from init: clients drop saved progress after 24 h, and the storage sweeps
 * multipart uploads older than that.
 */
const MULTIPART_TTL_SECONDS = 24 * 3600;
const KIND = "share-multipart";
/** A session being completed: a second complete or a part PUT meanwhile is refused. */
const KIND_COMPLETING = "share-multipart-completing";

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
  session: { id: string; kind: string; upload_id: string; part_size: number; part_count: number };
  driver: StorageDriver;
}

const uploadGone = () =>
  notFound("Multipart upload does not exist or has expired; start the upload again", "upload_not_found");

export class ShareMultipartService {
  private readonly partKey: Buffer;

  constructor(
    private readonly db: Db,
    private readonly uploads: UploadService,
    private readonly configs: StorageConfigService,
    private readonly settings: SettingsService,
    secret: Buffer,
  ) {
    this.partKey = deriveKey(secret, "share-multipart-part");
  }

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
    const row = await this.uploads.reserve(principal, config, input.filename, input, {
      kind: KIND,
      ttlSeconds: MULTIPART_TTL_SECONDS,
      reservedBytes: input.total_size,
      partSize: input.part_size,
      partCount: input.part_count,
    });
    let uploadId: string;
    try {
      uploadId = await driver.initMultipart(row.storage_path, { contentType: row.mimetype });
      await this.db
        .updateTable("upload_sessions")
        .set({ upload_id: uploadId })
        .where("file_id", "=", row.id)
        .execute();
    } catch (e) {
      await this.uploads.discard(row, driver);
      throw e;
    }
    const upload = await this.find(principal, { file_id: row.id, upload_id: uploadId });
    return {
      file_id: row.id,
      upload_id: uploadId,
      slug: row.slug,
      storagePath: row.storage_path,
      partSize: input.part_size,
      partCount: input.part_count,
      totalSize: input.total_size,
      presigned_urls: await this.partUrls(upload, origin),
      filename: row.filename,
      ...shareSummary(row),
    };
  }

  /** The parts the storage already holds, and fresh URLs for every part (old ones may have expired). */
  async resume(principal: Principal, ref: MultipartRef, origin: string): Promise<ShareMultipartResume> {
    const upload = await this.find(principal, ref);
    let parts: Awaited<ReturnType<NonNullable<StorageDriver["listParts"]>>>;
    try {
      parts = await upload.driver.listParts!(upload.row.storage_path, upload.session.upload_id);
    } catch (e) {
      // The storage forgot the upload (aborted or expired there): the share cannot be finished.
      if (isAppError(e) && e.error === "upload_not_found")
        await this.uploads.discard(upload.row, upload.driver);
      throw isAppError(e) && e.error === "upload_not_found" ? uploadGone() : e;
    }
    return {
      parts: parts.map((p) => ({ partNumber: p.partNumber, etag: p.etag, size: p.size })),
      presigned_urls: await this.partUrls(upload, origin),
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
  ): Promise<InlineStatusFree<ShareMultipartDone>> {
    const row = await this.ownRow(principal, input.file_id);
    if (row.status === "active") return this.present(row);
    const upload = await this.find(principal, input);
    const claimed = await this.db
      .updateTable("upload_sessions")
      .set({ kind: KIND_COMPLETING })
      .where("id", "=", upload.session.id)
      .where("kind", "=", KIND)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) throw completing();
    const { driver } = upload;
    let written: { size: number; etag: string | null };
    try {
      written = await driver.completeMultipart!(
        upload.row.storage_path,
        upload.session.upload_id,
        input.parts,
      );
    } catch (e) {
      // Wrong or missing parts can be fixed by the client (resume, send them, complete again).
      await this.db
        .updateTable("upload_sessions")
        .set({ kind: KIND })
        .where("id", "=", upload.session.id)
        .execute();
      throw e;
    }
    try {
      const maxBytes = await this.settings.maxUploadBytes();
      if (written.size > maxBytes) throw uploadTooLarge(maxBytes, written.size);
      const { row: config } = await this.configs.driverById(upload.row.storage_config_id!);
      await this.configs.quota.assertFits(config, written.size, upload.row.id);
    } catch (e) {
      await this.uploads.discard(upload.row, driver);
      throw e;
    }
    const { remark, password, expires_in, max_views } = input;
    await this.uploads.activate(upload.row, written.size, written.etag, {
      remark,
      password,
      expires_in,
      max_views,
    });
    return this.present(await this.ownRow(principal, upload.row.id));
  }

  /** Aborts the storage upload (its parts go) and removes the share row and its slug reservation. */
  async abort(principal: Principal, ref: MultipartRef) {
    const upload = await this.find(principal, ref);
    if (upload.session.kind === KIND_COMPLETING) throw completing();
    await upload.driver.abortMultipart?.(upload.row.storage_path, upload.session.upload_id).catch((e) => {
      if (!isAppError(e) || e.error !== "upload_not_found") throw e;
    });
    await this.uploads.discard(upload.row, upload.driver);
    return { fileId: upload.row.id };
  }

  /**
   * PUT to a signed LOCAL part URL: the signature is the credential. The body
   * is one part, at most the size the plan gives that part (413 beyond it).
   */
  async receivePart(
    query: { upload: string; partNumber: number; expires: string; sig: string },
    body: Readable,
    declaredSize: number | null,
  ) {
    const expires = Number(query.expires);
    const expected = this.sign(query.upload, query.partNumber, query.expires);
    if (!constantTimeEqual(query.sig, expected) || !(expires * 1000 > Date.now())) {
      throw new AppError(403, "invalid_signature", "Upload URL is invalid or has expired");
    }
    const { session, row } = await this.uploads.pendingUpload(query.upload);
    if (session?.kind === KIND_COMPLETING) throw completing();
    if (session?.kind !== KIND || !session.upload_id || !row?.storage_config_id) throw uploadGone();
    const partSize = session.part_size ?? MULTIPART_PART_SIZE;
    const partCount = session.part_count ?? 1;
    if (query.partNumber > partCount) {
      throw badRequest(`This upload has ${partCount} parts`, "invalid_part");
    }
    // The last part holds what the others leave of the file's announced size.
    const maxBytes = Math.min(partSize, row.size - (query.partNumber - 1) * partSize);
    const { driver } = await this.configs.driverById(row.storage_config_id);
    const uploadId = session.upload_id;
    const { result, bytes } = await ingest(
      body,
      (input) =>
        driver.uploadPart!(row.storage_path, uploadId, query.partNumber, input, declaredSize ?? undefined),
      { maxBytes, declaredSize, tooLarge: () => partTooLarge(maxBytes) },
    );
    return { partNumber: query.partNumber, etag: result.etag, size: bytes };
  }

  // ---- internals -----------------------------------------------------------

  private async ownRow(principal: Principal, fileId: string): Promise<FileRow> {
    const row = await this.db.selectFrom("files").selectAll().where("id", "=", fileId).executeTakeFirst();
    // Someone else's upload is as unknown to the caller as one that is gone.
    if (!row || !isCreator(principal, row.created_by)) throw uploadGone();
    return row;
  }

  /** The caller's pending share and its live multipart session, or 404 upload_not_found. */
  private async find(principal: Principal, ref: MultipartRef): Promise<Upload> {
    const row = await this.ownRow(principal, ref.file_id);
    const session = await this.db
      .selectFrom("upload_sessions")
      .selectAll()
      .where("file_id", "=", row.id)
      .where("kind", "in", [KIND, KIND_COMPLETING])
      .where("upload_id", "=", ref.upload_id)
      .where("expires_at", ">", nowIso())
      .executeTakeFirst();
    if (row.status !== "pending" || !session?.upload_id || !row.storage_config_id) throw uploadGone();
    const { driver } = await this.configs.driverById(row.storage_config_id);
    return {
      row,
      driver,
      session: {
        id: session.id,
        kind: session.kind,
        upload_id: session.upload_id,
        part_size: session.part_size ?? MULTIPART_PART_SIZE,
        part_count: session.part_count ?? 1,
      },
    };
  }

  private async partUrls(upload: Upload, origin: string) {
    const { driver, row, session } = upload;
    const urls: Array<{ partNumber: number; url: string }> = [];
    const expires = String(Math.floor(Date.now() / 1000) + MULTIPART_TTL_SECONDS);
    for (let partNumber = 1; partNumber <= session.part_count; partNumber++) {
      const url = driver.presignPart
        ? (await driver.presignPart(row.storage_path, session.upload_id, partNumber, MULTIPART_TTL_SECONDS))
            .url
        : `${origin}/api/files/multipart/part?upload=${session.id}&partNumber=${partNumber}&expires=${expires}&sig=${this.sign(session.id, partNumber, expires)}`;
      urls.push({ partNumber, url });
    }
    return urls;
  }

  private present(row: FileRow): InlineStatusFree<ShareMultipartDone> {
    return {
      fileId: row.id,
      slug: row.slug,
      filename: row.filename,
      size: row.size,
      etag: row.etag,
      ...shareSummary(row),
    };
  }

  private sign(sessionId: string, partNumber: number, expires: string): string {
    return hmacSha256(this.partKey, `${sessionId}:${partNumber}:${expires}`).toString("base64url");
  }
}

function completing() {
  return conflict("This upload is already being completed", "upload_completing");
}
