/**
 * Creating file shares from uploads. Three ways in:
 * - through the server (raw PUT body or multipart form): streamed straight into
 *   storage with a byte limit, never buffered;
 * - presigned: the share row is reserved as `pending`, the client PUTs to S3's
 *   own presigned URL (or, for LOCAL, to a short-lived HMAC-signed URL on this
 *   server), then commits; pending rows are never public and are swept when
 *   their session lapses.
 * The slug is reserved by inserting the pending row first, so two uploads
 * racing for one slug cannot both stream gigabytes before one of them fails.
 */
import { randomUUID } from "node:crypto";
import type { Readable } from "node:stream";
import {
  type commitRequest,
  type PresignedUpload,
  type PublishedFileShare,
  type presignRequest,
  type ShareOptionsUpdate,
  type StorageType,
  type UploadOptions,
  type UploadShareSummary,
  uploadMimeType,
} from "@clipshare/shared";
import type { z } from "zod";
import { isCreator } from "../../auth/creator";
import { hashPassword } from "../../auth/passwords";
import type { Principal } from "../../auth/principal";
import type { Db } from "../../db/database";
import { nowIso } from "../../db/database";
import type { FileRow, StorageConfigRow } from "../../db/schema";
import { badRequest, conflict, notFound } from "../../errors";
import { checkDeclaredSize, ingest, uploadTooLarge } from "../../lib/ingest";
import { metrics } from "../../lib/metrics";
import { mimeTypeFor } from "../../storage/mime";
import type { StorageDriver } from "../../storage/types";
import { shareAreaPath } from "../fs/share-areas";
import type { SettingsService } from "../settings/settings-service";
import type { StorageConfigService } from "../storage-configs/storage-config-service";
import type { ReceiveTarget } from "../uploads/signed-put";
import {
  PRESIGN_TTL_SECONDS,
  SESSION_KIND,
  type SessionKind,
  type UploadSession,
  type UploadSessions,
} from "../uploads/upload-sessions";
import type { UserQuota } from "../users/user-quota";
import { newShareFields, presentFile } from "./file-share-fields";
import type { FileShareService } from "./file-share-service";
import { holdReservation, RESERVATION_LEASE_SECONDS } from "./reservation-lease";

/** The stored name of every end-to-end encrypted file share: the real one is sealed in `encrypted_meta`. */
export const ENCRYPTED_FILENAME = "encrypted.bin";

