/**
 * Notifications (docs/notifications.md): when a file request receives a file,
 * and when a share (paste, file share, collection) is first opened, uses its
 * last view or expires, its creator's recipients are told: by e-mail and/or
 * by a signed webhook.
 *
 * An event is recorded once (`notification_events`, keyed by what happened to
 * what), then one delivery per target (unique per event and target) and one
 * "notify" task per delivery: sending happens in the task runner, off the
 * request path, and a queued delivery survives a restart (delivery.ts). The
 * recipients are the share's or request's own rule, else its owner's own
 * defaults, else the administrator's.
 */
import { randomUUID } from "node:crypto";
import {
  type AccountNotificationDefaults,
  type NotificationDelivery,
  type NotificationEvent,
  type NotificationRule,
  type NotificationRuleBody,
  type NotificationSubject,
  Permission,
} from "@clipshare/shared";
import { sql } from "kysely";
import { isCreator } from "../../auth/creator";
import { requirePermission } from "../../auth/policy";
import type { Principal } from "../../auth/principal";
import type { Db } from "../../db/database";
import { nowIso } from "../../db/database";
import type { NotificationDeliveryRow } from "../../db/schema";
import { newestFirstPage } from "../../db/sql-helpers";
import { conflict, notFound } from "../../errors";
import type { SafeFetcher } from "../../lib/net/safe-fetch";
import { resolveCreator } from "../tasks/creator";
import type { TaskService } from "../tasks/task-service";
import { type NotificationSettingsService, parseEvents } from "./notification-settings";

/** What a notification is about, as its payload names it. */
export interface Subject {
  kind: NotificationSubject;
  id: string;
  slug: string;
  /** A file's name, a collection's or request's title, a paste's remark. */
  name: string | null;
  created_by: string;
  /** The account that owns the share or request (null: made before accounts, or by a key alone). */
  owner_id: string | null;
  /** The page visitors open: /paste/…, /file/…, /c/…, /r/…. */
  path: string;
}

interface Target {
  channel: "webhook" | "email";
  target: string;
}

const SUBJECT_TABLES = {
  paste: { table: "pastes", name: "remark", page: "/paste/" },
  file: { table: "files", name: "filename", page: "/file/" },
  collection: { table: "collections", name: "title", page: "/c/" },
  request: { table: "file_requests", name: "title", page: "/r/" },
} as const;

/** Shares whose expiry is looked at: those that expired within this long before a sweep. */
const EXPIRY_LOOKBACK_MS = 24 * 3600_000;
/** A delivery still "sending" after this long was cut off by a dead process: it is not sent again. */
const INTERRUPTED_AFTER_MS = 10 * 60_000;
/** How long the delivery log keeps entries. */
const LOG_RETENTION_MS = 30 * 24 * 3600_000;

const subjectGone = () =>
  notFound("No share or file request of yours has this id", "notification_subject_not_found");

export class NotificationService {
  constructor(
    private readonly db: Db,
    readonly settings: NotificationSettingsService,
    private readonly tasks: TaskService,
    private readonly fetcher: SafeFetcher,
    /** Wakes the task runners (here and, through the bus, elsewhere). */
    private readonly tasksQueued: () => void,
  ) {}

  // ---- events ------------------------------------------------------------

  /**
   * Records `event` for `subject` once and queues a delivery to each of its recipients. `key`
   * tells events of one kind apart (each file a request receives); `always` records the event
   * even without recipients (the expiry sweep, which must not look at it again).
   */
  async emit(
    event: NotificationEvent,
    subject: Subject,
    data: Record<string, unknown> = {},
    options: { key?: string; always?: boolean } = {},
  ): Promise<number> {
    const targets = await this.targetsFor(subject, event);
    if (targets.length === 0 && !options.always) return 0;
    const eventId = [event, subject.kind, subject.id, ...(options.key ? [options.key] : [])].join(":");
    const now = nowIso();
    const recorded = await this.db
      .insertInto("notification_events")
      .values({ id: eventId, event, subject_kind: subject.kind, subject_id: subject.id, created_at: now })
      .onConflict((oc) => oc.column("id").doNothing())
      .executeTakeFirst();
    if (Number(recorded.numInsertedOrUpdatedRows ?? 0) === 0 || targets.length === 0) return 0;
    const creator = await resolveCreator(this.db, subject.created_by);
    if (!creator) return 0; // a deleted or expired key's shares notify no one
    return this.queue(creator, eventId, event, subject, data, targets, now);
  }

