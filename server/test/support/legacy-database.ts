/**
 * Databases as earlier releases left them, for the upgrade tests: SQLite in a
 * folder of the test's, or a fresh PostgreSQL database, as the environment picks.
 */
import path from "node:path";
import { openDatabase } from "../../src/db/database";
import { emptyRow } from "../../src/domain/storage-configs/storage-config-service";
import { createPgDatabase, testDialect } from "./test-app";

/** An empty database (no migration run); `pg` is set on PostgreSQL, to point the app at it and drop it after. */
export async function scratchDatabase(dir: string) {
  const pg = testDialect() === "postgres" ? await createPgDatabase() : null;
  const db = openDatabase(
    pg ? { dialect: "postgres", url: pg.url } : { dialect: "sqlite", file: path.join(dir, "clipshare.db") },
  );
  return { db, pg };
}

/**
 * The default LOCAL storage, public, as releases before accounts wrote it:
 * with `hostKey` for a schema at 0012-sftp-host-key or later, without before.
 */
export function legacyLocalStorage(row: {
  id: string;
  root: string;
  adminId: string | null;
  now: string;
  hostKey: boolean;
}) {
  const { host_key, ...unset } = emptyRow();
  return {
    ...unset,
    ...(row.hostKey ? { host_key } : {}),
    id: row.id,
    name: "Local storage",
    storage_type: "LOCAL",
    root_path: row.root,
    is_public: 1,
    is_default: 1,
    admin_id: row.adminId,
    created_at: row.now,
    updated_at: row.now,
  };
}
