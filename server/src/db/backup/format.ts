/**
 * The portable backup format: JSON Lines, the same whatever database wrote it, so a
 * SQLite backup loads into PostgreSQL and back.
 *
 *   {"format":"clipshare-backup","version":1,"schema":…,"migrations":[…],…}   header
 *   {"table":"users","columns":["id","username",…]}                          a table starts
 *   ["3f1c…","admin",…]                                                      one row, in column order
 *   {"end":true,"rows":{"users":1,…}}                                        trailer
 *
 * Values are what both dialects store (text, integers, null: see db/schema.ts). Secrets stay
 * as stored (password hashes, API-key HMACs, sealed storage credentials), so they only work
 * under the same SECRET_KEY; `key_check` lets a restore tell. Stored files are not included.
 * A file without its trailer was cut off and is refused.
 */

import type { Kysely } from "kysely";
import { deriveKey, hmacSha256 } from "../../lib/crypto";
import type { Database } from "../schema";

export const BACKUP_FORMAT = "clipshare-backup";
export const BACKUP_VERSION = 1;

export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  version: number;
  /** The newest migration applied to the database the backup came from. */
  schema: string;
  migrations: string[];
  dialect: string;
  created_at: string;
  /** Fingerprint of SECRET_KEY (a keyed hash of a constant; reveals nothing about the key). */
  key_check: string;
  contents: string;
}

export interface TableStart {
  table: string;
  columns: string[];
}

export interface Trailer {
  end: true;
  rows: Record<string, number>;
}

export type Scalar = string | number | null;

/** The database seen table by table, as the backup sees it: names chosen at run time. */
export type UntypedDb = Kysely<Record<string, Record<string, Scalar>>>;

export const untyped = (db: Kysely<Database>) => db as unknown as UntypedDb;

/**
 * Tables derived from storage (the mount index): not backed up; a restore drops them with their
 * mounts and the next crawl builds them again.
 */
type DerivedTable = "fs_index" | "mount_index_state";

/** A table of the derived index, or one of SQLite's FTS5 shadow tables behind it (`fs_index_fts*`). */
export const isDerivedTable = (name: string): boolean =>
  name === "mount_index_state" || name === "fs_index" || name.startsWith("fs_index_");

/**
 * Every table, in an order that satisfies foreign keys on load (users before sessions),
 * with the primary key the dump pages by. Typed over the schema, so a new table cannot be
 * forgotten here.
 */
export const BACKUP_TABLES: {
  [T in Exclude<keyof Database, DerivedTable>]: readonly (keyof Database[T] & string)[];
} = {
  users: ["id"],
  sessions: ["token_hash"],
  user_identities: ["issuer", "subject"],
  sso_settings: ["id"],
  sso_flows: ["state_hash"],
  user_invitations: ["id"],
  api_keys: ["id"],
  system_settings: ["key"],
  storage_configs: ["id"],
  user_storage_quotas: ["user_id", "storage_config_id"],
  user_totp: ["user_id"],
  user_recovery_codes: ["code_hash"],
  sign_in_challenges: ["token_hash"],
  user_passkeys: ["id"],
  webauthn_challenges: ["challenge_hash"],
  app_passwords: ["id"],
  mounts: ["id"],
  folder_settings: ["id"],
  pastes: ["id"],
  files: ["id"],
  share_access_log: ["id"],
  tasks: ["id"],
  upload_sessions: ["id"],
  file_requests: ["id"],
  file_request_uploads: ["id"],
  collections: ["id"],
  collection_items: ["id"],
  notification_settings: ["id"],
  notification_rules: ["subject_kind", "subject_id"],
  user_notification_defaults: ["user_id"],
  notification_events: ["id"],
  notification_deliveries: ["id"],
  rate_limits: ["bucket", "subject"],
  webdav_locks: ["token"],
  webdav_props: ["path", "name"],
};

export const backupTableNames = () => Object.keys(BACKUP_TABLES) as (keyof typeof BACKUP_TABLES)[];

/**
 * Names tables had in older schemas (0014-accounts renamed `admins` and `admin_tokens`), in
 * load order: a backup from before the rename loads into them, and the migrations after its
 * schema rename them with their rows.
 */
const FORMER_TABLES = ["admins", "admin_tokens"] as const;

/** Every table a backup may carry, former names first, in an order that satisfies foreign keys. */
export const loadableTableNames = (): string[] => [...FORMER_TABLES, ...backupTableNames()];

export const isBackupTable = (name: string): name is keyof typeof BACKUP_TABLES =>
  Object.hasOwn(BACKUP_TABLES, name);

export const keyCheck = (secretKey: Buffer) =>
  hmacSha256(deriveKey(secretKey, "backup-key-check"), BACKUP_FORMAT).toString("hex").slice(0, 32);

export const CONTENTS_NOTE =
  "database content only (shares, keys, settings, mounts, storage configs); stored files are not included";
