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
import type { Db } from "./database";
import type { QueryExecutor } from "./prepared-query";

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
  const flush = async () => {
    const batch = queue;
    queue = [];
    if (batch.length === 1) {
      const [only] = batch as [Pending<V, R>];
      run(only.values, db).then(only.resolve, only.reject);
      return;
    }
    const outcomes: ({ ok: true; result: R } | { ok: false; error: unknown })[] = [];
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
    batch.forEach((item, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) item.resolve(outcome.result);
      else item.reject(outcome.error);
    });
  };
  return (values) =>
    new Promise<R>((resolve, reject) => {
      // The first write of a turn schedules the flush; the ones after it in the same turn join it.
      if (queue.length === 0) setImmediate(flush);
      queue.push({ values, resolve, reject });
    });
}
