/**
 * A file request's uploads in flight in storage, on the creator's behalf:
 * started for a visitor (a pending file share, or a folder upload under a
 * free name), and stopped from either side: the creator closing or deleting
 * the request, the visitor aborting, a refused completion, or the housekeeping
 * sweep of those nobody finished. Stopping one aborts its storage upload, then
 * gives its slot back.
 */

import type { RequestUploadInitBody } from "@clipshare/shared";
import type { Principal } from "../../auth/principal";
import type { Db } from "../../db/database";
import { nowIso } from "../../db/database";
import type { FileRequestRow, FileRequestUploadRow } from "../../db/schema";
import { isUniqueViolation } from "../../db/sql-helpers";
import { conflict, isAppError } from "../../errors";
import type { Logger } from "../../logger";
import type { ShareMultipartService } from "../files/share-multipart";
import { apiActor } from "../fs/access";
import type { FsMultipartUploads } from "../fs/fs-multipart-uploads";
import type { VirtualFileSystem } from "../fs/vfs";
import { vjoin } from "../fs/vpath";
import { resolveCreator } from "../tasks/creator";
import { releaseSlot } from "./request-slots";

/** "report.pdf" → "report (2).pdf": the n-th free variant of a name. */
export function numberedName(name: string, n: number): string {
  if (n === 0) return name;
  const dot = name.lastIndexOf(".");
  return dot > 0 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`;
}

export interface RequestUploadsDeps {
  db: Db;
  log: Logger;
  shareMultipart: ShareMultipartService;
  fsMultipart: FsMultipartUploads;
  vfs: VirtualFileSystem;
}

export class RequestUploads {
  constructor(private readonly deps: RequestUploadsDeps) {}

  /** Stops an upload in flight: its storage upload and any pending share go, then its slot. */
  async discard(row: FileRequestRow, upload: FileRequestUploadRow): Promise<void> {
    if (upload.status !== "pending") return;
    const creator = await resolveCreator(this.deps.db, row.created_by);
    // A pending share the share sweep already removed (file_id is null then) took its storage upload along.
    const live = row.target_kind === "folder" ? upload.path : upload.file_id;
    if (creator && upload.upload_id && live) {
      const stop =
        row.target_kind === "folder"
          ? this.deps.fsMultipart.abortMultipart(apiActor(creator), {
              path: live,
              uploadId: upload.upload_id,
            })
          : this.deps.shareMultipart.abort(creator, { file_id: live, upload_id: upload.upload_id });
      await stop.catch((err: unknown) => {
        // Gone already (completed and cleaned up, or swept): nothing left to stop.
        if (!(isAppError(err) && err.status === 404))
          this.deps.log.warn({ err, uploadId: upload.id }, "Could not abort a file-request upload");
      });
    }
    await releaseSlot(this.deps.db, upload);
  }

  /** Stops every upload in flight into the request. */
  async discardPending(row: FileRequestRow): Promise<void> {
    const pending = await this.deps.db
      .selectFrom("file_request_uploads")
      .selectAll()
      .where("request_id", "=", row.id)
      .where("status", "=", "pending")
      .execute();
    for (const upload of pending) await this.discard(row, upload);
  }

  /** Uploads nobody finished within the multipart lifetime: their storage uploads go, their slots come back. */
  async sweep(now = new Date()): Promise<number> {
    const lapsed = await this.deps.db
      .selectFrom("file_request_uploads")
      .selectAll()
      .where("status", "=", "pending")
      .where("expires_at", "<=", nowIso(now))
      .limit(500)
      .execute();
    for (const upload of lapsed) {
      const row = await this.deps.db
        .selectFrom("file_requests")
        .selectAll()
        .where("id", "=", upload.request_id)
        .executeTakeFirst();
      if (row) await this.discard(row, upload);
    }
    return lapsed.length;
  }

  async startShareUpload(
    creator: Principal,
    row: FileRequestRow,
    body: RequestUploadInitBody,
    origin: string,
  ) {
    const started = await this.deps.shareMultipart.init(
      creator,
      {
        filename: body.filename,
        total_size: body.size,
        part_size: body.part_size,
        part_count: body.part_count,
        ...(row.storage_config_id ? { s3_config_id: row.storage_config_id } : {}),
        ...(body.mimetype ? { mimetype: body.mimetype } : {}),
        remark: requestRemark(row),
      },
      origin,
    );
    return {
      link: { file_id: started.file_id, upload_id: started.upload_id },
      urls: started.presigned_urls,
    };
  }

  /** Into the folder under a name no file there (nor another upload in flight) has: nothing is overwritten. */
  async startFolderUpload(
    creator: Principal,
    row: FileRequestRow,
    upload: FileRequestUploadRow,
    body: RequestUploadInitBody,
    origin: string,
  ) {
    const actor = apiActor(creator);
    const folder = row.folder_path!;
    for (let n = 0; n < 100; n++) {
      const name = numberedName(body.filename, n);
      const path = vjoin(folder, name);
      const target = await this.deps.vfs.requireMount(path, actor);
      if (await this.deps.vfs.statIn(target)) continue;
      try {
        // The unique index on pending paths: another upload in flight has this name.
        await this.deps.db
          .updateTable("file_request_uploads")
          .set({ path })
          .where("id", "=", upload.id)
          .execute();
      } catch (e) {
        if (isUniqueViolation(e)) continue;
        throw e;
      }
      const started = await this.deps.fsMultipart.initMultipart(
        actor,
        {
          path: folder,
          fileName: name,
          fileSize: body.size,
          partSize: body.part_size,
          partCount: body.part_count,
          ...(body.mimetype ? { contentType: body.mimetype } : {}),
        },
        origin,
      );
      return { link: { path: started.path, upload_id: started.uploadId }, urls: started.presignedUrls };
    }
    throw conflict("Too many files of this name in the folder", "target_exists");
  }
}

/**
 * The remark of a file share a request received: the request it came from. The uploader's name
 * and note stay in the request's list, since anyone given the share's link would read its remark.
 */
function requestRemark(row: FileRequestRow): string {
  return `File request: ${row.title}`;
}
