import type { Kysely } from "kysely";

/**
 * End-to-end encrypted shares: the server stores ciphertext it cannot read.
 * `pastes.encrypted` marks a paste whose content is an encrypted stream
 * (base64url); `files.encrypted_meta` holds the sealed name and type of an
 * encrypted file share (null for plain ones).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("pastes")
    .addColumn("encrypted", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("files").addColumn("encrypted_meta", "text").execute();
}
