/**
 * A file request's visitor: anyone with the link (/r/<slug>), no account. A
 * visitor gets nothing beyond the one request: its title, message and limits,
 * its uploads in parts, and, if the creator allows, the names of the files
 * received.
 *
 * A visitor's upload is done on the creator's behalf with the creator's rights
 * (a deleted or expired key stops its requests): a file-share request reserves
 * a pending file share through the share multipart service, a folder request
 * starts an explorer multipart upload under a name no file in the folder has.
 * Before either, the upload takes a slot (request-slots.ts); a refused,
 * aborted or abandoned upload gives it back and leaves no bytes stored.
 */
import type {
  PublicFileRequest,
  RequestUploadInitBody,
  RequestUploadResume,
  RequestUploadStarted,
} from "@clipshare/shared";
import { checkSharePassword } from "../../auth/passwords";
import type { RateLimiter } from "../../auth/rate-limiter";
import type { Db } from "../../db/database";
import { nowIso } from "../../db/database";
import type { FileRequestRow, FileRequestUploadRow } from "../../db/schema";
import { AppError, badRequest, isAppError, unauthorized } from "../../errors";
import { randomBase62 } from "../../lib/crypto";
import type { MultipartPart } from "../../storage/types";
import type { ShareMultipartService } from "../files/share-multipart";
import { shareMimeType } from "../files/upload-service";
import { apiActor } from "../fs/access";
import type { FsMultipartUploads } from "../fs/fs-multipart-uploads";
import type { VirtualFileSystem } from "../fs/vfs";
import type { ShareAccessTokens } from "../shares/access-tokens";
import { MULTIPART_TTL_SECONDS } from "../uploads/upload-sessions";
import { allowedTypes, findUpload, refusal, requestCreator, requestGone, uploadGone } from "./request-rows";
import { releaseSlot, requestState, takeSlot } from "./request-slots";
import type { RequestUploads } from "./request-uploads";

/** Whether `filename` (with the client's type) is one of the request's allowed types. */
export function typeAllowed(allowed: string[] | null, filename: string, mimetype: string): boolean {
  if (!allowed || allowed.length === 0) return true;
  const name = filename.toLowerCase();
  const type = mimetype.split(";")[0]!.trim().toLowerCase();
  return allowed.some((entry) => {
    if (entry.startsWith(".")) return name.endsWith(entry);
    if (entry.endsWith("/*")) return type.startsWith(entry.slice(0, -1));
    return type === entry;
  });
}

/** Who a visitor is, as far as a request cares: the address (rate limits) and the unlock token. */
export interface Visitor {
  clientIp: string;
  token: string | null;
}

interface Deps {
  db: Db;
  limiter: RateLimiter;
  tokens: ShareAccessTokens;
  shareMultipart: ShareMultipartService;
  vfs: VirtualFileSystem;
  fsMultipart: FsMultipartUploads;
  uploads: RequestUploads;
  /** Told of every file received (notifications); not awaited by the visitor. */
  onReceived?: (request: FileRequestRow, upload: FileRequestUploadRow) => void;
}

export class FileRequestVisits {
  constructor(private readonly deps: Deps) {}

  async visit(slug: string, visitor: Visitor): Promise<PublicFileRequest> {
    const row = await this.bySlug(slug);
    const unlocked = this.unlocked(row, visitor.token);
    const received =
      unlocked && row.show_received === 1
        ? await this.deps.db
            .selectFrom("file_request_uploads")
            .select(["filename", "size", "created_at"])
            .where("request_id", "=", row.id)
            .where("status", "=", "received")
            .orderBy("created_at", "desc")
            .limit(500)
            .execute()
        : null;
    return {
      slug: row.slug,
      title: row.title,
      message: unlocked ? row.message : null,
      state: requestState(row),
      password_required: row.password_hash !== null,
      unlocked,
      max_files: row.max_files,
      max_file_bytes: row.max_file_bytes,
      max_total_bytes: row.max_total_bytes,
      allowed_types: allowedTypes(row),
      remaining_files: row.max_files === null ? null : Math.max(0, row.max_files - row.reserved_files),
      remaining_bytes:
        row.max_total_bytes === null ? null : Math.max(0, row.max_total_bytes - row.reserved_bytes),
      expires_at: row.expires_at,
      received:
        received?.map((r) => ({ filename: r.filename, size: r.size, received_at: r.created_at })) ?? null,
    };
  }

