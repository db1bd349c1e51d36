/**
 * Uploads that do not stream through this server's request body: presigned
 * (the client PUTs to S3, or for LOCAL to a signed URL on this server, then
 * commits) and, in fs-multipart-uploads.ts, multipart (S3 native uploads with
 * presigned part URLs; LOCAL parts go to signed part URLs here). Each is
 * recorded in upload_sessions, so commit and complete act only on uploads
 * their caller started, and abandoned ones are swept. This module owns the
 * sessions, the signed URLs of this server and the limits both kinds share.
 */
import type { Readable } from "node:stream";
import { creatorIdOf } from "../../auth/creator";
import type { Principal } from "../../auth/principal";
import type { Db } from "../../db/database";
import { nowIso } from "../../db/database";
import type { UploadSessionsTable } from "../../db/schema";
import { AppError, badRequest, notFound } from "../../errors";
import { randomBase62 } from "../../lib/crypto";
import { ingest, partTooLarge, uploadTooLarge } from "../../lib/ingest";
import type { Logger } from "../../logger";
import { mimeTypeFor } from "../../storage/mime";
import type { PresignedRequest } from "../../storage/types";
import type { SettingsService } from "../settings/settings-service";
import type { StorageQuota } from "../storage-configs/storage-quota";
import { authorize, type FsActor } from "./access";
import { FS_ERRORS } from "./fs-entry";
import { checkFileName } from "./fs-uploads";
import type { LinkSigner } from "./link-signer";
import type { ResolvedPath } from "./mount-table";
import type { VirtualFileSystem } from "./vfs";
import { normalizeVirtualPath, vbasename, vjoin } from "./vpath";

const PRESIGN_TTL_SECONDS = 3600;
export const MULTIPART_TTL_SECONDS = 24 * 3600;
export const SESSION_KINDS = { presign: "fs-presign", multipart: "fs-multipart" } as const;

export type Session = { [K in keyof UploadSessionsTable]: UploadSessionsTable[K] };

export class DirectUploadService {
  constructor(
    private readonly db: Db,
    private readonly vfs: VirtualFileSystem,
    private readonly settings: SettingsService,
    private readonly quota: StorageQuota,
    private readonly signer: LinkSigner,
    private readonly log: Logger,
  ) {}

  /** POST /fs/presign: a URL the client PUTs the file to. */
  async presign(
    actor: FsActor,
    input: {
      path: string;
      fileName: string;
      contentType?: string | undefined;
      fileSize?: number | undefined;
    },
    origin: string,
  ) {
    const target = await this.uploadTarget(actor, input.path, input.fileName, input.fileSize);
    const contentType = input.contentType?.trim() || mimeTypeFor(target.path);
    const { session, request } = await this.presignedPut(actor.principal, target, contentType, origin);
    return {
      presignedUrl: request.url,
      uploadUrl: request.url,
      method: request.method,
      headers: request.headers,
      fileId: session.id,
      s3Path: target.subPath,
      s3Url: target.driver.publicUrl ? target.driver.publicUrl(target.subPath) : null,
      mountId: target.row.id,
      s3ConfigId: target.config.id,
      storage_type: target.row.storage_type,
      targetPath: target.path,
      contentType,
      expiresAt: request.expiresAt.toISOString(),
    };
  }

  /** POST /fs/presign/commit: the bytes are in storage; check them and make them visible in listings. */
  async commitPresigned(actor: FsActor, input: { targetPath: string; fileId?: string | undefined }) {
    const path = normalizeVirtualPath(input.targetPath);
    authorize(actor, "upload", path);
    const target = await this.vfs.requireMount(path, actor);
    const session = await this.findSession(actor.principal, SESSION_KINDS.presign, target, {
      id: input.fileId,
    });
    const entry = await this.vfs.statIn(target);
    if (!entry || entry.isDirectory) {
      throw badRequest(
        "The file has not been uploaded to storage yet; upload it before committing",
        "upload_missing",
      );
    }
    await this.enforceLimit(target, entry.size);
    await this.vfs.invalidate(target, false);
    if (session) await this.db.deleteFrom("upload_sessions").where("id", "=", session.id).execute();
    return { fileName: vbasename(path), targetPath: path, fileSize: entry.size, etag: entry.etag };
  }

  /**
   * PUT to a signed URL of this server (LOCAL presigned file or part). The
   * signature is the credential; it names the session, which names the target.
   */
  async receiveSigned(
    sessionId: string,
    part: number,
    expires: string,
    signature: string,
    body: Readable,
    declaredSize: number | null = null,
  ) {
    if (!this.signer.verifyUpload(sessionId, part, expires, signature)) {
      throw new AppError(403, "invalid_signature", "Upload URL is invalid or has expired");
    }
    const session = await this.db
      .selectFrom("upload_sessions")
      .selectAll()
      .where("id", "=", sessionId)
      .executeTakeFirst();
    const mount = session?.mount_id ? await this.vfs.mounts.byId(session.mount_id) : null;
    if (!session || !mount) throw notFound("Upload session does not exist", "upload_session_not_found");
    const driver = this.vfs.mounts.driverFor(mount);
    const maxBytes = await this.settings.maxUploadBytes();
    let result: { etag: string | null; size?: number };
    if (session.kind === SESSION_KINDS.presign && part === 0) {
      const limit = await this.quota.streamLimit(mount.config, maxBytes);
      ({ result } = await ingest(
        body,
        (input, signal) =>
          driver.write(session.storage_path, input, {
            signal,
            contentType: mimeTypeFor(session.storage_path),
          }),
        { ...limit, declaredSize },
      ));
    } else if (
      session.kind === SESSION_KINDS.multipart &&
      part >= 1 &&
      part <= (session.part_count ?? 10_000) &&
      driver.uploadPart &&
      session.upload_id
    ) {
      const { uploadPart } = driver;
      const uploadId = session.upload_id;
      // A part is at most the part size the upload announced (sessions from before that was kept: the upload limit).
      const partMax = session.part_size ?? maxBytes;
      ({ result } = await ingest(
        body,
        (input) =>
          uploadPart.call(driver, session.storage_path, uploadId, part, input, declaredSize ?? undefined),
        { maxBytes: partMax, declaredSize, tooLarge: () => partTooLarge(partMax) },
      ));
    } else {
      body.resume();
      throw notFound("Upload session does not exist", "upload_session_not_found");
    }
    await this.vfs.caches.invalidate(mount.row.id, session.storage_path, false);
    return result;
  }

