/**
 * The share access log: one entry per delivery of a paste or file share to a
 * visitor (time, kind, bytes sent, a coarse client description, the IP only
 * while IP logging is on).
 *
 * Rules:
 * - recording never touches the database on the request's path: entries go
 *   to an in-process buffer that is written in one batch about every second,
 *   when it fills, and at shutdown; the buffer is bounded, and when the
 *   database cannot keep up the oldest unwritten entries are dropped (and
 *   counted in the log), never the visit itself;
 * - the settings (privacy mode, IP logging) are read again before every
 *   batch and at least once a second, so a change holds within a second on
 *   every instance; the IP is kept only when logging was on both at the visit
 *   and at the write, and turning privacy mode on drops what still waits; a
 *   share's own "no log" switch is read from the row the visit was granted on;
 * - entries belong to their share by a cascading foreign key: whatever removes
 *   a share removes its log, and an entry whose share went before its batch
 *   was written is skipped;
 * - housekeeping deletes entries older than the retention period.
 */

import {
  ACCESS_KINDS,
  ACCESS_SUMMARY_DAYS,
  ACCESS_SUMMARY_TOP,
  type AccessKind,
  type AccessLogEntry,
  type AccessLoggingState,
  type AccessLogPage,
  type AccessSummary,
} from "@clipshare/shared";
import type { Db } from "../../db/database";
import { isoAt, nowIso } from "../../db/database";
import { preparedQuery } from "../../db/prepared-query";
import type { ShareAccessLogTable } from "../../db/schema";
import { countMatching } from "../../db/sql-helpers";
import { timeOrderedId } from "../../lib/time-ordered-id";
import type { Logger } from "../../logger";
import type { SettingsService } from "../settings/settings-service";
import { describeClient } from "./access-log-client";
import type { ShareKind } from "./access-tokens";

/** The share an entry belongs to, as the visit's grant saw it. */
export interface LoggedShare {
  type: ShareKind;
  id: string;
  no_log: number;
}

/** Whose log is read: a share, or a mount (its visitors' downloads). */
export type LogOwner = LoggedShare | { type: "mount"; id: string; no_log: 0 };

/** A file of a mount a visitor downloaded (public browsing): the mount, and the file's virtual path. */
export interface LoggedMountFile {
  type: "mount";
  id: string;
  path: string;
}

export interface AccessClient {
  userAgent: string | undefined;
  ip: string;
}

export interface AccessLogOptions {
  flushMs?: number;
  /** A batch is written at once when this many entries wait. */
  batchSize?: number;
  /** Entries held at most while the database is slow or down. */
  maxBuffered?: number;
}

type Pending = ShareAccessLogTable;

const DAY_MS = 86_400_000;
/** Rows per query of a CSV export. */
const EXPORT_PAGE = 500;

export class ShareAccessLog {
  private buffer: Pending[] = [];
  private flushing: Promise<void> | null = null;
  private readonly timer: NodeJS.Timeout;
  private dropped = 0;
  /** The settings as last read (IP logging starts off until they are). */
  private policy = { privacy: false, ip: false };
  private readonly batchSize: number;
  private readonly maxBuffered: number;
  /** Built on the first write: a process that serves no shares never compiles them. */
  private inserts: ReturnType<typeof entryInserts> | undefined;

  constructor(
    private readonly db: Db,
    private readonly settings: SettingsService,
    private readonly log: Logger,
    options: AccessLogOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 500;
    this.maxBuffered = options.maxBuffered ?? 20_000;
    this.timer = setInterval(() => void this.flush(), options.flushMs ?? 1000);
    this.timer.unref();
  }

  // ---- recording ------------------------------------------------------------

  /** Notes one access; cheap and synchronous (see the rules above). */
  record(
    share: LoggedShare | LoggedMountFile,
    kind: AccessKind,
    client: AccessClient,
    bytes: number | null,
  ): void {
    if (share.type !== "mount" && share.no_log) return;
    const { browser, os } = describeClient(client.userAgent);
    if (this.buffer.length >= this.maxBuffered) {
      // Room for a tenth more at once, so a long outage does not shift the whole buffer per visit.
      const drop = Math.max(1, Math.floor(this.maxBuffered / 10));
      this.buffer.splice(0, drop);
      this.dropped += drop;
    }
    const now = Date.now();
    this.buffer.push({
      id: timeOrderedId(now),
      paste_id: share.type === "paste" ? share.id : null,
      file_id: share.type === "file" ? share.id : null,
      mount_id: share.type === "mount" ? share.id : null,
      path: share.type === "mount" ? share.path : null,
      at: isoAt(now),
      kind,
      bytes,
      browser,
      os,
      ip: this.policy.ip ? client.ip || null : null,
    });
    // A full batch is written at once, unless a write is under way (the timer takes what follows),
    // in whole insert statements: the few entries over a multiple of them wait for the next write.
    if (this.buffer.length >= this.batchSize && !this.flushing) void this.flush(ROWS_PER_INSERT);
  }

