/**
 * Group commit for small writes on SQLite. Every SQLite commit appends to the
 * WAL and costs more than the UPDATE itself; when many visitors view shares at
 * once, the writes that arrive in one turn of the event loop run one after
 * another in a single transaction instead, and each caller still gets the
 * result of its own statement. Each statement keeps its own conditions (a
 * view is counted only while views < max_views), and they run in arrival
 * order, so the outcome is the one running them singly would give. A caller's
 * promise settles only after the transaction committed.
 */
import { SqliteAdapter } from "kysely";
import { type Db, type SqliteHandle, sqliteHandle } from "./database";
import type { PreparedQuery, QueryExecutor } from "./prepared-query";

interface Pending<V, R> {
  values: V;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

/**
 * Wraps `run` (one statement, executed on the executor it is given) so that on
 * SQLite concurrent calls share a commit; on other dialects each call runs on
 * its own (PostgreSQL commits concurrently on separate connections).
 */
export function groupCommit<V, R>(
  db: Db,
  run: (values: V, on: QueryExecutor) => Promise<R>,
): (values: V) => Promise<R> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return (values) => run(values, db);
  let queue: Pending<V, R>[] = [];
  const direct = directBatch(db, run);
  const flush = async () => {
    const batch = queue;
    queue = [];
    if (direct) {
      let outcomes: Outcome<R>[];
      try {
        outcomes = await db.connection().execute(async () => direct(batch.map((item) => item.values)));
      } catch (error) {
        for (const item of batch) item.reject(error);
        return;
      }
      settle(batch, outcomes);
      return;
    }
    if (batch.length === 1) {
      const [only] = batch as [Pending<V, R>];
      run(only.values, db).then(only.resolve, only.reject);
      return;
    }
    const outcomes: Outcome<R>[] = [];
    try {
      await db.transaction().execute(async (trx) => {
        for (const item of batch) {
          try {
            outcomes.push({ ok: true, result: await run(item.values, trx) });
          } catch (error) {
            // A statement that fails leaves the others (SQLite keeps the transaction open).
            outcomes.push({ ok: false, error });
          }
        }
      });
    } catch (error) {
      for (const item of batch) item.reject(error);
      return;
    }
    settle(batch, outcomes);
  };
  return (values) =>
    new Promise<R>((resolve, reject) => {
      // The first write of a turn schedules the flush; the ones after it in the same turn join it.
      if (queue.length === 0) setImmediate(flush);
      queue.push({ values, resolve, reject });
    });
}

type Outcome<R> = { ok: true; result: R } | { ok: false; error: unknown };

function settle<V, R>(batch: Pending<V, R>[], outcomes: Outcome<R>[]): void {
  batch.forEach((item, i) => {
    const outcome = outcomes[i]!;
    if (outcome.ok) item.resolve(outcome.result);
    else item.reject(outcome.error);
  });
}

/**
 * For a prepared query on a database opened by openDatabase: the whole batch
 * as one synchronous SQLite transaction on its statement (a batch of one
 * statement as that statement alone), run while the
 * caller holds Kysely's connection lock. Going through Kysely's executor
 * costs a chain of promises per statement, more than the UPDATE of a view.
 */
function directBatch<V, R>(
  db: Db,
  run: (values: V, on: QueryExecutor) => Promise<R>,
): ((values: V[]) => Outcome<R>[]) | null {
  const handle = sqliteHandle(db);
  const query = run as Partial<PreparedQuery<V, unknown>>;
  if (!handle || query.sql === undefined || !query.parameters) return null;
  const { sql, parameters } = query as PreparedQuery<V, unknown>;
  // Prepared on first use: the schema may not exist yet when the query is defined.
  let statement: ReturnType<SqliteHandle["prepare"]> | undefined;
  let columns: string[] | undefined;
  const one = (values: V) => {
    statement ??= handle.prepare(sql);
    if (!statement.reader) {
      statement.run(parameters(values));
      return [] as R;
    }
    columns ??= statement.columns().map((column) => column.name);
    return rowsAsArrays(statement, parameters(values)).map((row) => rowObject(columns!, row)) as R;
  };
  const each = (batch: V[]) =>
    batch.map((values): Outcome<R> => {
      try {
        return { ok: true, result: one(values) };
      } catch (error) {
        // A statement that fails leaves the others (SQLite keeps the transaction open).
        return { ok: false, error };
      }
    });
  const inTransaction = handle.transaction(each);
  // A statement alone commits by itself: inside a transaction SQLite would also keep a
  // statement journal for it (a copy of every page it changes, to undo just that statement).
  return (batch) => (batch.length === 1 ? each(batch) : inTransaction(batch));
}

type Statement = ReturnType<SqliteHandle["prepare"]>;

/**
 * The rows of a reading statement as arrays. better-sqlite3 builds each row
 * object key by key through V8's API (looking up every column name in V8's
 * string table), which cost more per view than the UPDATE itself. The
 * statement is shared with Kysely's queries through the statement cache, so
 * it is back in object mode before anyone else can run it.
 */
function rowsAsArrays(statement: Statement, parameters: unknown[]): unknown[][] {
  statement.raw(true);
  try {
    return statement.all(parameters) as unknown[][];
  } finally {
    statement.raw(false);
  }
}

/** A row as the object better-sqlite3 would have made: the columns as keys, in order. */
function rowObject(columns: string[], values: unknown[]): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (let i = 0; i < columns.length; i++) row[columns[i]!] = values[i];
  return row;
}
