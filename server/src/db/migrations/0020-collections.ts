import type { Kysely } from "kysely";

/**
 * Collections (docs/collections.md): one link, /c/<slug>, for several files or
 * a folder. `collections` carries the share columns pastes and file shares
 * have (slug, password, expiry, view limit and count, creator, no_log), so the
 * one set of visitor rules (domain/shares/share-access.ts) serves it.
 * `collection_items` lists what it holds, in order: a file share of the
 * creator (`file_id`; the item goes with the share) or a path of the explorer
 * tree (`path`), a file or a folder, read as it is at each visit.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("collections")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("title", "text")
    .addColumn("remark", "text")
    .addColumn("password_hash", "text")
    .addColumn("expires_at", "text")
    .addColumn("max_views", "integer")
    .addColumn("views", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("no_log", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_by", "text", (c) => c.notNull())
    // The user it belongs to (docs/accounts.md); 0014-accounts adds it where this ran before it.
    .addColumn("owner_id", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("collections_owner")
    .on("collections")
    .columns(["owner_id", "created_at"])
    .execute();
  await db.schema
    .createIndex("collections_created")
    .on("collections")
    .columns(["created_by", "created_at"])
    .execute();
  await db.schema.createIndex("collections_created_at").on("collections").column("created_at").execute();
  await db.schema
    .createTable("collection_items")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("collection_id", "text", (c) => c.notNull().references("collections.id").onDelete("cascade"))
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("file_id", "text", (c) => c.references("files.id").onDelete("cascade"))
    .addColumn("path", "text")
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("is_directory", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("size", "bigint")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("collection_items_collection")
    .on("collection_items")
    .columns(["collection_id", "position"])
    .execute();
  // Deleting a file share finds the items naming it through this index (the cascade).
  await db.schema.createIndex("collection_items_file").on("collection_items").column("file_id").execute();
}
