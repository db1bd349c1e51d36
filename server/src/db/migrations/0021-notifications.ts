import type { Kysely } from "kysely";

/**
 * Notifications (docs/notifications.md): e-mails and webhooks when a file
 * request receives a file and when a share is first opened, reaches its last
 * view or expires.
 * - `notification_settings`: one row, the SMTP server (password encrypted),
 *   the default recipients and events, and the webhooks' signing secret
 *   (encrypted).
 * - `notification_rules`: a share's or request's own recipients, in place of
 *   the defaults.
 * - `notification_events`: every event once (its id is its key), so an event
 *   seen twice (two instances, a sweep run again) notifies once.
 * - `notification_deliveries`: one row per event and target (unique), the
 *   delivery log: attempts, the last answer, when it is due again.
 * - `tasks.run_after`: a pending task is not claimed before then (the retries' backoff).
 * - An index on `collections.expires_at` for the expiry scan.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("notification_settings")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("smtp_host", "text")
    .addColumn("smtp_port", "integer")
    .addColumn("smtp_security", "text", (c) => c.notNull().defaultTo("starttls"))
    .addColumn("smtp_user", "text")
    .addColumn("smtp_password_enc", "text")
    .addColumn("smtp_from", "text")
    .addColumn("default_email", "text")
    .addColumn("default_webhook_url", "text")
    .addColumn("default_events", "text", (c) => c.notNull())
    .addColumn("webhook_secret_enc", "text")
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("notification_rules")
    .addColumn("subject_kind", "text", (c) => c.notNull())
    .addColumn("subject_id", "text", (c) => c.notNull())
    .addColumn("email", "text")
    .addColumn("webhook_url", "text")
    .addColumn("events", "text", (c) => c.notNull())
    .addColumn("created_by", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("notification_rules_pk", ["subject_kind", "subject_id"])
    .execute();
  await db.schema
    .createTable("notification_events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("event", "text", (c) => c.notNull())
    .addColumn("subject_kind", "text", (c) => c.notNull())
    .addColumn("subject_id", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("notification_events_created")
    .on("notification_events")
    .column("created_at")
    .execute();
  await db.schema
    .createTable("notification_deliveries")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("event_id", "text", (c) => c.notNull())
    .addColumn("event", "text", (c) => c.notNull())
    .addColumn("subject_kind", "text", (c) => c.notNull())
    .addColumn("subject_id", "text", (c) => c.notNull())
    .addColumn("channel", "text", (c) => c.notNull())
    .addColumn("target", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "text")
    .addColumn("last_status", "integer")
    .addColumn("last_error", "text")
    .addColumn("created_by", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("delivered_at", "text")
    .execute();
  // At most one delivery per event and target, whoever emits the event how often.
  await db.schema
    .createIndex("notification_deliveries_once")
    .on("notification_deliveries")
    .columns(["event_id", "channel", "target"])
    .unique()
    .execute();
  await db.schema
    .createIndex("notification_deliveries_created")
    .on("notification_deliveries")
    .column("created_at")
    .execute();
  await db.schema
    .createIndex("notification_deliveries_status")
    .on("notification_deliveries")
    .columns(["status", "updated_at"])
    .execute();
  await db.schema.alterTable("tasks").addColumn("run_after", "text").execute();
  await db.schema.createIndex("collections_expires").on("collections").column("expires_at").execute();
}