  /** A test notification to the default recipient of `channel` (admin). */
  async test(principal: Principal, channel: "email" | "webhook"): Promise<NotificationDelivery> {
    const row = await this.settings.row();
    const target = channel === "email" ? row.default_email : row.default_webhook_url;
    if (!target)
      throw conflict("There is no default recipient for this channel", "notification_target_missing");
    if (channel === "email" && !this.settings.smtp(row))
      throw conflict("E-mail is not set up: enter the SMTP server and sender", "smtp_not_configured");
    const subject: Subject = {
      kind: "paste",
      id: "test",
      slug: "test",
      name: "Test notification",
      created_by: "",
      owner_id: null,
      path: "/",
    };
    const eventId = `test:${randomUUID()}`;
    await this.queue(principal, eventId, "test", subject, {}, [{ channel, target }], nowIso());
    const delivery = await this.db
      .selectFrom("notification_deliveries")
      .selectAll()
      .where("event_id", "=", eventId)
      .executeTakeFirstOrThrow();
    return presentDelivery(delivery);
  }

  private async queue(
    creator: Principal,
    eventId: string,
    event: NotificationEvent | "test",
    subject: Subject,
    data: Record<string, unknown>,
    targets: Target[],
    now: string,
  ): Promise<number> {
    let queued = 0;
    for (const { channel, target } of targets) {
      const id = randomUUID();
      const payload = JSON.stringify({
        id,
        event,
        occurred_at: now,
        subject: {
          kind: subject.kind,
          id: subject.id,
          slug: subject.slug,
          name: subject.name,
          path: subject.path,
        },
        data,
      });
      const inserted = await this.db
        .insertInto("notification_deliveries")
        .values({
          id,
          event_id: eventId,
          event,
          subject_kind: subject.kind,
          subject_id: subject.id,
          channel,
          target,
          payload,
          status: "pending",
          attempts: 0,
          next_attempt_at: now,
          last_status: null,
          last_error: null,
          created_by: subject.created_by,
          created_at: now,
          updated_at: now,
          delivered_at: null,
        })
        .onConflict((oc) => oc.columns(["event_id", "channel", "target"]).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) continue;
      await this.tasks.create(creator, "notify", { delivery_id: id });
      queued++;
    }
    if (queued > 0) this.tasksQueued();
    return queued;
  }

  /** The share's or request's own rule, else the defaults; only where `event` is one they want. */
  private async targetsFor(subject: Subject, event: NotificationEvent): Promise<Target[]> {
    const rule = await this.db
      .selectFrom("notification_rules")
      .selectAll()
      .where("subject_kind", "=", subject.kind)
      .where("subject_id", "=", subject.id)
      .executeTakeFirst();
    const source = rule
      ? { events: parseEvents(rule.events), email: rule.email, webhook: rule.webhook_url }
      : await this.defaultsFor(subject.owner_id);
    if (!source.events.includes(event)) return [];
    const targets: Target[] = [];
    if (source.webhook) targets.push({ channel: "webhook", target: source.webhook });
    if (source.email) targets.push({ channel: "email", target: source.email });
    return targets;
  }

