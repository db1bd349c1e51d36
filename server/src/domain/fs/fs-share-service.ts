/**
 * POST /fs/create-share: a file share (a `files` row) that points at an
 * existing explorer file instead of an uploaded copy, with the share options
 * uploads have (slug, password, expiry, view limit, remark). The share never
 * owns the object: deleting or expiring it leaves the file in place. It takes
 * the file-share permission as well as mount view: a key that may only browse
 * must not publish what it browses.
 */
import { randomUUID } from "node:crypto";
import type { CreatedFileShare, InlineStatusFree, UploadOptions } from "@clipshare/shared";
import { explorerShareRemark, Permission, uploadMimeType } from "@clipshare/shared";
import { requirePermission } from "../../auth/policy";
import type { Db } from "../../db/database";
import type { FileRow } from "../../db/schema";
import { newShareFields, presentFile } from "../files/file-share-fields";
import type { FileShareService } from "../files/file-share-service";
import type { FsActor } from "./access";
import type { VirtualFileSystem } from "./vfs";
import { vbasename } from "./vpath";

export type ShareOptions = Pick<
  UploadOptions,
  "slug" | "remark" | "password" | "expires_in" | "max_views" | "use_proxy" | "no_log"
>;

export class FsShareService {
  constructor(
    readonly _db: Db,
    private readonly vfs: VirtualFileSystem,
    private readonly shares: FileShareService,
  ) {}

  async createShare(
    actor: FsActor,
    input: string,
    options: ShareOptions,
  ): Promise<InlineStatusFree<CreatedFileShare>> {
    requirePermission(actor.principal, Permission.FILE_SHARE);
    const { target, entry } = await this.vfs.openFile(actor, input);
    const now = new Date();
    const filename = vbasename(target.path);
    const row: FileRow = {
      ...(await newShareFields(actor.principal, options, now)),
      id: randomUUID(),
      filename,
      storage_config_id: target.config.id,
      storage_type: target.config.storage_type,
      storage_path: target.storagePath,
      file_path: target.path,
      mount_id: target.row.id,
      mimetype: entry.contentType ?? uploadMimeType(filename),
      size: entry.size,
      etag: entry.etag,
      remark: options.remark ?? explorerShareRemark(target.path),
      status: "active",
      delete_object_with_share: 0,
    };
    await this.shares.insertRow(row, Boolean(options.slug));
    return {
      ...presentFile(row),
      ...this.shares.urlsFor(row),
      fileId: row.id,
    };
  }
}
