import type { Kysely } from "kysely";

/**
 * Passkeys (docs/accounts.md#passkeys, decision 0087): a user's WebAuthn credentials (the
 * public key and the signature counter the authenticator last reported), and the one-time
 * challenges a registration or a sign-in is asked to sign. Challenges live in the database so
 * any instance can finish what another began.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("user_passkeys")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    // base64url, as the browser sends it: one credential belongs to one account.
    .addColumn("credential_id", "text", (c) => c.notNull().unique())
    .addColumn("public_key", "text", (c) => c.notNull())
    .addColumn("counter", "bigint", (c) => c.notNull().defaultTo(0))
    // JSON array of the transports the authenticator named (usb, internal, hybrid, …).
    .addColumn("transports", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("last_used_at", "text")
    .execute();
  await db.schema.createIndex("user_passkeys_user").on("user_passkeys").column("user_id").execute();
  await db.schema
    .createTable("webauthn_challenges")
    .addColumn("challenge_hash", "text", (c) => c.primaryKey())
    // register | second_factor | sign_in
    .addColumn("purpose", "text", (c) => c.notNull())
    // Null for a passwordless sign-in: the passkey names its account.
    .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("webauthn_challenges_expiry")
    .on("webauthn_challenges")
    .column("expires_at")
    .execute();
}
