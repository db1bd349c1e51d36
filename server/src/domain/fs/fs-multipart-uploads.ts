/**
 * Explorer multipart uploads (fs/multipart/init, complete, resume, abort). The
 * session, part URLs (presigned on S3, this server's signed part URLs on
 * LOCAL), resume and assembly are the upload domain's multipart session
 * (domain/uploads/upload-sessions.ts), the same as file shares use; this
 * module resolves the tree path and keeps the listing caches and the limits.
 */
import {
  type FsMultipartDone,
  type FsMultipartResume,
  type FsMultipartStarted,
  type InlineStatusFree,
  MULTIPART_PART_SIZE,
} from "@clipshare/shared";
import { creatorIdOf } from "../../auth/creator";
import { badRequest, isAppError, notFound } from "../../errors";
import { mimeTypeFor } from "../../storage/mime";
import { MAX_PARTS, SESSION_KIND, type UploadSession } from "../uploads/upload-sessions";
import type { FsActor } from "./access";
import type { DirectUploadService } from "./fs-direct-uploads";
import { fsError } from "./fs-entry";
import { checkFileName } from "./fs-uploads";
import type { ResolvedPath } from "./mount-table";
import type { VirtualFileSystem } from "./vfs";
import { normalizeVirtualPath, vbasename, vjoin } from "./vpath";

export class FsMultipartUploads {
  constructor(
    private readonly vfs: VirtualFileSystem,
    private readonly direct: DirectUploadService,
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
    const target = await this.direct.uploadTarget(actor, input.path, input.fileName, input.fileSize);
    const { driver } = target;
    if (!driver.initMultipart)
      throw badRequest("This storage does not support multipart uploads", "not_supported");
    const partSize = input.partSize ?? MULTIPART_PART_SIZE;
    const partCount = input.partCount ?? Math.max(1, Math.ceil((input.fileSize ?? 0) / partSize));
    if (partCount > MAX_PARTS)
      throw badRequest("A multipart upload has at most 10000 parts", "too_many_parts");
    if (input.fileSize !== undefined && partSize * partCount < input.fileSize) {
      throw badRequest("partSize × partCount is smaller than fileSize", "invalid_parts");
    }
    const contentType = input.contentType?.trim() || mimeTypeFor(target.path);
    let session: UploadSession;
    try {
      session = await this.direct.sessions.startMultipart(
        driver,
        {
          target: { mountId: target.row.id },
          storageConfigId: target.config.id,
          storagePath: target.subPath,
          createdBy: creatorIdOf(actor.principal),
          partSize,
          partCount,
        },
        contentType,
      );
    } catch (e) {
      throw fsError(e, target);
    }
    return {
      uploadId: session.upload_id!,
      key: target.subPath,
      partSize,
      partCount,
      presignedUrls: await this.direct.sessions.partUrls(driver, session, origin),
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
    const { target, session } = await this.multipartSession(actor, input);
    const parts = input.parts.map((p) => ({ partNumber: p.partNumber, etag: p.etag ?? p.ETag ?? "" }));
    let written: { size: number; etag: string | null };
    try {
      written = await this.direct.sessions.assemble(target.driver, session, parts);
    } catch (e) {
      throw fsError(e, target);
    }
    await this.direct.sessions.remove(session.id);
    await this.direct.enforceLimit(target, written.size);
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
    const { target, session } = await this.multipartSession(actor, input);
    if (!target.driver.listParts)
      throw notFound("Multipart upload does not exist or has expired", "upload_not_found");
    let parts: Array<{ partNumber: number; etag: string; size: number }>;
    try {
      parts = await this.direct.sessions.storedParts(target.driver, session);
    } catch (e) {
      if (isAppError(e) && e.error === "upload_not_found") throw e;
      throw fsError(e, target);
    }
    return {
      parts: parts.map((p) => ({ partNumber: p.partNumber, etag: p.etag, size: p.size })),
      presignedUrls: await this.direct.sessions.partUrls(target.driver, session, origin),
    };
  }

  async abortMultipart(
    actor: FsActor,
    input: { path: string; uploadId: string; fileName?: string | undefined },
  ): Promise<void> {
    const { target, session } = await this.multipartSession(actor, input);
    await this.direct.sessions.abort(target.driver, session);
  }

  // ---- internals -----------------------------------------------------------

  private async multipartTarget(actor: FsActor, input: { path: string; fileName?: string | undefined }) {
    const given = normalizeVirtualPath(input.path);
    const path =
      input.fileName && vbasename(given) !== input.fileName
        ? vjoin(given, checkFileName(input.fileName))
        : given;
    await this.vfs.authorize(actor, "upload", path);
    return this.vfs.requireMount(path, actor);
  }

  /** The caller's live multipart session of this path and upload id, or 404 upload_not_found. */
  private async multipartSession(
    actor: FsActor,
    input: { path: string; uploadId: string; fileName?: string | undefined },
  ): Promise<{ target: ResolvedPath; session: UploadSession }> {
    const target = await this.multipartTarget(actor, input);
    const session = await this.direct.findSession(
      actor.principal,
      [SESSION_KIND.multipart, SESSION_KIND.completing],
      target,
      { uploadId: input.uploadId },
    );
    if (!session?.upload_id) throw notFound("Multipart upload does not exist", "upload_not_found");
    return { target, session };
  }
}
