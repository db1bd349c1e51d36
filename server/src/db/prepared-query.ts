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
 * `build(param)` returns the query with `param("name")` wherever a value goes;
 * the result runs it with `values.name` in each of those places.
 */
export function preparedQuery<Values extends Record<string, unknown>, Row>(
  db: Kysely<never>,
  build: (param: (name: keyof Values & string) => never) => Compilable<Row>,
): PreparedQuery<Values, Row> {
  const compiled = build((name) => `${PLACEHOLDER}${name}` as never).compile();
  // Each parameter is either a named value of the run or a constant written into the query.
  const fill = compiled.parameters.map((p) =>
    typeof p === "string" && p.startsWith(PLACEHOLDER)
      ? (values: Values) => values[p.slice(PLACEHOLDER.length)]
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
