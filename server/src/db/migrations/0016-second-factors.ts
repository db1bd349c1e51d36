import type { Kysely } from "kysely";

/**
 * Second factors (docs/accounts.md#second-factors, decision 0066): a user's TOTP secret
 * (sealed with the server's secret box; `confirmed_at` null until a first code proved it),
 * their one-time recovery codes (only a hash is kept), and the short-lived sign-in challenges
 * a correct password hands out when a second factor is due. Challenges live in the database
 * so a code can be checked by another instance than the one that took the password.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("user_totp")
    .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("secret_sealed", "text", (c) => c.notNull())
    .addColumn("confirmed_at", "text")
    // The last 30-second step a code was accepted for: a code is good once (RFC 6238 §5.2).
    .addColumn("last_step", "bigint")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("user_recovery_codes")
    .addColumn("code_hash", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("used_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("user_recovery_codes_user")
    .on("user_recovery_codes")
    .column("user_id")
    .execute();
  await db.schema
    .createTable("sign_in_challenges")
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("sign_in_challenges_expiry")
    .on("sign_in_challenges")
    .column("expires_at")
    .execute();
}