/** Keeps a stored name portable: no path separators, reserved or control characters, bounded length. */
export function safeObjectName(filename: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  const cleaned = filename.replace(/[<>:"|?*\\/\u0000-\u001f\u007f]/g, "_").replace(/^\.+/, "_");
  if (Buffer.byteLength(cleaned) <= 120) return cleaned || "file";
  const dot = cleaned.lastIndexOf(".");
  const ext = dot > 0 && cleaned.length - dot <= 16 ? cleaned.slice(dot) : "";
  let stem = cleaned.slice(0, cleaned.length - ext.length);
  while (Buffer.byteLength(stem + ext) > 120) stem = stem.slice(0, -1);
  return stem + ext;
}

/** The content type a share is stored with: the client's, unless missing or generic (then a guess from the name). */
/**
 * Types that say nothing about the file: no type, raw bytes, a form, or what curl sends with
 * `--data-binary` by default. The file's name decides instead.
 */
const GENERIC_TYPE =
  /^(application\/octet-stream|binary\/octet-stream|application\/x-www-form-urlencoded|multipart\/)/i;

export function shareMimeType(filename: string, given: string | undefined): string {
  const generic = !given || GENERIC_TYPE.test(given.trim());
  return uploadMimeType(filename, generic ? mimeTypeFor(filename) : given);
}

export type PresignInput = z.output<typeof presignRequest>;
/** What s3/commit and url/commit send: the file and the share options to apply. */
export type CommitInput = z.output<typeof commitRequest>;

/** The upload session a reservation gets: its kind, lifetime and, for multipart, the part plan. */
export interface SessionPlan {
  kind: SessionKind;
  ttlSeconds: number;
  /** Bytes the pending row counts against the quota until it is committed. */
  reservedBytes?: number;
  partSize?: number;
  partCount?: number;
}

export class UploadService {
  constructor(
    private readonly db: Db,
    private readonly configs: StorageConfigService,
    private readonly settings: SettingsService,
    private readonly shares: FileShareService,
    readonly sessions: UploadSessions,
    private readonly userQuota: UserQuota,
  ) {}

  /** Upload through the server: stream `body` into storage and publish the share. */
  async uploadStream(
    principal: Principal,
    filename: string,
    body: Readable,
    options: UploadOptions & { declaredSize?: number | null },
  ) {
    const limits = { maxBytes: await this.settings.maxUploadBytes(), declaredSize: options.declaredSize };
    checkDeclaredSize(limits);
    const { config, driver } = await this.resolveConfig(principal, options.s3_config_id);
    if (options.declaredSize != null) await this.configs.quota.assertFits(config, options.declaredSize);
    const streamLimit = await this.configs.quota.streamLimit(config, limits.maxBytes);
    const { row } = await this.reserve(principal, config, filename, options, {
      kind: SESSION_KIND.stream,
      ttlSeconds: RESERVATION_LEASE_SECONDS,
      // A declared length is claimed before the first byte: concurrent uploads are refused up front.
      ...(options.declaredSize != null ? { reservedBytes: options.declaredSize } : {}),
    });
    const release = holdReservation(this.db, row.id);
    try {
      const { result: written } = await ingest(
        body,
        (input, signal) =>
          driver.write(row.storage_path, input, {
            contentType: row.mimetype,
            signal,
            ...(options.declaredSize != null ? { size: options.declaredSize } : {}),
          }),
        { ...limits, ...streamLimit },
      );
      // Concurrent uploads may have taken the space meanwhile.
      await this.configs.quota.assertFits(config, written.size, row.id);
      return await this.activate(row, written.size, written.etag);
    } catch (e) {
      await this.discard(row, driver);
      throw e;
    } finally {
      release();
    }
  }

  /** POST /s3/presign: reserve the share and hand out a URL to PUT the bytes to. */
  async presign(principal: Principal, input: PresignInput, publicOrigin: string): Promise<PresignedUpload> {
    checkDeclaredSize({ maxBytes: await this.settings.maxUploadBytes(), declaredSize: input.size });
    const { config, driver } = await this.resolveConfig(principal, input.s3_config_id);
    if (input.size != null) await this.configs.quota.assertFits(config, input.size);
    const { row, session } = await this.reserve(principal, config, input.filename, input, {
      kind: SESSION_KIND.presign,
      ttlSeconds: PRESIGN_TTL_SECONDS,
    });
    const request = await this.sessions.presignPut(driver, session, row.mimetype, publicOrigin);
    return {
      file_id: row.id,
      upload_url: request.url,
      upload_headers: request.headers,
      upload_method: "PUT",
      storage_path: row.storage_path,
      s3_url: driver.publicUrl ? driver.publicUrl(row.storage_path) : null,
      slug: row.slug,
      provider_type: config.storage_type === "LOCAL" ? "LOCAL" : config.provider_type,
      storage_type: config.storage_type as StorageType,
      ...shareSummary(row),
      upload_expires_at: request.expiresAt.toISOString(),
    };
  }

  /** Where the bytes of a signed PUT to a share's session go, while the share is still pending. */
  async receiveTarget(session: UploadSession): Promise<ReceiveTarget | null> {
    const row = await this.pendingRow(session.file_id);
    if (!row?.storage_config_id) return null;
    const { driver } = await this.configs.driverById(row.storage_config_id);
    return {
      driver,
      contentType: row.mimetype,
      limit: { maxBytes: await this.settings.maxUploadBytes() },
      // A multipart reservation counts the announced size; a presigned one has none to hold parts to.
      totalSize: session.kind === SESSION_KIND.presign ? null : row.size,
    };
  }

  /**
   * POST /s3/commit: the bytes are in storage; check them and publish the
   * share, with the share options the client sends here.
   */
  async commit(principal: Principal, input: CommitInput): Promise<PublishedFileShare> {
    const row = await this.shareRow(input.file_id);
    if (!row || !isCreator(principal, row))
      throw notFound("File does not exist or was deleted", "file_not_found");
    if (row.status === "active") return { ...presentFile(row), ...this.shares.urlsFor(row) };
    const { row: config, driver } = await this.configs.driverById(row.storage_config_id!);
    const stored = await driver.stat(row.storage_path);
    if (!stored || stored.isDirectory) {
      throw badRequest(
        "The file has not been uploaded to storage yet; upload it before committing",
        "upload_missing",
      );
    }
    const maxBytes = await this.settings.maxUploadBytes();
    if (stored.size > maxBytes) {
      await this.discard(row, driver);
      throw uploadTooLarge(maxBytes, stored.size);
    }
    try {
      await this.configs.quota.assertFits(config, stored.size, row.id);
    } catch (e) {
      await this.discard(row, driver);
      throw e;
    }
    return this.activate(row, stored.size, stored.etag, input);
  }

  // ---- shared with the multipart service (share-multipart.ts) ----------------

  shareRow(fileId: string): Promise<FileRow | undefined> {
    return this.db.selectFrom("files").selectAll().where("id", "=", fileId).executeTakeFirst();
  }

  /** A share row while it is still pending (an upload reserved it and has not published it). */
  pendingRow(fileId: string | null): Promise<FileRow | undefined> {
    if (!fileId) return Promise.resolve(undefined);
    return this.db
      .selectFrom("files")
      .selectAll()
      .where("id", "=", fileId)
      .where("status", "=", "pending")
      .executeTakeFirst();
  }

  async resolveConfig(
    principal: Principal,
    configId: string | undefined,
  ): Promise<{ config: StorageConfigRow; driver: StorageDriver }> {
    const config = configId
      ? await this.configs.requireUsable(principal, configId)
      : await this.configs.defaultFor(principal);
    return { config, driver: this.configs.driverFor(config) };
  }

  /** Inserts the pending share row (reserving the slug) and its upload session. */
  async reserve(
    principal: Principal,
    config: StorageConfigRow,
    requestedName: string,
    options: UploadOptions & { encrypted_meta?: string | undefined },
    plan: SessionPlan,
  ): Promise<{ row: FileRow; session: UploadSession }> {
    const id = randomUUID();
    // An encrypted upload hides its name and type; the server keeps an opaque name and the bytes' real type.
    const encryptedMeta = options.encrypted_meta ?? null;
    const filename = encryptedMeta ? ENCRYPTED_FILENAME : requestedName;
    const name = safeObjectName(filename);
    const folder = options.path ? `${options.path}/` : "";
    // Share objects live in the share area, which no mount shows (share-areas.ts).
    const storagePath = shareAreaPath(
      options.original_filename ? `${folder}${name}` : `${folder}${id.slice(0, 8)}-${name}`,
    );
    if (options.original_filename) {
      if (await this.configs.driverFor(config).exists(storagePath))
        throw conflict("A file with this name already exists in storage", "target_exists");
    }
    const now = new Date();
    const row: FileRow = {
      ...(await newShareFields(principal, options, now)),
      id,
      filename,
      storage_config_id: config.id,
      storage_type: config.storage_type,
      storage_path: storagePath,
      file_path: null,
      mount_id: null,
      mimetype: encryptedMeta ? "application/octet-stream" : shareMimeType(filename, options.mimetype),
      encrypted_meta: encryptedMeta,
      // The reserved size is claimed below, under the owner's quota lock, not written with the row.
      size: 0,
      etag: null,
      remark: options.remark ?? null,
      status: "pending",
      delete_object_with_share: 1,
    };
    await this.shares.insertRow(row, Boolean(options.slug));
    if (plan.reservedBytes) {
      try {
        await this.userQuota.claim(claimOf(row, plan.reservedBytes));
      } catch (e) {
        await this.db.deleteFrom("files").where("id", "=", row.id).execute();
        throw e;
      }
      row.size = plan.reservedBytes;
    }
    const session = await this.sessions.insert({
      kind: plan.kind,
      target: { fileId: row.id },
      storageConfigId: config.id,
      storagePath,
      createdBy: row.created_by,
      ttlSeconds: plan.ttlSeconds,
      ...(plan.partSize !== undefined ? { partSize: plan.partSize } : {}),
      ...(plan.partCount !== undefined ? { partCount: plan.partCount } : {}),
    });
    await this.configs.touch(config.id);
    return { row, session };
  }

  /**
   * The one commit of a file share, whatever way its bytes came (form, raw
   * PUT, s3/commit, url/commit, multipart complete, the URL server task):
   * publishes the pending share and applies the share options sent with the
   * commit (those sent with the reservation are already on the row).
   */
  async activate(
    row: FileRow,
    size: number,
    etag: string | null,
    options: ShareOptionsUpdate = {},
  ): Promise<PublishedFileShare> {
    // The real size against the owner's quotas; a share that does not fit is removed whole.
    try {
      await this.userQuota.claim(claimOf(row, size));
    } catch (e) {
      await this.shares.removeObject(row);
      await this.db.deleteFrom("upload_sessions").where("file_id", "=", row.id).execute();
      await this.db.deleteFrom("files").where("id", "=", row.id).where("status", "=", "pending").execute();
      throw e;
    }
    const changes = {
      status: "active",
      size,
      etag,
      updated_at: nowIso(),
      ...(await shareOptionChanges(options)),
    };
    const updated = await this.db
      .updateTable("files")
      .set(changes)
      .where("id", "=", row.id)
      .where("status", "=", "pending")
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) {
      const current = await this.db
        .selectFrom("files")
        .selectAll()
        .where("id", "=", row.id)
        .executeTakeFirst();
      if (current?.status === "active") return { ...presentFile(current), ...this.shares.urlsFor(current) };
      // Released by the admin (or the sweep) while the bytes were arriving.
      await this.shares.removeObject(row);
      throw conflict("The upload was released before it finished; upload the file again", "upload_released");
    }
    await this.db.deleteFrom("upload_sessions").where("file_id", "=", row.id).execute();
    const active: FileRow = { ...row, ...changes };
    metrics.upload(active.storage_type, size);
    return { ...presentFile(active), ...this.shares.urlsFor(active) };
  }

  async discard(row: FileRow, driver: StorageDriver): Promise<void> {
    await driver.remove(row.storage_path).catch(() => undefined);
    await this.db.deleteFrom("upload_sessions").where("file_id", "=", row.id).execute();
    await this.db.deleteFrom("files").where("id", "=", row.id).execute();
  }
}

const claimOf = (row: FileRow, size: number) => ({
  fileId: row.id,
  ownerId: row.owner_id,
  storageConfigId: row.storage_config_id,
  size,
});

/** What upload answers say about the share being made. */
export function shareSummary(row: FileRow): UploadShareSummary {
  return {
    content_type: row.mimetype,
    has_password: row.password_hash !== null,
    expires_at: row.expires_at,
    max_views: row.max_views,
    url: `/file/${row.slug}`,
  };
}

/** The columns the share options sent with a commit change; options not sent keep what the upload set. */
async function shareOptionChanges(options: ShareOptionsUpdate) {
  // Only the share options: a commit body also names the file, its size and ETag.
  return {
    ...(options.remark !== undefined ? { remark: options.remark } : {}),
    ...(options.password !== undefined ? { password_hash: await hashPassword(options.password) } : {}),
    ...(options.expires_in !== undefined
      ? {
          expires_at: options.expires_in
            ? new Date(Date.now() + options.expires_in * 3600_000).toISOString()
            : null,
        }
      : {}),
    ...(options.max_views !== undefined ? { max_views: options.max_views } : {}),
  };
}
