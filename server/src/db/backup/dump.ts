/**
 * Writes the database as a portable backup (format.ts). The whole dump reads one snapshot
 * (a repeatable-read transaction on PostgreSQL, one read transaction on SQLite), so it is
 * consistent while ClipShare keeps serving, and it pages through each table by primary key,
 * so memory stays bounded whatever the tables hold.
 */
import type { ExpressionBuilder, Kysely } from "kysely";
import { appliedMigrations, type Db, type Dialect, knownMigrations } from "../database";
import type { Database } from "../schema";
import {
  BACKUP_FORMAT,
  BACKUP_TABLES,
  BACKUP_VERSION,
  type BackupHeader,
  backupTableNames,
  CONTENTS_NOTE,
  keyCheck,
  type Scalar,
  type Trailer,
  type UntypedDb,
  untyped,
} from "./format";

const PAGE_ROWS = 500;

export class BackupError extends Error {
  override readonly name = "BackupError";
}

/** `write` takes one line (without newline) and resolves when the sink can take more. */
export async function dumpDatabase(
  db: Db,
  options: { dialect: Dialect; secretKey: Buffer; write: (line: string) => Promise<void> },
): Promise<Record<string, number>> {
  const { write } = options;
  let tx = db.transaction();
  if (options.dialect === "postgres") tx = tx.setIsolationLevel("repeatable read").setAccessMode("read only");
  return tx.execute(async (trx) => {
    const migrations = await appliedMigrations(trx);
    if (migrations.length === 0)
      throw new BackupError("The database has no ClipShare schema: nothing to back up");
    const unknown = migrations.filter((m) => !knownMigrations().includes(m));
    if (unknown.length > 0) {
      throw new BackupError(
        `The database schema (${unknown.join(", ")}) is newer than this ClipShare; back it up with the version that runs it`,
      );
    }
    const columns = await tableColumns(trx);
    const header: BackupHeader = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      schema: migrations[migrations.length - 1]!,
      migrations,
      dialect: options.dialect,
      created_at: new Date().toISOString(),
      key_check: keyCheck(options.secretKey),
      contents: CONTENTS_NOTE,
    };
    await write(JSON.stringify(header));
    const counts: Record<string, number> = {};
    for (const table of backupTableNames()) {
      const cols = columns.get(table);
      if (!cols) throw new BackupError(`Table ${table} is missing from the database`);
      await write(JSON.stringify({ table, columns: cols }));
      counts[table] = await dumpTable(untyped(trx), table, cols, write);
    }
    const trailer: Trailer = { end: true, rows: counts };
    await write(JSON.stringify(trailer));
    return counts;
  });
}

/** Column names of every ClipShare table (the database's own, so an older schema dumps as it is). */
export async function tableColumns(db: Kysely<Database>): Promise<Map<string, string[]>> {
  const tables = await db.introspection.getTables();
  return new Map(
    tables
      .filter((t) => !t.isView && (t.schema ?? "public") === "public")
      .map((t) => [t.name, t.columns.map((c) => c.name)]),
  );
}

async function dumpTable(
  db: UntypedDb,
  table: keyof typeof BACKUP_TABLES,
  columns: string[],
  write: (line: string) => Promise<void>,
): Promise<number> {
  const key = BACKUP_TABLES[table] as readonly string[];
  let after: Record<string, Scalar> | null = null;
  let count = 0;
  for (;;) {
    let query = db.selectFrom(table).selectAll().limit(PAGE_ROWS);
    for (const column of key) query = query.orderBy(column);
    if (after) query = query.where((eb) => afterKey(eb, key, after!));
    const rows = await query.execute();
    for (const row of rows) {
      await write(JSON.stringify(columns.map((c) => scalar(table, c, row[c]))));
    }
    count += rows.length;
    if (rows.length < PAGE_ROWS) return count;
    after = rows[rows.length - 1]!;
  }
}

/** Rows after `row` in primary-key order: (a > x) or (a = x and b > y). */
function afterKey(
  eb: ExpressionBuilder<Record<string, Record<string, Scalar>>, string>,
  key: readonly string[],
  row: Record<string, Scalar>,
) {
  const [first, second] = key as [string, string | undefined];
  // Primary-key values are never null.
  const value = (column: string) => row[column] ?? null;
  if (second === undefined) return eb(first, ">", value(first));
  return eb.or([
    eb(first, ">", value(first)),
    eb.and([eb(first, "=", value(first)), eb(second, ">", value(second))]),
  ]);
}

function scalar(table: string, column: string, value: unknown): Scalar {
  if (value === null || typeof value === "string" || typeof value === "number") return value;
  if (typeof value === "bigint" && Number.isSafeInteger(Number(value))) return Number(value);
  throw new BackupError(`${table}.${column} holds a value that is not text, a number or null`);
}
