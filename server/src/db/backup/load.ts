/**
 * Loads a portable backup (format.ts) into an empty database, or replaces the content of a
 * non-empty one when forced. Everything happens in one transaction: a backup that is cut off,
 * malformed or from a newer schema leaves the database as it was.
 */
import { sql } from "kysely";
import { appliedMigrations, type Db, knownMigrations, migrateOnly, migrateToLatest } from "../database";
import { BackupError, tableColumns } from "./dump";
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  type BackupHeader,
  keyCheck,
  loadableTableNames,
  type Scalar,
  type TableStart,
  type Trailer,
  type UntypedDb,
  untyped,
} from "./format";

/** Rows per INSERT, and bytes of row text buffered before one is sent (pastes can be 10 MB). */
const BATCH_ROWS = 100;
const BATCH_BYTES = 4 * 1024 * 1024;

export interface OpenedBackup {
  header: BackupHeader;
  /** The lines after the header. */
  body: AsyncIterator<string>;
}

export interface LoadResult {
  rows: Record<string, number>;
  /** Migrations applied after loading (the backup came from an older schema). */
  upgraded: string[];
}

/** Reads and checks the header: a ClipShare backup this version can load. */
export async function openBackup(lines: AsyncIterable<string>): Promise<OpenedBackup> {
  const body = lines[Symbol.asyncIterator]();
  const first = await body.next();
  if (first.done) throw new BackupError("The backup file is empty");
  return { header: parseHeader(first.value), body };
}

/** Secrets in a backup only work under the key they were made with. */
export function assertSameSecretKey(header: BackupHeader, secretKey: Buffer): void {
  if (header.key_check === keyCheck(secretKey)) return;
  throw new BackupError(
    "The backup was made under another SECRET_KEY: API keys, signed links and storage credentials in it " +
      "would not work. Use the old key (SECRET_KEY, or the old DATA_DIR/secret.key in place of the one " +
      "in DATA_DIR now), or pass --allow-key-change to load it anyway and create new API keys and " +
      "storage credentials afterwards.",
  );
}

/** `force`: replace the content of a database that is not empty. */
export async function loadBackup(
  db: Db,
  backup: OpenedBackup,
  options: { force: boolean },
): Promise<LoadResult> {
  const { header } = backup;
  // An empty or older database is brought to the backup's schema (exactly the migrations it had,
  // which need not be a prefix of ours), so rows load into the columns they were written from;
  // the other migrations then run over the loaded data.
  const applied = await appliedMigrations(db);
  if (applied.every((m) => header.migrations.includes(m))) await migrateOnly(db, header.migrations);
  const columns = await tableColumns(db);

  // The tables of the backup's schema (it may predate a rename), in load order.
  const tables = loadableTableNames().filter((table) => columns.has(table));
  const occupied = await nonEmptyTables(db, tables);
  if (occupied.length > 0 && !options.force) {
    throw new BackupError(
      `The database is not empty (${occupied.map(([t, n]) => `${t}: ${n}`).join(", ")}); ` +
        "pass --force to replace its content with the backup",
    );
  }

  const rows = await db.transaction().execute(async (trx) => {
    const tx = untyped(trx);
    // Also when it looked empty: a server left running may have written since the check.
    if (options.force) {
      for (const table of [...tables].reverse()) await tx.deleteFrom(table).execute();
    }
    return loadRows(tx, backup.body, columns);
  });
  const upgraded = await migrateToLatest(db);
  return { rows, upgraded };
}

function parseHeader(line: string): BackupHeader {
  let header: Partial<BackupHeader>;
  try {
    header = JSON.parse(line);
  } catch {
    throw new BackupError("Not a ClipShare backup (the first line is not JSON)");
  }
  if (header?.format !== BACKUP_FORMAT)
    throw new BackupError("Not a ClipShare backup (no clipshare-backup header)");
  if (header.version !== BACKUP_VERSION) {
    throw new BackupError(
      `Backup format version ${header.version} is not supported (this ClipShare reads ${BACKUP_VERSION})`,
    );
  }
  if (
    !Array.isArray(header.migrations) ||
    typeof header.schema !== "string" ||
    typeof header.key_check !== "string"
  ) {
    throw new BackupError("The backup header is incomplete");
  }
  const unknown = header.migrations.filter((m) => !knownMigrations().includes(m));
  if (unknown.length > 0 || !knownMigrations().includes(header.schema)) {
    throw new BackupError(
      `The backup comes from a newer ClipShare (schema ${header.schema}); restore it with that version or newer`,
    );
  }
  return header as BackupHeader;
}

