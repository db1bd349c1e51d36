import type { Kysely } from "kysely";

/**
 * App passwords (docs/accounts.md#app-passwords): named passwords a user makes for WebDAV
 * clients, which cannot ask for a second factor. Only a keyed hash is stored (as for API keys),
 * unique, so a presented password is found by one indexed read.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("app_passwords")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("password_hash", "text", (c) => c.notNull().unique())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("last_used_at", "text")
    .execute();
  await db.schema.createIndex("app_passwords_user").on("app_passwords").column("user_id").execute();
}
