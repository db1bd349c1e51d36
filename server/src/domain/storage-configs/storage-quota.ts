/**
 * The storage quota of a config (`total_storage_bytes`): the bytes of the file
 * shares on it, active or pending (a pending share counts the size it
 * announced), plus what is being added must fit. Every path that adds bytes to
 * a config asks here: share uploads, explorer uploads (form, raw PUT,
 * presigned, multipart), WebDAV PUT and server fetches. Explorer files are not
 * recorded in the database, so they are held to the quota the shares leave
 * free but do not themselves count against it.
 */
import type { Db } from "../../db/database";
import type { StorageConfigRow } from "../../db/schema";
import { type AppError, insufficientStorage } from "../../errors";
import { formatBytes } from "../../lib/byte-limit";
import { uploadTooLarge } from "../../lib/ingest";

type QuotaConfig = Pick<StorageConfigRow, "id">;

interface QuotaState {
  total: number;
  remaining: number;
}

/** The 507 every path answers when a file does not fit; `size` null when the stream's end is not known yet. */
export function quotaExceeded(quota: QuotaState, size: number | null): AppError {
  const what = size === null ? "file size" : `file size (${formatBytes(size)})`;
  return insufficientStorage(
    `Insufficient storage space: ${what} exceeds remaining space (${formatBytes(Math.max(0, quota.remaining))}); total capacity is ${formatBytes(quota.total)}`,
  );
}

export class StorageQuota {
  constructor(private readonly db: Db) {}

  /**
   * The quota and what is left of it, or null when the config has none. Read
   * from the database each time, not from a cached config row, so a quota the
   * admin just changed applies at once. `excludeFileId` leaves one share out
   * (the one being checked).
   */
  async state(config: QuotaConfig, excludeFileId?: string): Promise<QuotaState | null> {
    const row = await this.db
      .selectFrom("storage_configs")
      .select("total_storage_bytes")
      .where("id", "=", config.id)
      .executeTakeFirst();
    const total = Number(row?.total_storage_bytes ?? 0);
    if (!total) return null;
    let query = this.db
      .selectFrom("files")
      .select((eb) => eb.fn.sum<number>("size").as("used"))
      .where("storage_config_id", "=", config.id)
      .where("file_path", "is", null);
    if (excludeFileId) query = query.where("id", "!=", excludeFileId);
    const used = Number((await query.executeTakeFirst())?.used ?? 0);
    return { total, remaining: total - used };
  }

  /** Throws the 507 unless `size` more bytes fit. */
  async assertFits(config: QuotaConfig, size: number, excludeFileId?: string): Promise<void> {
    const quota = await this.state(config, excludeFileId);
    if (quota && size > quota.remaining) throw quotaExceeded(quota, size);
  }

  /**
   * The byte limit of a stream into `config`: the max upload size, or the free
   * quota when that is smaller, so the stream stops with the 507 the moment it
   * no longer fits (before the write is placed) instead of the size 413.
   */
  async streamLimit(
    config: QuotaConfig,
    maxUploadBytes: number,
  ): Promise<{ maxBytes: number; tooLarge: (maxBytes: number, actual: number | null) => AppError }> {
    const quota = await this.state(config);
    if (!quota || quota.remaining >= maxUploadBytes)
      return { maxBytes: maxUploadBytes, tooLarge: uploadTooLarge };
    return {
      maxBytes: Math.max(0, quota.remaining),
      tooLarge: (_max, actual) => quotaExceeded(quota, actual),
    };
  }
}
