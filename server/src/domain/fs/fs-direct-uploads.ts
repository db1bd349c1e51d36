/**
 * Explorer uploads that do not stream through this server's request body:
 * presigned (the client PUTs to S3, or for LOCAL to a signed URL on this
 * server, then commits) and, in fs-multipart-uploads.ts, multipart. The
 * sessions, signed URLs and part assembly are the upload domain's
 * (domain/uploads), shared with file shares; this module keeps what is the
 * tree's: the target path, the limits against the mount's storage, and the
 * listing caches.
 */
import { creatorIdOf } from "../../auth/creator";
import type { Principal } from "../../auth/principal";
import { badRequest } from "../../errors";
import { uploadTooLarge } from "../../lib/ingest";
import { mimeTypeFor } from "../../storage/mime";
import type { SettingsService } from "../settings/settings-service";
import type { StorageQuota } from "../storage-configs/storage-quota";
import type { ReceiveTarget } from "../uploads/signed-put";
import {
  PRESIGN_TTL_SECONDS,
  SESSION_KIND,
  type SessionKind,
  type UploadSession,
  type UploadSessions,
} from "../uploads/upload-sessions";
import type { FsActor } from "./access";
import { FS_ERRORS } from "./fs-entry";
import { checkFileName } from "./fs-uploads";
import type { ResolvedPath } from "./mount-table";
import type { VirtualFileSystem } from "./vfs";
import { normalizeVirtualPath, vbasename, vjoin } from "./vpath";

export class DirectUploadService {
  constructor(
    private readonly vfs: VirtualFileSystem,
    private readonly settings: SettingsService,
    private readonly quota: StorageQuota,
    readonly sessions: UploadSessions,
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
    await this.vfs.authorize(actor, "upload", path);
    const target = await this.vfs.requireMount(path, actor);
    const session = await this.findSession(actor.principal, [SESSION_KIND.presign], target, {
      ...(input.fileId ? { id: input.fileId } : {}),
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
    if (session) await this.sessions.remove(session.id);
    return { fileName: vbasename(path), targetPath: path, fileSize: entry.size, etag: entry.etag };
  }

  /** Where the bytes of a signed PUT to a mount session go: the mount's storage, within its quota. */
  async receiveTarget(session: UploadSession): Promise<ReceiveTarget | null> {
    const mount = session.mount_id ? await this.vfs.mounts.byId(session.mount_id) : null;
    if (!mount) return null;
    const maxBytes = await this.settings.maxUploadBytes();
    const limit = await this.quota.streamLimit(mount.config, maxBytes);
    return {
      driver: this.vfs.mounts.driverFor(mount),
      contentType: mimeTypeFor(session.storage_path),
      limit,
      totalSize: null,
      written: async () => {
        await this.vfs.caches.invalidate(mount.row.id, session.storage_path, false);
      },
    };
  }

  /** A PUT URL for one file (presigned on S3, signed on this server for LOCAL); used by client-side copies too. */
  async presignedPut(principal: Principal, target: ResolvedPath, contentType: string, origin: string) {
    const session = await this.sessions.insert({
      kind: SESSION_KIND.presign,
      target: { mountId: target.row.id },
      storageConfigId: target.config.id,
      storagePath: target.subPath,
      createdBy: creatorIdOf(principal),
      ttlSeconds: PRESIGN_TTL_SECONDS,
    });
    const request = await this.sessions.presignPut(target.driver, session, contentType, origin);
    return { session, request };
  }

  /** The sweep of explorer upload sessions: lapsed ones end, their multipart uploads aborted. */
  sweepSessions(now = new Date()): Promise<number> {
    return this.sessions.sweepMountSessions(async (session) => {
      const mount = session.mount_id ? await this.vfs.mounts.byId(session.mount_id) : null;
      return mount ? this.vfs.mounts.driverFor(mount) : null;
    }, now);
  }

  // ---- shared with the multipart service (fs-multipart-uploads.ts) ----------

  /** Directory + file name → a checked target for a presigned or multipart upload. */
  async uploadTarget(actor: FsActor, dir: string, fileName: string, size: number | undefined) {
    const path = vjoin(normalizeVirtualPath(dir), checkFileName(fileName));
    await this.vfs.authorize(actor, "upload", path);
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

  /** The caller's live session of one of `kinds` for this target. */
  findSession(
    principal: Principal,
    kinds: SessionKind[],
    target: ResolvedPath,
    by: { id?: string; uploadId?: string },
  ): Promise<UploadSession | undefined> {
    return this.sessions.find(principal, kinds, {
      mountId: target.row.id,
      storagePath: target.subPath,
      ...by,
    });
  }
}
