import type { Kysely } from "kysely";

/**
 * Mount roots: the folder inside its storage a mount shows ("" = the whole
 * storage, as every mount showed before). Existing mounts keep "" and the
 * explorer paths they had; file-share objects leave their view through the
 * share area (docs/decisions/0050-share-area.md), moved by the share-area
 * sweep once the server runs, since a migration has no storage access.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("mounts")
    .addColumn("root", "text", (c) => c.notNull().defaultTo(""))
    .execute();
}
