import type { Kysely } from "kysely";

/**
 * Per-user quotas (docs/accounts.md#quotas, decision 0065): `users.quota_bytes` limits the
 * bytes of everything the user owns in total (null: no limit), `user_storage_quotas` the bytes
 * on one storage config. Usage is not stored: it is the sum of the user's file shares, counted
 * when a share's size is claimed under a lock of the user's row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users").addColumn("quota_bytes", "bigint").execute();
  await db.schema
    .createTable("user_storage_quotas")
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("storage_config_id", "text", (c) =>
      c.notNull().references("storage_configs.id").onDelete("cascade"),
    )
    .addColumn("quota_bytes", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("user_storage_quotas_pk", ["user_id", "storage_config_id"])
    .execute();
  // Sums of one owner's bytes (on one config) read this instead of the whole table.
  await db.schema
    .createIndex("files_owner_config")
    .on("files")
    .columns(["owner_id", "storage_config_id"])
    .execute();
}
