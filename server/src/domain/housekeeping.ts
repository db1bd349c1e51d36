/**
 * The periodic sweep (main.ts runs it every five minutes on every instance;
 * each step is safe to run concurrently): abandoned share reservations,
 * expired and used-up shares, expired explorer upload sessions, what
 * interrupted writes left in storage (LOCAL temp files and multipart parts, S3
 * incomplete multipart uploads), expired admin tokens, share access log
 * entries past their retention; it notifies shares that expired
 * (notifications/notification-service.ts); and it moves file shares stored before the
 * share area existed into it (files/share-area-move.ts). It logs and returns
 * what it removed and moved.
 */
import type { Db } from "../db/database";
import { sweepSpool } from "../lib/spool";
import type { Logger } from "../logger";
import type { AbandonedAges } from "../storage/types";
import type { FileShareService } from "./files/file-share-service";
import { moveSharesIntoArea } from "./files/share-area-move";
import type { DirectUploadService } from "./fs/fs-direct-uploads";
import type { ShareAccessLog } from "./shares/access-log";
import type { StorageConfigService } from "./storage-configs/storage-config-service";
import type { AccountService } from "./users/account-service";

/**
 * Default ages before leftovers count as abandoned. A streamed write touches
 * its temp file with every chunk, so an hour without one means its request is
 * gone; multipart uploads may pause between parts and their sessions live
 * 24 hours, so they get one more hour.
 */
export const DEFAULT_ABANDONED_AGES: AbandonedAges = {
  idleWriteMs: 3600_000,
  multipartMs: 25 * 3600_000,
};

export interface SweepReport {
  /** Share uploads never committed: rows and reserved slugs released. */
  reservations: number;
  /** Expired and used-up shares removed with their objects. */
  shares: number;
  /** Explorer upload sessions (presigned, multipart) past their lifetime. */
  uploadSessions: number;
  /** File-request uploads past their lifetime: storage uploads aborted, slots given back. */
  requestUploads: number;
  /** LOCAL temp files of interrupted single writes, and form uploads spooled by requests that died. */
  tempFiles: number;
  /** Incomplete multipart uploads (LOCAL part directories, S3 uploads). */
  multipartUploads: number;
  adminTokens: number;
  /** Share access log entries older than the retention period. */
  accessLogEntries: number;
  /** Shares that expired since the last sweeps and were notified. */
  expiryNotifications: number;
  /** File-share objects moved into their storage's share area (an upgrade's one-time work). */
  sharesMoved: number;
  /** Storages that could not be swept (unreachable, bad credentials); logged, retried next time. */
  storageErrors: number;
}

export interface HousekeepingDeps {
  db: Db;
  log: Logger;
  fileShares: FileShareService;
  accounts: AccountService;
  directUploads: DirectUploadService;
  storageConfigs: StorageConfigService;
  accessLog: ShareAccessLog;
  /** Where form uploads spool a file that came before its placing fields. */
  spoolDir: string;
  /** File-request uploads nobody finished (their slots come back). */
  fileRequests: { sweep(now: Date): Promise<number> };
  /** Expired shares to notify, deliveries a dead process left half sent, old log entries. */
  notifications: { sweep(now: Date): Promise<{ expired: number }> };
}

export class Housekeeping {
  constructor(private readonly deps: HousekeepingDeps) {}

  async run(options: { now?: Date; ages?: AbandonedAges } = {}): Promise<SweepReport> {
    const { db, log, fileShares, accounts, directUploads, storageConfigs } = this.deps;
    const now = options.now ?? new Date();
    const ages = options.ages ?? DEFAULT_ABANDONED_AGES;
    // Before the share sweep, which removes expired file shares: they are told of first.
    const notified = await this.deps.notifications.sweep(now);
    const shares = await fileShares.sweep(now);
    const report: SweepReport = {
      ...shares,
      uploadSessions: await directUploads.sweepSessions(now),
      requestUploads: await this.deps.fileRequests.sweep(now),
      tempFiles: await sweepSpool(this.deps.spoolDir, ages.idleWriteMs, now.getTime()),
      multipartUploads: 0,
      adminTokens: await accounts.deleteExpiredTokens(),
      accessLogEntries: await this.deps.accessLog.purge(now),
      sharesMoved: 0,
      storageErrors: 0,
      expiryNotifications: notified.expired,
    };
    const moves = await moveSharesIntoArea(db, storageConfigs, log);
    report.sharesMoved = moves.moved;
    report.storageErrors += moves.failed;
    const configs = await db.selectFrom("storage_configs").selectAll().execute();
    for (const config of configs) {
      try {
        const driver = storageConfigs.driverFor(config);
        const swept = await driver.sweepAbandoned?.(ages, now);
        report.tempFiles += swept?.tempFiles ?? 0;
        report.multipartUploads += swept?.multipartUploads ?? 0;
      } catch (err) {
        report.storageErrors++;
        log.warn({ err, storageConfigId: config.id }, "Could not sweep abandoned uploads of a storage");
      }
    }
    const removed =
      report.reservations +
      report.shares +
      report.uploadSessions +
      report.requestUploads +
      report.tempFiles +
      report.multipartUploads +
      report.adminTokens +
      report.accessLogEntries;
    if (report.sharesMoved > 0)
      log.info({ moved: report.sharesMoved }, "Moved file shares into the share area");
    if (removed > 0) log.info({ removed: report }, "Housekeeping removed leftovers");
    return report;
  }
}