  /**
   * Reads the settings again and writes what waits; resolves when everything
   * recorded before the call is written (or dropped). With `multipleOf`, only
   * the largest multiple of that many entries that waits is written.
   */
  async flush(multipleOf = 1): Promise<void> {
    while (this.flushing) await this.flushing;
    const count = this.buffer.length - (this.buffer.length % multipleOf);
    if (count === 0) {
      await this.readPolicy().catch(() => undefined);
      return;
    }
    const batch = this.buffer;
    this.buffer = batch.splice(count);
    this.flushing = this.write(batch).finally(() => {
      this.flushing = null;
    });
    await this.flushing;
  }

  /** Stops the timer and writes what waits (shutdown). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  private async write(batch: Pending[]): Promise<void> {
    if (this.dropped > 0) {
      this.log.warn({ dropped: this.dropped }, "Access log buffer was full; oldest entries dropped");
      this.dropped = 0;
    }
    let policy: ShareAccessLog["policy"];
    try {
      policy = await this.readPolicy();
    } catch (err) {
      this.requeue(batch, err);
      return;
    }
    if (policy.privacy) return;
    const rows = policy.ip ? batch : batch.map((row) => (row.ip === null ? row : { ...row, ip: null }));
    const { chunk, one } = this.statements();
    const whole = rows.length - (rows.length % ROWS_PER_INSERT);
    try {
      // One commit for the batch: a commit per statement wrote the same last pages of the
      // table and its indexes to the WAL again each time.
      await this.db.transaction().execute(async (trx) => {
        for (let i = 0; i < whole; i += ROWS_PER_INSERT) await chunk(rows.slice(i, i + ROWS_PER_INSERT), trx);
        for (let i = whole; i < rows.length; i++) await one([rows[i]!], trx);
      });
    } catch {
      // Most likely a share deleted since its visit (foreign key): write them one by one.
      await this.writeEach(rows);
    }
  }

  private statements(): ReturnType<typeof entryInserts> {
    this.inserts ??= entryInserts(this.db);
    return this.inserts;
  }

  private async readPolicy(): Promise<ShareAccessLog["policy"]> {
    const settings = await this.settings.getAll();
    this.policy = { privacy: settings.access_log_privacy_mode, ip: settings.access_log_ip };
    return this.policy;
  }

  /** Writes rows one by one: those whose share is gone are skipped; other failures are logged once. */
  private async writeEach(rows: Pending[]): Promise<void> {
    const { one } = this.statements();
    let failed = 0;
    let lastError: unknown;
    for (const row of rows) {
      try {
        await one([row]);
      } catch (err) {
        if (await this.shareGone(row).catch(() => false)) continue;
        failed++;
        lastError = err;
      }
    }
    if (failed > 0) this.log.warn({ err: lastError, failed }, "Access log entries could not be written");
  }

  private async shareGone(row: Pending): Promise<boolean> {
    const found = row.paste_id
      ? await this.db.selectFrom("pastes").select("id").where("id", "=", row.paste_id).executeTakeFirst()
      : row.mount_id
        ? await this.db.selectFrom("mounts").select("id").where("id", "=", row.mount_id).executeTakeFirst()
        : await this.db.selectFrom("files").select("id").where("id", "=", row.file_id!).executeTakeFirst();
    return !found;
  }

  private requeue(batch: Pending[], err: unknown): void {
    this.log.warn({ err }, "Access log batch postponed");
    this.buffer = batch.concat(this.buffer).slice(-this.maxBuffered);
  }

  // ---- reading --------------------------------------------------------------

  /** Why a share's log is (or is not) filling. */
  async loggingState(share: LogOwner): Promise<{ logging: AccessLoggingState; ip_logging: boolean }> {
    const settings = await this.settings.getAll();
    const logging = settings.access_log_privacy_mode ? "privacy_mode" : share.no_log ? "share_off" : "on";
    return { logging, ip_logging: settings.access_log_ip };
  }

  /** One page of a share's log, newest first. */
  async list(share: LogOwner, page: { limit: number; offset: number }): Promise<AccessLogPage> {
    await this.flush();
    const base = this.db.selectFrom("share_access_log").where(shareColumn(share), "=", share.id);
    const total = await countMatching(base);
    const rows = await base
      .selectAll()
      .orderBy("at", "desc")
      .orderBy("id", "desc")
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    const entries = rows.map(presentEntry);
    return {
      ...(await this.loggingState(share)),
      entries,
      pagination: {
        total: total,
        limit: page.limit,
        offset: page.offset,
        hasMore: page.offset + entries.length < total,
      },
    };
  }

  /** Every entry of a share, newest first, read page by page (for the CSV export). */
  async *entries(share: LogOwner): AsyncGenerator<AccessLogEntry> {
    await this.flush();
    let after: { at: string; id: string } | null = null;
    for (;;) {
      let query = this.db.selectFrom("share_access_log").selectAll().where(shareColumn(share), "=", share.id);
      if (after) {
        const { at, id } = after;
        query = query.where((eb) =>
          eb.or([eb("at", "<", at), eb.and([eb("at", "=", at), eb("id", "<", id)])]),
        );
      }
      const rows = await query.orderBy("at", "desc").orderBy("id", "desc").limit(EXPORT_PAGE).execute();
      for (const row of rows) yield presentEntry(row);
      if (rows.length < EXPORT_PAGE) return;
      const last = rows[rows.length - 1]!;
      after = { at: last.at, id: last.id };
    }
  }

