/**
 * The one upload-session model, for every target: a file share (the session
 * names its pending `files` row) or a mount path (the session names the mount
 * and the path inside it). A session is what a signed URL, a commit or a
 * multipart complete/resume/abort acts on, and what the sweep removes once it
 * lapses. Kinds:
 * - `stream`: a share upload streaming through this server (a short lease the
 *   uploader renews, reservation-lease.ts);
 * - `presign`: one PUT of the whole file, to storage's presigned URL or to this
 *   server's signed URL (LOCAL);
 * - `multipart` / `multipart-completing`: the storage's multipart upload with
 *   the client's part plan. LOCAL parts come through this server's signed part
 *   URLs; S3 parts go straight to the bucket with presigned UploadPart URLs.
 */
import type { Selectable } from "kysely";
import { creatorIdOf } from "../../auth/creator";
import type { Principal } from "../../auth/principal";
import type { Db } from "../../db/database";
import { nowIso } from "../../db/database";
import type { UploadSessionsTable } from "../../db/schema";
import { conflict, isAppError, notFound } from "../../errors";
import { randomBase62 } from "../../lib/crypto";
import type { Logger } from "../../logger";
import type {
  MultipartPart,
  PresignedRequest,
  StorageDriver,
  StoredPart,
  WriteResult,
} from "../../storage/types";
import type { UploadSigner } from "./upload-signer";

export const SESSION_KIND = {
  stream: "stream",
  presign: "presign",
  multipart: "multipart",
  completing: "multipart-completing",
} as const;
export type SessionKind = (typeof SESSION_KIND)[keyof typeof SESSION_KIND];

/** A presigned PUT of a whole file may start within an hour. */
export const PRESIGN_TTL_SECONDS = 3600;
/**
 * Uploads in parts may take long (big files, paused laptops) but not longer
 * than this from init: clients drop saved progress after 24 h, and the storage
 * sweeps multipart uploads older than that.
 */
export const MULTIPART_TTL_SECONDS = 24 * 3600;
export const MAX_PARTS = 10_000;

export type UploadSession = Selectable<UploadSessionsTable>;

/** Where the bytes go: a file share's reserved object, or a path in a mount. */
export type SessionTarget = { fileId: string } | { mountId: string };

export interface NewSession {
  kind: SessionKind;
  target: SessionTarget;
  storageConfigId: string;
  storagePath: string;
  createdBy: string;
  ttlSeconds: number;
  uploadId?: string | null;
  partSize?: number;
  partCount?: number;
}

export const uploadGone = () =>
  notFound("Multipart upload does not exist or has expired; start the upload again", "upload_not_found");
const completing = () => conflict("This upload is already being completed", "upload_completing");

export class UploadSessions {
  constructor(
    private readonly db: Db,
    private readonly signer: UploadSigner,
    private readonly log: Logger,
  ) {}

  async insert(spec: NewSession): Promise<UploadSession> {
    const now = new Date();
    const session: UploadSession = {
      id: randomBase62(32),
      kind: spec.kind,
      storage_config_id: spec.storageConfigId,
      mount_id: "mountId" in spec.target ? spec.target.mountId : null,
      file_id: "fileId" in spec.target ? spec.target.fileId : null,
      storage_path: spec.storagePath,
      upload_id: spec.uploadId ?? null,
      created_by: spec.createdBy,
      expires_at: new Date(now.getTime() + spec.ttlSeconds * 1000).toISOString(),
      created_at: nowIso(now),
      part_size: spec.partSize ?? null,
      part_count: spec.partCount ?? null,
    };
    await this.db.insertInto("upload_sessions").values(session).execute();
    return session;
  }

  get(id: string): Promise<UploadSession | undefined> {
    return this.db.selectFrom("upload_sessions").selectAll().where("id", "=", id).executeTakeFirst();
  }

  /**
   * A live session of one of `kinds` for a target (and upload id, for
   * multipart). `principal` limits it to that caller's sessions; share
   * targets check ownership on their row instead.
   */
  async find(
    principal: Principal | null,
    kinds: SessionKind[],
    where: { fileId?: string; mountId?: string; storagePath?: string; id?: string; uploadId?: string },
  ): Promise<UploadSession | undefined> {
    let query = this.db
      .selectFrom("upload_sessions")
      .selectAll()
      .where("kind", "in", kinds)
      .where("expires_at", ">", nowIso());
    if (principal) query = query.where("created_by", "=", creatorIdOf(principal));
    if (where.fileId) query = query.where("file_id", "=", where.fileId);
    if (where.mountId) query = query.where("mount_id", "=", where.mountId);
    if (where.storagePath) query = query.where("storage_path", "=", where.storagePath);
    if (where.id) query = query.where("id", "=", where.id);
    if (where.uploadId) query = query.where("upload_id", "=", where.uploadId);
    return query.orderBy("created_at", "desc").executeTakeFirst();
  }

  async remove(id: string): Promise<void> {
    await this.db.deleteFrom("upload_sessions").where("id", "=", id).execute();
  }

