/**
 * The storage side of file shares that nobody can use any more: objects of
 * deleted shares, uploads never committed, and shares past their expiry or
 * used up (after the last visitor's download tokens lapse).
 */
import type { Db } from "../../db/database";
import { nowIso } from "../../db/database";
import type { FileRow } from "../../db/schema";
import type { Logger } from "../../logger";
import { SHARE_TOKEN_TTL_SECONDS } from "../shares/access-tokens";
import type { StorageConfigService } from "../storage-configs/storage-config-service";

export class ShareStorageSweep {
  constructor(
    private readonly db: Db,
    private readonly configs: StorageConfigService,
    private readonly log: Logger,
  ) {}

  /**
   * Removes what nobody can use any more: uploads never committed, shares past
   * their expiry, and used-up shares once the last visitor's download tokens
   * have lapsed. Objects go too when the share owns them (uploaded shares).
   * `reservations` counts uploads never committed (their slugs are free again).
   */
  async sweep(now = new Date()): Promise<{ reservations: number; shares: number }> {
    const nowText = nowIso(now);
    const staleUploads = await this.db
      .selectFrom("upload_sessions")
      .selectAll()
      .where("expires_at", "<=", nowText)
      .where("file_id", "is not", null)
      .limit(500)
      .execute();
    let removed = 0;
    for (const session of staleUploads) {
      const row = await this.db
        .selectFrom("files")
        .selectAll()
        .where("id", "=", session.file_id!)
        .where("status", "=", "pending")
        .executeTakeFirst();
      if (row && (await this.releaseReservation(row))) removed++;
      await this.db.deleteFrom("upload_sessions").where("id", "=", session.id).execute();
    }
    const graceCutoff = nowIso(new Date(now.getTime() - SHARE_TOKEN_TTL_SECONDS * 1000));
    const dead = await this.db
      .selectFrom("files")
      .selectAll()
      .where("status", "=", "active")
      .where("delete_object_with_share", "=", 1)
      .where((eb) =>
        eb.or([
          eb.and([eb("expires_at", "is not", null), eb("expires_at", "<=", nowText)]),
          eb.and([
            eb("max_views", "is not", null),
            eb("views", ">=", eb.ref("max_views")),
            eb("updated_at", "<=", graceCutoff),
          ]),
        ]),
      )
      .limit(500)
      .execute();
    for (const row of dead) {
      await this.remove(row);
      await this.db.deleteFrom("files").where("id", "=", row.id).execute();
    }
    return { reservations: removed, shares: dead.length };
  }

  /**
   * Frees the link suffix of an upload that never finished. The row goes
   * first, and only while still pending, so an upload that was published
   * meanwhile is left alone; then its multipart upload is aborted, whatever
   * bytes arrived are removed, and its sessions go. An upload still running
   * then fails at publishing (`UploadService.activate`) instead of publishing
   * a share nobody holds. False when the row was no longer pending.
   */
  async releaseReservation(row: FileRow): Promise<boolean> {
    const deleted = await this.db
      .deleteFrom("files")
      .where("id", "=", row.id)
      .where("status", "=", "pending")
      .executeTakeFirst();
    if (Number(deleted.numDeletedRows) !== 1) return false;
    const sessions = await this.db
      .selectFrom("upload_sessions")
      .select("upload_id")
      .where("file_id", "=", row.id)
      .execute();
    for (const s of sessions) if (s.upload_id) await this.abortUpload(row, s.upload_id);
    await this.remove(row);
    await this.db.deleteFrom("upload_sessions").where("file_id", "=", row.id).execute();
    return true;
  }

  /** Drops the parts of a share's unfinished multipart upload. */
  private async abortUpload(row: FileRow, uploadId: string): Promise<void> {
    if (!row.storage_config_id) return;
    try {
      const { driver } = await this.configs.driverById(row.storage_config_id);
      await driver.abortMultipart?.(row.storage_path, uploadId);
    } catch (e) {
      this.log.warn({ err: e, fileId: row.id }, "Could not abort an abandoned multipart upload");
    }
  }

  /** Removes a share's stored object (best effort: a failure is logged, the share goes anyway). */
  async remove(row: FileRow): Promise<void> {
    if (!row.storage_config_id) return;
    try {
      const { driver } = await this.configs.driverById(row.storage_config_id);
      if (await driver.exists(row.storage_path)) await driver.remove(row.storage_path);
    } catch (e) {
      this.log.warn({ err: e, fileId: row.id }, "Could not remove stored object of a file share");
    }
  }
}