async function nonEmptyTables(db: Db, tables: string[]): Promise<Array<[string, number]>> {
  const found: Array<[string, number]> = [];
  for (const table of tables) {
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(
      db,
    );
    const n = Number(rows[0]?.n ?? 0);
    if (n > 0) found.push([table, n]);
  }
  return found;
}

async function loadRows(
  db: UntypedDb,
  lines: AsyncIterator<string>,
  columns: Map<string, string[]>,
): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  let section: TableStart | null = null;
  let batch: Record<string, Scalar>[] = [];
  let batchBytes = 0;
  let lineNo = 1;
  const flush = async () => {
    if (section && batch.length > 0) await db.insertInto(section.table).values(batch).execute();
    batch = [];
    batchBytes = 0;
  };
  for (let next = await lines.next(); !next.done; next = await lines.next()) {
    lineNo += 1;
    const line = next.value;
    if (line.trim() === "") continue;
    let item: unknown;
    try {
      item = JSON.parse(line);
    } catch {
      throw new BackupError(`Line ${lineNo} of the backup is not JSON (the file is damaged)`);
    }
    if (Array.isArray(item)) {
      if (!section) throw new BackupError(`Line ${lineNo}: a row before any table`);
      batch.push(rowObject(section, item, lineNo));
      batchBytes += line.length;
      counts[section.table] = (counts[section.table] ?? 0) + 1;
      if (batch.length >= BATCH_ROWS || batchBytes >= BATCH_BYTES) await flush();
      continue;
    }
    await flush();
    const record = item as Partial<TableStart & Trailer>;
    if (record.end === true) {
      checkTrailer(record as Trailer, counts);
      for (next = await lines.next(); !next.done; next = await lines.next()) {
        if (next.value.trim() !== "") throw new BackupError("The backup has data after its end marker");
      }
      return counts;
    }
    section = tableStart(record, columns, lineNo);
    counts[section.table] ??= 0;
  }
  throw new BackupError(
    "The backup is incomplete (no end marker): it was cut off while being written or copied",
  );
}

function tableStart(record: Partial<TableStart>, columns: Map<string, string[]>, lineNo: number): TableStart {
  const { table, columns: cols } = record;
  // A table of this database at the backup's schema (current names, or former ones before a rename).
  const loadable = typeof table === "string" && loadableTableNames().includes(table) && columns.has(table);
  if (!loadable || !Array.isArray(cols)) {
    throw new BackupError(`Line ${lineNo}: unknown table ${JSON.stringify(table)}`);
  }
  const known = columns.get(table) ?? [];
  const extra = cols.filter((c) => !known.includes(c));
  if (extra.length > 0) {
    throw new BackupError(
      `Table ${table} in the backup has columns this database lacks: ${extra.join(", ")}`,
    );
  }
  return { table, columns: cols };
}

function rowObject(section: TableStart, values: unknown[], lineNo: number): Record<string, Scalar> {
  if (values.length !== section.columns.length) {
    throw new BackupError(
      `Line ${lineNo}: ${values.length} values for ${section.columns.length} columns of ${section.table}`,
    );
  }
  const row: Record<string, Scalar> = {};
  section.columns.forEach((column, i) => {
    const value = values[i];
    if (value !== null && typeof value !== "string" && typeof value !== "number") {
      throw new BackupError(`Line ${lineNo}: ${section.table}.${column} is not text, a number or null`);
    }
    row[column] = value;
  });
  return row;
}

function checkTrailer(trailer: Trailer, counts: Record<string, number>): void {
  for (const table of new Set([...Object.keys(trailer.rows ?? {}), ...Object.keys(counts)])) {
    const expected = trailer.rows?.[table] ?? 0;
    const loaded = counts[table] ?? 0;
    if (expected !== loaded) {
      throw new BackupError(`The backup is damaged: ${table} should have ${expected} rows, it has ${loaded}`);
    }
  }
}