  /** A PUT for the whole file: storage's own presigned URL, or this server's signed one (LOCAL). */
  async presignPut(
    driver: StorageDriver,
    session: UploadSession,
    contentType: string,
    origin: string,
  ): Promise<PresignedRequest> {
    if (driver.capabilities.presignWrite && driver.presignWrite) {
      const signed = await driver.presignWrite(session.storage_path, {
        contentType,
        expiresIn: PRESIGN_TTL_SECONDS,
      });
      return { ...signed, headers: { ...signed.headers, "Content-Type": contentType } };
    }
    const expiresAt = new Date(session.expires_at);
    return {
      url: this.signer.url(origin, session.id, expiresAt),
      method: "PUT",
      headers: { "Content-Type": contentType },
      expiresAt,
    };
  }

  // ---- multipart -------------------------------------------------------------

  /** Starts the storage's multipart upload and records its session; the storage upload is aborted if recording fails. */
  async startMultipart(
    driver: StorageDriver,
    spec: Omit<NewSession, "kind" | "ttlSeconds" | "uploadId">,
    contentType: string,
  ): Promise<UploadSession> {
    const uploadId = await driver.initMultipart!(spec.storagePath, { contentType, partSize: spec.partSize });
    try {
      return await this.insert({
        ...spec,
        kind: SESSION_KIND.multipart,
        ttlSeconds: MULTIPART_TTL_SECONDS,
        uploadId,
      });
    } catch (e) {
      await driver.abortMultipart?.(spec.storagePath, uploadId).catch(() => undefined);
      throw e;
    }
  }

  /** A multipart upload the storage already started (a share reserved before it was started). */
  async attachUpload(session: UploadSession, uploadId: string): Promise<UploadSession> {
    await this.db
      .updateTable("upload_sessions")
      .set({ upload_id: uploadId })
      .where("id", "=", session.id)
      .execute();
    return { ...session, upload_id: uploadId };
  }

  /** One URL per part: presigned UploadPart on S3, this server's signed part URL on LOCAL. */
  async partUrls(driver: StorageDriver, session: UploadSession, origin: string) {
    const count = session.part_count ?? 1;
    const urls: Array<{ partNumber: number; url: string }> = [];
    const expiresAt = new Date(session.expires_at);
    for (let partNumber = 1; partNumber <= count; partNumber++) {
      const url = driver.presignPart
        ? (
            await driver.presignPart(
              session.storage_path,
              session.upload_id!,
              partNumber,
              MULTIPART_TTL_SECONDS,
            )
          ).url
        : this.signer.url(origin, session.id, expiresAt, { partNumber, isLastPart: partNumber === count });
      urls.push({ partNumber, url });
    }
    return urls;
  }

  /** Resume: the parts the storage holds. A storage that forgot the upload ends the session (404). */
  async storedParts(driver: StorageDriver, session: UploadSession): Promise<StoredPart[]> {
    try {
      return await driver.listParts!(session.storage_path, session.upload_id!);
    } catch (e) {
      if (isAppError(e) && e.error === "upload_not_found") {
        await this.remove(session.id);
        throw uploadGone();
      }
      throw e;
    }
  }

  /**
   * Assembles the parts. Exactly one of two concurrent completes gets to do it
   * (the session is claimed as `multipart-completing`); the other gets 409. Wrong
   * or missing parts leave the session open, so the client can fix them.
   */
  async assemble(
    driver: StorageDriver,
    session: UploadSession,
    parts: MultipartPart[],
  ): Promise<WriteResult> {
    const claimed = await this.db
      .updateTable("upload_sessions")
      .set({ kind: SESSION_KIND.completing })
      .where("id", "=", session.id)
      .where("kind", "=", SESSION_KIND.multipart)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) throw completing();
    try {
      return await driver.completeMultipart!(session.storage_path, session.upload_id!, parts);
    } catch (e) {
      await this.db
        .updateTable("upload_sessions")
        .set({ kind: SESSION_KIND.multipart })
        .where("id", "=", session.id)
        .execute();
      throw e;
    }
  }

  /** Aborts the storage's upload (its parts go) and ends the session. */
  async abort(driver: StorageDriver, session: UploadSession): Promise<void> {
    if (session.kind === SESSION_KIND.completing) throw completing();
    await this.abortStorageUpload(driver, session);
    await this.remove(session.id);
  }

  /** Drops the parts of a multipart upload nobody will finish (best effort; logged). */
  async abortStorageUpload(
    driver: StorageDriver,
    session: Pick<UploadSession, "storage_path" | "upload_id" | "id">,
  ) {
    if (!session.upload_id) return;
    await driver.abortMultipart?.(session.storage_path, session.upload_id).catch((err) => {
      if (isAppError(err) && err.error === "upload_not_found") return;
      this.log.warn({ err, sessionId: session.id }, "Could not abort an abandoned multipart upload");
    });
  }

  /**
   * The sweep: ends lapsed sessions of mount targets, aborting their storage
   * uploads (`driverOf` finds the mount's storage; null when the mount is gone).
   * Share sessions end with their pending share (ShareStorageSweep), which
   * aborts through `abortStorageUpload` too.
   */
  async sweepMountSessions(
    driverOf: (session: UploadSession) => Promise<StorageDriver | null>,
    now = new Date(),
  ): Promise<number> {
    const expired = await this.db
      .selectFrom("upload_sessions")
      .selectAll()
      .where("expires_at", "<=", nowIso(now))
      .where("mount_id", "is not", null)
      .limit(500)
      .execute();
    for (const session of expired) {
      const driver = await driverOf(session);
      if (driver) await this.abortStorageUpload(driver, session);
      await this.remove(session.id);
    }
    return expired.length;
  }
}
