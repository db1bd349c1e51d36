/**
 * A query that hot paths run many times with new values: Kysely builds and
 * compiles it once (so its SQL stays written in one place, for every dialect),
 * and each run only fills in the values. Building a query through Kysely's
 * expression builders costs as much as running it against SQLite.
 */
import type { Compilable, Kysely } from "kysely";

/** Where a prepared query runs: the database or a transaction. */
export type QueryExecutor = Pick<Kysely<never>, "executeQuery">;

/** Stands in for a value while the query is compiled; never a value a caller passes. */
const PLACEHOLDER = "\u0000clipshare-param:";

/**
 * Where a value goes: `values[name]`, or what `pick(values)` returns (a value
 * inside the run's values, such as a column of the third of a list of rows).
 */
export type Param<Values> = (
  at:
    | (Values extends Record<string, unknown> ? keyof Values & string : never)
    | ((values: Values) => unknown),
) => never;

/**
 * `build(param)` returns the query with `param(...)` wherever a value goes;
 * the result runs it with the values each `param` names.
 */
export function preparedQuery<Values, Row>(
  db: QueryExecutor,
  build: (param: Param<Values>) => Compilable<Row>,
): PreparedQuery<Values, Row> {
  const picks: Array<(values: Values) => unknown> = [];
  const param: Param<Values> = (at) => {
    picks.push(typeof at === "function" ? at : (values) => (values as Record<string, unknown>)[at]);
    return `${PLACEHOLDER}${picks.length - 1}` as never;
  };
  const compiled = build(param).compile();
  // Each parameter is either a value of the run or a constant written into the query.
  const fill = compiled.parameters.map((p) =>
    typeof p === "string" && p.startsWith(PLACEHOLDER)
      ? picks[Number(p.slice(PLACEHOLDER.length))]!
      : () => p,
  );
  const parameters = (values: Values) => fill.map((f) => f(values));
  const run = async (values: Values, on: QueryExecutor = db) => {
    const result = await on.executeQuery<Row>({ ...compiled, parameters: parameters(values) });
    return result.rows;
  };
  return Object.assign(run, { sql: compiled.sql, parameters });
}

/** Runs the query (on the database or a transaction); `sql` and `parameters` let a driver run it directly. */
export type PreparedQuery<Values, Row> = ((values: Values, on?: QueryExecutor) => Promise<Row[]>) & {
  sql: string;
  parameters(values: Values): unknown[];
};
