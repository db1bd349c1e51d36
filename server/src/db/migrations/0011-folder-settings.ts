import type { Kysely } from "kysely";

/**
 * Folder settings (docs/folder-settings.md): one row per explorer path that
 * carries settings, inherited by the folders below it. Per field, null means
 * "as the folder above": a readme (Markdown) and a header line shown above
 * the listing, newline-separated hide globs (these add up along the way down),
 * a path password (scrypt, like share passwords) and whether the folder may be
 * listed publicly.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("folder_settings")
    .addColumn("id", "text", (c) => c.primaryKey())
    // Normalized virtual path ("/docs/manuals"): the folder the settings belong to.
    .addColumn("path", "text", (c) => c.notNull().unique())
    .addColumn("readme", "text")
    .addColumn("header", "text")
    .addColumn("hide_patterns", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("password_hash", "text")
    .addColumn("public_list", "integer")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
}
