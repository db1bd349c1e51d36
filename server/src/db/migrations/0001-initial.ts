import type { Kysely } from "kysely";

/**
 * The whole data model of the product. Later migrations only add columns.
 * Types are chosen to mean the same on SQLite and PostgreSQL: text ids and ISO
 * timestamps, integer booleans, bigint sizes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const ts = (name: string) => [name, "text"] as const;

  await db.schema
    .createTable("admins")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("username", "text", (c) => c.notNull().unique())
    .addColumn("password_hash", "text", (c) => c.notNull())
    .addColumn(...ts("created_at"), (c) => c.notNull())
    .addColumn(...ts("updated_at"), (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("admin_tokens")
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("admin_id", "text", (c) => c.notNull().references("admins.id").onDelete("cascade"))
    .addColumn(...ts("expires_at"), (c) => c.notNull())
    .addColumn(...ts("created_at"), (c) => c.notNull())
    .execute();
  await db.schema.createIndex("admin_tokens_admin_id").on("admin_tokens").column("admin_id").execute();
  await db.schema.createIndex("admin_tokens_expires_at").on("admin_tokens").column("expires_at").execute();

  await db.schema
    .createTable("api_keys")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull().unique())
    .addColumn("key_hash", "text", (c) => c.notNull().unique())
    .addColumn("key_prefix", "text", (c) => c.notNull())
    .addColumn("permissions", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("role", "text", (c) => c.notNull().defaultTo("GENERAL"))
    .addColumn("basic_path", "text", (c) => c.notNull().defaultTo("/"))
    .addColumn("is_guest", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn(...ts("expires_at"))
    .addColumn(...ts("last_used"))
    .addColumn(...ts("created_at"), (c) => c.notNull())
    .addColumn(...ts("updated_at"), (c) => c.notNull())
    .execute();
  await db.schema.createIndex("api_keys_created_at").on("api_keys").column("created_at").execute();

  await db.schema
    .createTable("pastes")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("content", "text", (c) => c.notNull())
    .addColumn("remark", "text")
    .addColumn("password_hash", "text")
    .addColumn(...ts("expires_at"))
    .addColumn("max_views", "integer")
    .addColumn("views", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_by", "text", (c) => c.notNull())
    .addColumn(...ts("created_at"), (c) => c.notNull())
    .addColumn(...ts("updated_at"), (c) => c.notNull())
    .execute();
  await db.schema.createIndex("pastes_created_at").on("pastes").column("created_at").execute();
  await db.schema
    .createIndex("pastes_created_by_created_at")
    .on("pastes")
    .columns(["created_by", "created_at"])
    .execute();
  await db.schema.createIndex("pastes_expires_at").on("pastes").column("expires_at").execute();

  await db.schema
    .createTable("storage_configs")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("storage_type", "text", (c) => c.notNull())
    .addColumn("provider_type", "text")
    .addColumn("endpoint_url", "text")
    .addColumn("bucket_name", "text")
    .addColumn("region", "text")
    .addColumn("access_key_id_enc", "text")
    .addColumn("secret_access_key_enc", "text")
    .addColumn("path_style", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("default_folder", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("root_path", "text")
    .addColumn("custom_host", "text")
    .addColumn("signature_expires_in", "integer", (c) => c.notNull().defaultTo(3600))
    .addColumn("is_public", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("is_default", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("total_storage_bytes", "bigint")
    .addColumn("admin_id", "text")
    .addColumn(...ts("created_at"), (c) => c.notNull())
    .addColumn(...ts("updated_at"), (c) => c.notNull())
    .addColumn(...ts("last_used"))
    .execute();
  await db.schema.createIndex("storage_configs_name").on("storage_configs").column("name").execute();
  await db.schema
    .createIndex("storage_configs_is_default")
    .on("storage_configs")
    .column("is_default")
    .execute();

  await db.schema
    .createTable("files")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("filename", "text", (c) => c.notNull())
    .addColumn("storage_config_id", "text")
    .addColumn("storage_type", "text", (c) => c.notNull())
    .addColumn("storage_path", "text", (c) => c.notNull())
    .addColumn("file_path", "text")
    .addColumn("mount_id", "text")
    .addColumn("mimetype", "text", (c) => c.notNull())
    .addColumn("size", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("etag", "text")
    .addColumn("remark", "text")
    .addColumn("password_hash", "text")
    .addColumn(...ts("expires_at"))
    .addColumn("max_views", "integer")
    .addColumn("views", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("use_proxy", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("status", "text", (c) => c.notNull().defaultTo("active"))
    .addColumn("delete_object_with_share", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("created_by", "text", (c) => c.notNull())
    .addColumn(...ts("created_at"), (c) => c.notNull())
    .addColumn(...ts("updated_at"), (c) => c.notNull())
    .execute();
  await db.schema.createIndex("files_created_at").on("files").column("created_at").execute();
  await db.schema
    .createIndex("files_created_by_created_at")
    .on("files")
    .columns(["created_by", "created_at"])
    .execute();
  await db.schema.createIndex("files_storage_config_id").on("files").column("storage_config_id").execute();
  await db.schema.createIndex("files_expires_at").on("files").column("expires_at").execute();
  await db.schema
    .createIndex("files_status_created_at")
    .on("files")
    .columns(["status", "created_at"])
    .execute();

  await db.schema
    .createTable("mounts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("storage_type", "text", (c) => c.notNull())
    .addColumn("storage_config_id", "text")
    .addColumn("mount_path", "text", (c) => c.notNull().unique())
    .addColumn("remark", "text")
    .addColumn("is_active", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("created_by", "text", (c) => c.notNull())
    .addColumn("sort_order", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("cache_ttl", "integer", (c) => c.notNull().defaultTo(300))
    .addColumn("web_proxy", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("webdav_policy", "text", (c) => c.notNull().defaultTo("302_redirect"))
    .addColumn("enable_sign", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("sign_expires", "integer")
    .addColumn(...ts("created_at"), (c) => c.notNull())
    .addColumn(...ts("updated_at"), (c) => c.notNull())
    .addColumn(...ts("last_used"))
    .execute();
  await db.schema.createIndex("mounts_sort").on("mounts").columns(["sort_order", "name"]).execute();
  await db.schema.createIndex("mounts_storage_config_id").on("mounts").column("storage_config_id").execute();

  await db.schema
    .createTable("system_settings")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("description", "text")
    .addColumn(...ts("created_at"), (c) => c.notNull())
    .addColumn(...ts("updated_at"), (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("tasks")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("created_by", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("result", "text")
    .addColumn("total_items", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("processed_items", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("failed_items", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("skipped_items", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("total_bytes", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("processed_bytes", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("current_file", "text")
    .addColumn("error", "text")
    .addColumn("claimed_by", "text")
    .addColumn(...ts("claimed_at"))
    .addColumn("cancel_requested", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn(...ts("created_at"), (c) => c.notNull())
    .addColumn(...ts("updated_at"), (c) => c.notNull())
    .addColumn(...ts("started_at"))
    .addColumn(...ts("completed_at"))
    .execute();
  await db.schema
    .createIndex("tasks_created_by_created_at")
    .on("tasks")
    .columns(["created_by", "created_at"])
    .execute();
  await db.schema
    .createIndex("tasks_status_created_at")
    .on("tasks")
    .columns(["status", "created_at"])
    .execute();

  await db.schema
    .createTable("rate_limits")
    .addColumn("bucket", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("count", "integer", (c) => c.notNull())
    .addColumn("reset_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("rate_limits_pk", ["bucket", "subject"])
    .execute();
  await db.schema.createIndex("rate_limits_reset_at").on("rate_limits").column("reset_at").execute();

  await db.schema
    .createTable("upload_sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("storage_config_id", "text")
    .addColumn("mount_id", "text")
    .addColumn("storage_path", "text", (c) => c.notNull())
    .addColumn("upload_id", "text")
    .addColumn("file_id", "text")
    .addColumn("created_by", "text", (c) => c.notNull())
    .addColumn(...ts("expires_at"), (c) => c.notNull())
    .addColumn(...ts("created_at"), (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("upload_sessions_expires_at")
    .on("upload_sessions")
    .column("expires_at")
    .execute();

  await db.schema
    .createTable("webdav_locks")
    .addColumn("token", "text", (c) => c.primaryKey())
    .addColumn("path", "text", (c) => c.notNull())
    .addColumn("scope", "text", (c) => c.notNull())
    .addColumn("depth", "text", (c) => c.notNull())
    .addColumn("owner_xml", "text")
    .addColumn("principal", "text", (c) => c.notNull())
    .addColumn("timeout_seconds", "integer", (c) => c.notNull())
    .addColumn(...ts("expires_at"), (c) => c.notNull())
    .addColumn(...ts("created_at"), (c) => c.notNull())
    .execute();
  await db.schema.createIndex("webdav_locks_path").on("webdav_locks").column("path").execute();

  await db.schema
    .createTable("webdav_props")
    .addColumn("path", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("value_xml", "text", (c) => c.notNull())
    .addColumn(...ts("updated_at"), (c) => c.notNull())
    .addPrimaryKeyConstraint("webdav_props_pk", ["path", "name"])
    .execute();
}
