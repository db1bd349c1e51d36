/**
 * PUT to a signed upload URL of this server (UploadSigner): the signature is
 * the credential, it names the session, and the session names the target. The
 * target's owner (file shares, mounts) says where the bytes go and how many
 * may come; this module checks the URL and the part plan and streams the body
 * in with `ingest()`.
 */
import type { Readable } from "node:stream";
import { AppError, badRequest, conflict, notFound } from "../../errors";
import { drain, ingest, partTooLarge } from "../../lib/ingest";
import type { StorageDriver } from "../../storage/types";
import { SESSION_KIND, type UploadSession, type UploadSessions } from "./upload-sessions";
import type { SignedUploadQuery, UploadSigner } from "./upload-signer";

/** What a target's owner says about a session's bytes. */
export interface ReceiveTarget {
  driver: StorageDriver;
  contentType: string;
  /** The most a whole-file PUT may carry, and the error past it (the size limit's 413 or the quota's 507). */
  limit: { maxBytes: number; tooLarge?: (maxBytes: number, actual: number | null) => AppError };
  /** The file's announced size, when known: the last part holds what the others leave of it. */
  totalSize: number | null;
  /** After bytes arrived (cache invalidation). */
  written?: () => Promise<void>;
}

/** Finds the target of a session; null when it is gone (released share, removed mount). */
export type TargetResolver = (session: UploadSession) => Promise<ReceiveTarget | null>;

const sessionGone = () => notFound("Upload session does not exist", "upload_session_not_found");

export class SignedUploads {
  constructor(
    private readonly sessions: UploadSessions,
    private readonly signer: UploadSigner,
    private readonly targets: { share: TargetResolver; mount: TargetResolver },
  ) {}

  async receive(sessionId: string, query: SignedUploadQuery, body: Readable, declaredSize: number | null) {
    if (!this.signer.verify(sessionId, query)) {
      drain(body);
      throw new AppError(403, "invalid_signature", "Upload URL is invalid or has expired");
    }
    const session = await this.sessions.get(sessionId);
    const target = session ? await this.resolve(session) : null;
    if (!session || !target) {
      drain(body);
      throw sessionGone();
    }
    const { part } = query;
    if (!part) {
      if (session.kind !== SESSION_KIND.presign) {
        drain(body);
        throw sessionGone();
      }
      const { result } = await ingest(
        body,
        (input, signal) =>
          target.driver.write(session.storage_path, input, { contentType: target.contentType, signal }),
        { ...target.limit, declaredSize },
      );
      await target.written?.();
      return { etag: result.etag, size: result.size };
    }
    if (session.kind === SESSION_KIND.completing) {
      drain(body);
      throw conflict("This upload is already being completed", "upload_completing");
    }
    if (session.kind !== SESSION_KIND.multipart || !session.upload_id || !target.driver.uploadPart) {
      drain(body);
      throw sessionGone();
    }
    const partCount = session.part_count ?? 1;
    if (part.partNumber > partCount) {
      drain(body);
      throw badRequest(`This upload has ${partCount} parts`, "invalid_part");
    }
    const partSize = session.part_size ?? target.limit.maxBytes;
    const partMax =
      target.totalSize != null
        ? Math.min(partSize, target.totalSize - (part.partNumber - 1) * partSize)
        : partSize;
    const { driver } = target;
    const uploadId = session.upload_id;
    const { result, bytes } = await ingest(
      body,
      (input) =>
        driver.uploadPart!(session.storage_path, uploadId, part.partNumber, input, declaredSize ?? undefined),
      { maxBytes: partMax, declaredSize, tooLarge: () => partTooLarge(partMax) },
    );
    await target.written?.();
    return { partNumber: part.partNumber, etag: result.etag, size: bytes };
  }

  private resolve(session: UploadSession): Promise<ReceiveTarget | null> {
    if (session.file_id) return this.targets.share(session);
    if (session.mount_id) return this.targets.mount(session);
    return Promise.resolve(null);
  }
}
