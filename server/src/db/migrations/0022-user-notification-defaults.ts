import type { Kysely } from "kysely";

/**
 * A user's own notification defaults (docs/notifications.md#recipients): the recipients and
 * events of their shares and requests that have no rule of their own, in place of the
 * administrator's defaults. One row per user, gone with the user.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("user_notification_defaults")
    .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("email", "text")
    .addColumn("webhook_url", "text")
    .addColumn("events", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
}
