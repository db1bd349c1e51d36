/**
 * Explorer multipart uploads (fs/multipart/init, complete, resume, abort): S3
 * native multipart uploads with presigned part URLs; on LOCAL the parts go to
 * signed part URLs of this server (received by DirectUploadService). The
 * upload_sessions row, the size and quota checks and the signed URLs are
 * DirectUploadService's, shared with presigned uploads.
 */
import {
  type FsMultipartDone,
  type FsMultipartResume,
  type FsMultipartStarted,
  type InlineStatusFree,
  MULTIPART_PART_SIZE,
} from "@clipshare/shared";
import type { Db } from "../../db/database";
import { nowIso } from "../../db/database";
import { badRequest, isAppError, notFound } from "../../errors";
import { mimeTypeFor } from "../../storage/mime";
import { authorize, type FsActor } from "./access";
import {
  type DirectUploadService,
  MULTIPART_TTL_SECONDS,
  SESSION_KINDS,
  type Session,
} from "./fs-direct-uploads";
import { fsError } from "./fs-entry";
import { checkFileName } from "./fs-uploads";
import type { ResolvedPath } from "./mount-table";
import type { VirtualFileSystem } from "./vfs";
import { normalizeVirtualPath, vbasename, vjoin } from "./vpath";

export class FsMultipartUploads {
  constructor(
    private readonly db: Db,
    private readonly vfs: VirtualFileSystem,
    private readonly sessions: DirectUploadService,
  ) {}

  /** POST /fs/multipart/init: starts a multipart upload and signs a URL per part. */
  async initMultipart(
    actor: FsActor,
    input: {
      path: string;
      fileName: string;
      fileSize?: number | undefined;
      partSize?: number | undefined;
      partCount?: number | undefined;
      contentType?: string | undefined;
    },
    origin: string,
  ): Promise<FsMultipartStarted> {
    const target = await this.sessions.uploadTarget(actor, input.path, input.fileName, input.fileSize);
    const { driver } = target;
    if (!driver.initMultipart)
      throw badRequest("This storage does not support multipart uploads", "not_supported");
    const partSize = input.partSize ?? MULTIPART_PART_SIZE;
    const partCount = input.partCount ?? Math.max(1, Math.ceil((input.fileSize ?? 0) / partSize));
    if (partCount > 10_000) throw badRequest("A multipart upload has at most 10000 parts", "too_many_parts");
    if (input.fileSize !== undefined && partSize * partCount < input.fileSize) {
      throw badRequest("partSize × partCount is smaller than fileSize", "invalid_parts");
    }
    const contentType = input.contentType?.trim() || mimeTypeFor(target.path);
    let uploadId: string;
    try {
      uploadId = await driver.initMultipart(target.subPath, { contentType });
    } catch (e) {
      throw fsError(e, target);
    }
    const session = await this.sessions.insertSession(
      actor.principal,
      SESSION_KINDS.multipart,
      target,
      uploadId,
      MULTIPART_TTL_SECONDS,
      { partSize, partCount },
    );
    return {
      uploadId,
      key: target.subPath,
      partSize,
      partCount,
      presignedUrls: await this.partUrls(target, session, origin),
      mount_id: target.row.id,
      path: target.path,
      storage_type: target.row.storage_type,
      expiresAt: session.expires_at,
    };
  }

  async completeMultipart(
    actor: FsActor,
    input: {
      path: string;
      uploadId: string;
      fileName?: string | undefined;
      parts: Array<{ partNumber: number; etag?: string | undefined; ETag?: string | undefined }>;
    },
  ): Promise<InlineStatusFree<FsMultipartDone>> {
    const target = await this.multipartTarget(actor, input);
    const session = await this.sessions.findSession(actor.principal, SESSION_KINDS.multipart, target, {
      uploadId: input.uploadId,
    });
    if (!session) throw notFound("Multipart upload does not exist", "upload_not_found");
    const parts = input.parts.map((p) => ({ partNumber: p.partNumber, etag: p.etag ?? p.ETag ?? "" }));
    let written: { size: number; etag: string | null };
    try {
      written = await target.driver.completeMultipart!(target.subPath, input.uploadId, parts);
    } catch (e) {
      throw fsError(e, target);
    }
    await this.db.deleteFrom("upload_sessions").where("id", "=", session.id).execute();
    await this.sessions.enforceLimit(target, written.size);
    await this.vfs.invalidate(target, false);
    return {
      fileName: vbasename(target.path),
      size: written.size,
      contentType: mimeTypeFor(target.path),
      s3Path: target.subPath,
      s3Url: target.driver.publicUrl ? target.driver.publicUrl(target.subPath) : null,
      etag: written.etag,
      location: target.path,
    };
  }

  /** POST /fs/multipart/resume: the parts the storage holds, and fresh URLs for every part. */
  async resumeMultipart(
    actor: FsActor,
    input: { path: string; uploadId: string; fileName?: string | undefined },
    origin: string,
  ): Promise<FsMultipartResume> {
    const target = await this.multipartTarget(actor, input);
    const session = await this.sessions.findSession(actor.principal, SESSION_KINDS.multipart, target, {
      uploadId: input.uploadId,
    });
    if (!session || session.expires_at <= nowIso() || !target.driver.listParts) {
      throw notFound("Multipart upload does not exist or has expired", "upload_not_found");
    }
    let parts: Array<{ partNumber: number; etag: string; size: number }>;
    try {
      parts = await target.driver.listParts(target.subPath, input.uploadId);
    } catch (e) {
      if (!isAppError(e) || e.error !== "upload_not_found") throw fsError(e, target);
      await this.db.deleteFrom("upload_sessions").where("id", "=", session.id).execute();
      throw notFound("Multipart upload does not exist or has expired", "upload_not_found");
    }
    return {
      parts: parts.map((p) => ({ partNumber: p.partNumber, etag: p.etag, size: p.size })),
      presignedUrls: await this.partUrls(target, session, origin),
    };
  }

  async abortMultipart(
    actor: FsActor,
    input: { path: string; uploadId: string; fileName?: string | undefined },
  ): Promise<void> {
    const target = await this.multipartTarget(actor, input);
    const session = await this.sessions.findSession(actor.principal, SESSION_KINDS.multipart, target, {
      uploadId: input.uploadId,
    });
    if (!session) throw notFound("Multipart upload does not exist", "upload_not_found");
    await target.driver.abortMultipart?.(target.subPath, input.uploadId).catch(() => undefined);
    await this.db.deleteFrom("upload_sessions").where("id", "=", session.id).execute();
  }

  // ---- internals -----------------------------------------------------------

  private async multipartTarget(actor: FsActor, input: { path: string; fileName?: string | undefined }) {
    const given = normalizeVirtualPath(input.path);
    const path =
      input.fileName && vbasename(given) !== input.fileName
        ? vjoin(given, checkFileName(input.fileName))
        : given;
    authorize(actor, "upload", path);
    return this.vfs.requireMount(path, actor);
  }

  private async partUrls(target: ResolvedPath, session: Session, origin: string) {
    const urls: Array<{ partNumber: number; url: string }> = [];
    for (let partNumber = 1; partNumber <= (session.part_count ?? 1); partNumber++) {
      const url = target.driver.presignPart
        ? (
            await target.driver.presignPart(
              target.subPath,
              session.upload_id!,
              partNumber,
              MULTIPART_TTL_SECONDS,
            )
          ).url
        : this.sessions.signedUploadUrl(origin, session, partNumber);
      urls.push({ partNumber, url });
    }
    return urls;
  }
}