  /** The request's password, checked against the share-password rate limit; answers a token. */
  async unlock(slug: string, password: string, clientIp: string) {
    const row = await this.bySlug(slug);
    if (!row.password_hash) throw badRequest("This request has no password", "password_not_required");
    const right = await checkSharePassword(
      this.deps.limiter,
      { clientIp, target: `request:${row.id}` },
      password,
      row.password_hash,
    );
    if (!right) throw unauthorized("Incorrect password", "wrong_password");
    const token = this.deps.tokens.issue("request", row.id, row.password_hash);
    return { token, expires_in: this.deps.tokens.secondsLeft(token) };
  }

  /** Takes a slot, then starts the storage's multipart upload on the creator's behalf. */
  async startUpload(
    slug: string,
    visitor: Visitor,
    body: RequestUploadInitBody,
    origin: string,
  ): Promise<RequestUploadStarted> {
    const row = await this.openFor(slug, visitor);
    const mimetype = shareMimeType(body.filename, body.mimetype);
    if (!typeAllowed(allowedTypes(row), body.filename, mimetype))
      throw new AppError(
        415,
        "request_type_not_allowed",
        `${body.filename} is not a type this request accepts`,
      );
    if (row.max_file_bytes !== null && body.size > row.max_file_bytes)
      throw new AppError(
        413,
        "request_file_too_large",
        `The file is larger than this request allows (${row.max_file_bytes} bytes)`,
      );
    if (!(await takeSlot(this.deps.db, row.id, body.size))) throw refusal(await this.bySlug(slug), body.size);
    const now = new Date();
    const upload: FileRequestUploadRow = {
      id: randomBase62(32),
      request_id: row.id,
      status: "pending",
      filename: body.filename,
      size: body.size,
      file_id: null,
      path: null,
      upload_id: null,
      uploader_name: body.uploader_name || null,
      note: body.note || null,
      expires_at: new Date(now.getTime() + MULTIPART_TTL_SECONDS * 1000).toISOString(),
      created_at: nowIso(now),
    };
    try {
      await this.deps.db.insertInto("file_request_uploads").values(upload).execute();
    } catch (e) {
      await releaseSlot(this.deps.db, upload);
      throw e;
    }
    try {
      const creator = await requestCreator(this.deps.db, row);
      const started =
        row.target_kind === "folder"
          ? await this.deps.uploads.startFolderUpload(creator, row, upload, body, origin)
          : await this.deps.uploads.startShareUpload(creator, row, body, origin);
      await this.deps.db
        .updateTable("file_request_uploads")
        .set(started.link)
        .where("id", "=", upload.id)
        .execute();
      return {
        upload_id: upload.id,
        part_size: body.part_size,
        part_count: body.part_count,
        presigned_urls: started.urls,
        expires_at: upload.expires_at,
      };
    } catch (e) {
      await releaseSlot(this.deps.db, upload);
      throw e;
    }
  }

  async resumeUpload(
    slug: string,
    uploadId: string,
    visitor: Visitor,
    origin: string,
  ): Promise<RequestUploadResume> {
    const { row, upload } = await this.pendingUpload(slug, uploadId, visitor);
    const creator = await requestCreator(this.deps.db, row);
    if (row.target_kind === "folder") {
      const state = await this.deps.fsMultipart.resumeMultipart(
        apiActor(creator),
        { path: upload.path!, uploadId: upload.upload_id! },
        origin,
      );
      return { parts: state.parts, presigned_urls: state.presignedUrls };
    }
    return this.deps.shareMultipart.resume(creator, this.shareRef(upload), origin);
  }

