import type { Kysely } from "kysely";

/**
 * SFTP host-key pinning (docs/decisions/0039-sftp-host-key-pinning.md): the
 * SHA-256 fingerprint ("SHA256:<base64>") an SFTP storage's server must show;
 * null = not pinned, as every storage config was before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("storage_configs").addColumn("host_key", "text").execute();
}
