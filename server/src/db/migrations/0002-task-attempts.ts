import type { Kysely } from "kysely";

/**
 * Tasks record how often they were started and why they were restarted, so a
 * task resumed after a crash or restart says so instead of silently running again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("tasks")
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("tasks").addColumn("notice", "text").execute();
}