  /** The owner's own defaults when they set some, else the administrator's. */
  private async defaultsFor(ownerId: string | null) {
    const own = ownerId ? await this.ownDefaults(ownerId) : undefined;
    if (own)
      return { events: parseEvents(own.events), email: own.email, webhook: own.webhook_url, own: true };
    const row = await this.settings.row();
    return {
      events: parseEvents(row.default_events),
      email: row.default_email,
      webhook: row.default_webhook_url,
      own: false,
    };
  }

  private ownDefaults(userId: string) {
    return this.db
      .selectFrom("user_notification_defaults")
      .selectAll()
      .where("user_id", "=", userId)
      .executeTakeFirst();
  }

  // ---- a user's own defaults ---------------------------------------------------

  async accountDefaults(userId: string): Promise<AccountNotificationDefaults> {
    const source = await this.defaultsFor(userId);
    return {
      uses_admin_defaults: !source.own,
      email: source.email,
      webhook_url: source.webhook,
      events: source.events,
    };
  }

  /** A rule's or a user's defaults' columns (a webhook address must pass the URL-fetch rules). */
  private recipientColumns(body: NotificationRuleBody) {
    if (body.webhook_url) this.fetcher.check(body.webhook_url);
    return {
      email: body.email,
      webhook_url: body.webhook_url,
      events: JSON.stringify(body.events),
      updated_at: nowIso(),
    };
  }

  /** The user's own recipients and events for their shares and requests without a rule. */
  async setAccountDefaults(userId: string, body: NotificationRuleBody): Promise<AccountNotificationDefaults> {
    const values = this.recipientColumns(body);
    await this.db
      .insertInto("user_notification_defaults")
      .values({ user_id: userId, ...values })
      .onConflict((oc) => oc.column("user_id").doUpdateSet(values))
      .execute();
    return this.accountDefaults(userId);
  }

  /** Back to the administrator's defaults. */
  async clearAccountDefaults(userId: string): Promise<AccountNotificationDefaults> {
    await this.db.deleteFrom("user_notification_defaults").where("user_id", "=", userId).execute();
    return this.accountDefaults(userId);
  }

  /** What the payload names: looked up by kind and id; null when it is gone. */
  async subject(kind: NotificationSubject, id: string): Promise<Subject | null> {
    const spec = SUBJECT_TABLES[kind];
    const row = (await this.db
      .selectFrom(spec.table)
      .select(["id", "slug", "created_by", "owner_id", sql<string | null>`${sql.ref(spec.name)}`.as("name")])
      .where("id", "=", id)
      .executeTakeFirst()) as
      | { id: string; slug: string; created_by: string; owner_id: string | null; name: string | null }
      | undefined;
    if (!row) return null;
    return {
      kind,
      id: row.id,
      slug: row.slug,
      name: row.name,
      created_by: row.created_by,
      owner_id: row.owner_id,
      path: `${spec.page}${encodeURIComponent(row.slug)}`,
    };
  }

  // ---- the sweep -------------------------------------------------------------