  /** Assembles the parts; the file is received only when it is exactly the size announced. */
  async completeUpload(slug: string, uploadId: string, visitor: Visitor, parts: MultipartPart[]) {
    const { row, upload } = await this.pendingUpload(slug, uploadId, visitor);
    // Closed while the bytes were arriving: the upload ends here, its slot comes back.
    if (row.status === "closed") {
      await this.deps.uploads.discard(row, upload);
      throw refusal(row);
    }
    const creator = await requestCreator(this.deps.db, row);
    try {
      if (row.target_kind === "folder") {
        const actor = apiActor(creator);
        const done = await this.deps.fsMultipart.completeMultipart(actor, {
          path: upload.path!,
          uploadId: upload.upload_id!,
          parts,
        });
        if (done.size !== upload.size) {
          await this.deps.vfs.remove(actor, upload.path!).catch(() => undefined);
          throw sizeMismatch();
        }
      } else {
        await this.deps.shareMultipart.complete(creator, { ...this.shareRef(upload), parts }, upload.size);
      }
    } catch (e) {
      // Parts that are wrong or missing can be sent again; anything else ends the upload.
      if (!(isAppError(e) && (e.error === "invalid_part" || e.error === "upload_completing"))) {
        await this.deps.uploads.discard(row, upload);
      }
      throw e;
    }
    const marked = await this.deps.db
      .updateTable("file_request_uploads")
      .set({ status: "received", created_at: nowIso() })
      .where("id", "=", upload.id)
      .where("status", "=", "pending")
      .executeTakeFirst();
    if (Number(marked.numUpdatedRows) !== 1) throw uploadGone();
    this.deps.onReceived?.(row, upload);
    return { filename: upload.filename, size: upload.size, received_at: nowIso() };
  }

  async abortUpload(slug: string, uploadId: string, visitor: Visitor): Promise<void> {
    const { row, upload } = await this.pendingUpload(slug, uploadId, visitor);
    await this.deps.uploads.discard(row, upload);
  }

  private shareRef(upload: FileRequestUploadRow) {
    if (!upload.file_id || !upload.upload_id) throw uploadGone();
    return { file_id: upload.file_id, upload_id: upload.upload_id };
  }
  private async bySlug(slug: string): Promise<FileRequestRow> {
    const row = await this.deps.db
      .selectFrom("file_requests")
      .selectAll()
      .where("slug", "=", slug)
      .executeTakeFirst();
    if (!row) throw requestGone();
    return row;
  }

  private unlocked(row: FileRequestRow, token: string | null): boolean {
    return row.password_hash === null || this.deps.tokens.verify("request", row.id, row.password_hash, token);
  }

  private requireUnlocked(row: FileRequestRow, token: string | null): void {
    if (!this.unlocked(row, token)) throw unauthorized("A password is required", "password_required");
  }

  /** A request that takes uploads now, unlocked by this visitor. */
  private async openFor(slug: string, visitor: Visitor): Promise<FileRequestRow> {
    const row = await this.bySlug(slug);
    this.requireUnlocked(row, visitor.token);
    if (requestState(row) !== "open") throw refusal(row);
    return row;
  }

  /** A visitor's upload in flight: the random upload id is what lets its sender continue it. */
  private async pendingUpload(slug: string, uploadId: string, visitor: Visitor) {
    const row = await this.bySlug(slug);
    this.requireUnlocked(row, visitor.token);
    const upload = await findUpload(this.deps.db, row.id, uploadId, "pending");
    // Closing the request ended its uploads: say so, not merely "gone".
    if (!upload) throw row.status === "closed" ? refusal(row) : uploadGone();
    return { row, upload };
  }
}

const sizeMismatch = () =>
  badRequest("The stored file is not the size the upload announced", "request_size_mismatch");
