import type { Kysely } from "kysely";

/**
 * Single sign-on with OpenID Connect (docs/accounts.md#single-sign-on, decision 0068):
 * - `users.email`: the address an administrator gives a user, which a first sign-in matches;
 * - `user_identities`: who a user is at a provider (issuer + subject), stored at first sign-in;
 * - `sso_settings`: the one provider (its client secret sealed with the server's SecretBox);
 * - `sso_flows`: sign-ins under way (state, nonce, PKCE verifier; then the one-time code that
 *   hands the session to the web app), so a callback may reach any instance.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").addColumn("email", "text").execute();
  await db.schema.createIndex("users_email").on("users").column("email").unique().execute();
  await db.schema
    .createTable("user_identities")
    .addColumn("issuer", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("user_identities_pk", ["issuer", "subject"])
    .execute();
  await db.schema.createIndex("user_identities_user").on("user_identities").column("user_id").execute();
  await db.schema
    .createTable("sso_settings")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("enabled", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("provider_name", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("issuer_url", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("client_id", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("client_secret_enc", "text")
    .addColumn("scopes", "text", (c) => c.notNull())
    .addColumn("role_claim", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("role_values", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("default_role", "text", (c) => c.notNull().defaultTo("user"))
    .addColumn("allowed_domains", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("auto_create", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("sso_flows")
    .addColumn("state_hash", "text", (c) => c.primaryKey())
    .addColumn("nonce", "text", (c) => c.notNull())
    .addColumn("code_verifier", "text", (c) => c.notNull())
    .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("handoff_hash", "text", (c) => c.unique())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("sso_flows_expires").on("sso_flows").column("expires_at").execute();
}
