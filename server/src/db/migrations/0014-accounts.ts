import { type Kysely, sql } from "kysely";

/**
 * Accounts (docs/accounts.md, decision 0063): the administrators become users with a role.
 * - `admins` is renamed `users` and gains the role (`admin`, `user` or `guest`; the rows that
 *   exist are administrators), a display name, a disabled flag and the grant an administrator
 *   gives a user: permission bits and a base path, the same pair an API key carries.
 * - `admin_tokens` is renamed `sessions` (`admin_id` becomes `user_id`) and gains a public id,
 *   the browser and address that signed in, and when it was last used. Rows that exist get an id
 *   derived from their token's hash, so they stay listed and revocable.
 * - `api_keys.user_id`: the user a key belongs to; the keys that exist belong to the first
 *   administrator.
 * - `owner_id` on pastes, file shares, file requests, tasks and collections: the user a row
 *   belongs to, whoever made it (the user, or one of their keys). Existing rows belong to the
 *   administrator that made them, and rows made by keys to the first administrator (who owns
 *   every key). Collections are in this list only when their table exists already (a database
 *   that ran 0020 before this migration); a new database gets the column from 0020 itself.
 * - `user_invitations`: one-time links (only a hash is stored) through which a new user signs up
 *   with the role and grant the inviting administrator chose.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("admins").renameTo("users").execute();
  const userColumns: Array<[string, "text" | "integer" | "bigint", string | number | null]> = [
    ["role", "text", "admin"],
    ["display_name", "text", null],
    ["disabled", "integer", 0],
    ["permissions", "integer", 0],
    ["base_path", "text", "/"],
    ["last_login_at", "text", null],
  ];
  for (const [name, type, fallback] of userColumns) {
    await db.schema
      .alterTable("users")
      .addColumn(name, type, (c) => (fallback === null ? c : c.notNull().defaultTo(fallback)))
      .execute();
  }

  await db.schema.alterTable("admin_tokens").renameTo("sessions").execute();
  await db.schema.alterTable("sessions").renameColumn("admin_id", "user_id").execute();
  for (const name of ["id", "user_agent", "client_ip", "last_seen_at"]) {
    await db.schema.alterTable("sessions").addColumn(name, "text").execute();
  }
  // A digest of a hash of a 256-bit secret: naming the session reveals nothing about its token.
  await sql`update sessions set id = substr(token_hash, 1, 32), last_seen_at = created_at`.execute(db);
  await db.schema.createIndex("sessions_id").on("sessions").column("id").unique().execute();

  await db.schema
    .alterTable("api_keys")
    .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("cascade"))
    .execute();
  const firstAdmin = sql`(select id from users order by created_at, id limit 1)`;
  await sql`update api_keys set user_id = ${firstAdmin}`.execute(db);
  await db.schema.createIndex("api_keys_user").on("api_keys").column("user_id").execute();

  const existing = await db.introspection.getTables();
  const collections = existing.find((t) => t.name === "collections");
  const owned = ["pastes", "files", "file_requests", "tasks"];
  if (collections && !collections.columns.some((c) => c.name === "owner_id")) owned.push("collections");
  for (const table of owned) {
    await db.schema.alterTable(table).addColumn("owner_id", "text").execute();
    await sql`update ${sql.table(table)} set owner_id = coalesce(
      (select users.id from users where users.id = ${sql.ref(`${table}.created_by`)}), ${firstAdmin})`.execute(
      db,
    );
    await db.schema.createIndex(`${table}_owner`).on(table).columns(["owner_id", "created_at"]).execute();
  }

  await db.schema
    .createTable("user_invitations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("permissions", "integer", (c) => c.notNull())
    .addColumn("base_path", "text", (c) => c.notNull())
    .addColumn("note", "text")
    .addColumn("created_by", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("accepted_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("accepted_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("user_invitations_created")
    .on("user_invitations")
    .column("created_at")
    .execute();
}