  /** Deletes a share's log; the number of entries removed. */
  async clear(share: LogOwner): Promise<number> {
    await this.flush();
    const result = await this.db
      .deleteFrom("share_access_log")
      .where(shareColumn(share), "=", share.id)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  // ---- dashboard and housekeeping ---------------------------------------------

  /** Accesses of the last days by kind, and the most visited shares. */
  async summary(now = new Date()): Promise<AccessSummary> {
    await this.flush();
    const since = nowIso(new Date(now.getTime() - ACCESS_SUMMARY_DAYS * DAY_MS));
    // Shares only: visitors' downloads from mounts have their own log per mount.
    const recent = this.db
      .selectFrom("share_access_log")
      .where("at", ">=", since)
      .where("share_access_log.mount_id", "is", null);
    const kinds = await recent
      .select(["kind", (eb) => eb.fn.countAll<number>().as("n")])
      .groupBy("kind")
      .execute();
    const by_kind = Object.fromEntries(ACCESS_KINDS.map((k) => [k, 0])) as AccessSummary["by_kind"];
    for (const { kind, n } of kinds) if (kind in by_kind) by_kind[kind as AccessKind] = Number(n);
    const top = await recent
      .leftJoin("pastes", "pastes.id", "share_access_log.paste_id")
      .leftJoin("files", "files.id", "share_access_log.file_id")
      .select((eb) => [
        "share_access_log.paste_id",
        "share_access_log.file_id",
        eb.fn.max("pastes.slug").as("paste_slug"),
        eb.fn.max("files.slug").as("file_slug"),
        eb.fn.max("files.filename").as("filename"),
        eb.fn.countAll<number>().as("n"),
      ])
      .groupBy(["share_access_log.paste_id", "share_access_log.file_id"])
      .orderBy("n", "desc")
      .limit(ACCESS_SUMMARY_TOP)
      .execute();
    const settings = await this.settings.getAll();
    return {
      days: ACCESS_SUMMARY_DAYS,
      total: Object.values(by_kind).reduce((a, b) => a + b, 0),
      by_kind,
      top: top.map((row) => ({
        share_type: row.paste_id ? ("paste" as const) : ("file" as const),
        id: (row.paste_id ?? row.file_id)!,
        slug: (row.paste_slug ?? row.file_slug ?? "") as string,
        name: row.paste_id ? null : ((row.filename as string | null) ?? null),
        accesses: Number(row.n),
      })),
      privacy_mode: settings.access_log_privacy_mode,
    };
  }

  /** Deletes entries older than the retention period; the number removed. */
  async purge(now = new Date()): Promise<number> {
    const { access_log_retention_days: days } = await this.settings.getAll();
    if (days <= 0) return 0;
    const result = await this.db
      .deleteFrom("share_access_log")
      .where("at", "<", nowIso(new Date(now.getTime() - days * DAY_MS)))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

/**
 * Entries per insert statement. A statement of many rows costs less per row
 * than one per row (measured on SQLite: 50 rows as cheap per row as 500), and
 * 50 keeps the statement small.
 */
const ROWS_PER_INSERT = 50;

/**
 * The inserts of a batch, built once (prepared-query.ts): building a 500-row
 * insert through Kysely's expression builders cost about as much as SQLite
 * writing it. `chunk` takes exactly ROWS_PER_INSERT entries, `one` a single
 * entry.
 */
function entryInserts(db: Db) {
  const insert = (count: number) =>
    preparedQuery<Pending[], never>(db, (param) =>
      db.insertInto("share_access_log").values(
        Array.from({ length: count }, (_, i) => {
          const value = (column: keyof Pending) => param((rows) => rows[i]![column]);
          return {
            id: value("id"),
            paste_id: value("paste_id"),
            file_id: value("file_id"),
            mount_id: value("mount_id"),
            path: value("path"),
            at: value("at"),
            kind: value("kind"),
            bytes: value("bytes"),
            browser: value("browser"),
            os: value("os"),
            ip: value("ip"),
          };
        }),
      ),
    );
  return { chunk: insert(ROWS_PER_INSERT), one: insert(1) };
}

const shareColumn = (share: LogOwner) =>
  share.type === "paste" ? "paste_id" : share.type === "mount" ? "mount_id" : "file_id";

function presentEntry(row: ShareAccessLogTable): AccessLogEntry {
  return {
    id: row.id,
    at: row.at,
    kind: row.kind as AccessLogEntry["kind"],
    bytes: row.bytes === null ? null : Number(row.bytes),
    browser: row.browser as AccessLogEntry["browser"],
    os: row.os as AccessLogEntry["os"],
    ip: row.ip,
    path: row.path,
  };
}