  /** A PUT URL for one file (presigned on S3, signed on this server for LOCAL); used by client-side copies too. */
  async presignedPut(principal: Principal, target: ResolvedPath, contentType: string, origin: string) {
    const session = await this.insertSession(
      principal,
      SESSION_KINDS.presign,
      target,
      null,
      PRESIGN_TTL_SECONDS,
    );
    let request: PresignedRequest;
    if (target.driver.presignWrite) {
      request = await target.driver.presignWrite(target.subPath, {
        contentType,
        expiresIn: PRESIGN_TTL_SECONDS,
      });
      request = { ...request, headers: { ...request.headers, "Content-Type": contentType } };
    } else {
      request = {
        url: this.signedUploadUrl(origin, session, 0),
        method: "PUT",
        headers: { "Content-Type": contentType },
        expiresAt: new Date(session.expires_at),
      };
    }
    return { session, request };
  }

  /** Drops expired sessions, aborting their multipart uploads. */
  async sweepSessions(now = new Date()): Promise<number> {
    const expired = await this.db
      .selectFrom("upload_sessions")
      .selectAll()
      .where("expires_at", "<=", nowIso(now))
      .where("kind", "in", Object.values(SESSION_KINDS))
      .limit(500)
      .execute();
    for (const session of expired) {
      const mount = session.mount_id ? await this.vfs.mounts.byId(session.mount_id) : null;
      if (mount && session.kind === SESSION_KINDS.multipart && session.upload_id) {
        const driver = this.vfs.mounts.driverFor(mount);
        await driver.abortMultipart?.(session.storage_path, session.upload_id).catch((err) => {
          this.log.warn({ err, sessionId: session.id }, "Could not abort an abandoned multipart upload");
        });
      }
      await this.db.deleteFrom("upload_sessions").where("id", "=", session.id).execute();
    }
    return expired.length;
  }

  // ---- shared with the multipart service (fs-multipart-uploads.ts) ----------

  /** Directory + file name → a checked target for a presigned or multipart upload. */
  async uploadTarget(actor: FsActor, dir: string, fileName: string, size: number | undefined) {
    const path = vjoin(normalizeVirtualPath(dir), checkFileName(fileName));
    authorize(actor, "upload", path);
    const target = await this.vfs.requireMount(path, actor);
    if (size !== undefined) {
      const maxBytes = await this.settings.maxUploadBytes();
      if (size > maxBytes) throw uploadTooLarge(maxBytes, size);
      await this.quota.assertFits(target.config, size);
    }
    const existing = await this.vfs.statIn(target);
    if (existing?.isDirectory) throw FS_ERRORS.isDirectory(path);
    return target;
  }

  /** Files over the size limit or the quota that arrived by presigned or multipart upload are removed again. */
  async enforceLimit(target: ResolvedPath, size: number): Promise<void> {
    const maxBytes = await this.settings.maxUploadBytes();
    try {
      if (size > maxBytes) throw uploadTooLarge(maxBytes, size);
      await this.quota.assertFits(target.config, size);
    } catch (e) {
      await target.driver.remove(target.subPath).catch(() => undefined);
      await this.vfs.invalidate(target, false);
      throw e;
    }
  }

  async insertSession(
    principal: Principal,
    kind: string,
    target: ResolvedPath,
    uploadId: string | null,
    ttlSeconds: number,
    plan: { partSize?: number; partCount?: number } = {},
  ): Promise<Session> {
    const now = new Date();
    const session: Session = {
      id: randomBase62(32),
      kind,
      storage_config_id: target.config.id,
      mount_id: target.row.id,
      storage_path: target.subPath,
      upload_id: uploadId,
      file_id: null,
      created_by: creatorIdOf(principal),
      expires_at: new Date(now.getTime() + ttlSeconds * 1000).toISOString(),
      created_at: nowIso(now),
      part_size: plan.partSize ?? null,
      part_count: plan.partCount ?? null,
    };
    await this.db.insertInto("upload_sessions").values(session).execute();
    return session;
  }

  async findSession(
    principal: Principal,
    kind: string,
    target: ResolvedPath,
    by: { id?: string | undefined; uploadId?: string | undefined },
  ): Promise<Session | undefined> {
    let query = this.db
      .selectFrom("upload_sessions")
      .selectAll()
      .where("kind", "=", kind)
      .where("mount_id", "=", target.row.id)
      .where("storage_path", "=", target.subPath)
      .where("created_by", "=", creatorIdOf(principal));
    if (by.id) query = query.where("id", "=", by.id);
    if (by.uploadId) query = query.where("upload_id", "=", by.uploadId);
    return query.orderBy("created_at", "desc").executeTakeFirst();
  }

  signedUploadUrl(origin: string, session: Session, part: number): string {
    const signature = this.signer.uploadSign(session.id, part, session.expires_at);
    const partPath = part > 0 ? `/parts/${part}` : "";
    return `${origin}/api/fs/upload-session/${session.id}${partPath}?expires=${encodeURIComponent(session.expires_at)}&signature=${signature}`;
  }
}