  /**
   * Housekeeping: shares that expired since the last sweeps notify once; deliveries a dead
   * process left "sending" are marked failed (never sent twice); old log entries go.
   */
  async sweep(now = new Date()): Promise<{ expired: number; interrupted: number }> {
    let expired = 0;
    const since = nowIso(new Date(now.getTime() - EXPIRY_LOOKBACK_MS));
    const until = nowIso(now);
    for (const kind of ["paste", "file", "collection"] as const) {
      const spec = SUBJECT_TABLES[kind];
      const prefix = `share_expired:${kind}:`;
      const rows = await this.db
        .selectFrom(spec.table)
        .select("id")
        .where("expires_at", ">", since)
        .where("expires_at", "<=", until)
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom("notification_events as e")
                .select("e.id")
                .whereRef("e.id", "=", sql<string>`${prefix} || ${sql.ref(`${spec.table}.id`)}`),
            ),
          ),
        )
        .limit(500)
        .execute();
      for (const { id } of rows) {
        const subject = await this.subject(kind, id);
        if (subject) expired += await this.emit("share_expired", subject, {}, { always: true });
      }
    }
    const cutoff = nowIso(new Date(now.getTime() - INTERRUPTED_AFTER_MS));
    const interrupted = await this.db
      .updateTable("notification_deliveries")
      .set({
        status: "failed",
        updated_at: until,
        last_error:
          "Interrupted while sending (the server stopped); not sent again: one delivery per event and target",
      })
      .where("status", "=", "sending")
      .where("updated_at", "<", cutoff)
      .executeTakeFirst();
    const old = nowIso(new Date(now.getTime() - LOG_RETENTION_MS));
    await this.db.deleteFrom("notification_deliveries").where("created_at", "<", old).execute();
    await this.db.deleteFrom("notification_events").where("created_at", "<", old).execute();
    return { expired, interrupted: Number(interrupted.numUpdatedRows) };
  }

  // ---- rules -----------------------------------------------------------------

  private async owned(principal: Principal, kind: NotificationSubject, id: string): Promise<Subject> {
    requirePermission(principal, kind === "paste" ? Permission.TEXT : Permission.FILE_SHARE);
    const subject = await this.subject(kind, id);
    if (!subject || !isCreator(principal, subject)) throw subjectGone();
    return subject;
  }

  async rule(principal: Principal, kind: NotificationSubject, id: string): Promise<NotificationRule> {
    const subject = await this.owned(principal, kind, id);
    const row = await this.db
      .selectFrom("notification_rules")
      .selectAll()
      .where("subject_kind", "=", kind)
      .where("subject_id", "=", subject.id)
      .executeTakeFirst();
    const source = row
      ? { events: parseEvents(row.events), email: row.email, webhook: row.webhook_url }
      : await this.defaultsFor(subject.owner_id);
    return {
      subject_kind: kind,
      subject_id: subject.id,
      uses_defaults: !row,
      email: source.email,
      webhook_url: source.webhook,
      events: source.events,
    };
  }

  /** The share's own recipients. */
  async setRule(
    principal: Principal,
    kind: NotificationSubject,
    id: string,
    body: NotificationRuleBody,
  ): Promise<NotificationRule> {
    const subject = await this.owned(principal, kind, id);
    const values = this.recipientColumns(body);
    await this.db
      .insertInto("notification_rules")
      .values({ subject_kind: kind, subject_id: subject.id, created_by: subject.created_by, ...values })
      .onConflict((oc) => oc.columns(["subject_kind", "subject_id"]).doUpdateSet(values))
      .execute();
    return this.rule(principal, kind, id);
  }

  /** Back to the defaults. */
  async clearRule(principal: Principal, kind: NotificationSubject, id: string): Promise<NotificationRule> {
    const subject = await this.owned(principal, kind, id);
    await this.db
      .deleteFrom("notification_rules")
      .where("subject_kind", "=", kind)
      .where("subject_id", "=", subject.id)
      .execute();
    return this.rule(principal, kind, id);
  }

  // ---- the log -----------------------------------------------------------------

  async deliveries(query: { limit: number; offset: number; status?: string | undefined }) {
    const { rows, total } = await newestFirstPage(this.db.selectFrom("notification_deliveries"), query);
    return { items: rows.map(presentDelivery), total };
  }
}

export function presentDelivery(row: NotificationDeliveryRow): NotificationDelivery {
  return {
    id: row.id,
    event: row.event,
    subject_kind: row.subject_kind,
    subject_id: row.subject_id,
    channel: row.channel === "email" ? "email" : "webhook",
    target: row.target,
    status:
      (["pending", "sending", "delivered", "failed"] as const).find((s) => s === row.status) ?? "failed",
    attempts: row.attempts,
    next_attempt_at: row.status === "pending" ? row.next_attempt_at : null,
    last_status: row.last_status,
    last_error: row.last_error,
    created_at: row.created_at,
    updated_at: row.updated_at,
    delivered_at: row.delivered_at,
  };
}
