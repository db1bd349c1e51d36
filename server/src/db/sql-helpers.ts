/**
 * Small SQL helpers that read the same on SQLite and PostgreSQL, so services
 * never test driver error codes or escape LIKE patterns themselves.
 */
import { type RawBuilder, type SelectQueryBuilder, sql } from "kysely";

/** The insert or update hit a unique index (or primary key): the value is taken. */
export function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: string; message?: string };
  return (
    err?.code === "23505" ||
    err?.code === "SQLITE_CONSTRAINT_UNIQUE" ||
    err?.code === "SQLITE_CONSTRAINT_PRIMARYKEY"
  );
}

/**
 * The right-hand side of `column LIKE …` that matches `text` anywhere, taken
 * literally: `%`, `_` and `\` in the text match only themselves.
 */
export function containsPattern(text: string): RawBuilder<string> {
  return sql<string>`${containsPatternText(text)} escape '\\'`;
}

/** The pattern of containsPattern as text, for `… LIKE f(pattern) ESCAPE '\'`. */
export function containsPatternText(text: string): string {
  return `%${text.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
}

/** How many rows `query` matches: its filters count; give it no select list of its own. */
export async function countMatching<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
): Promise<number> {
  // PostgreSQL's count is a bigint, sent as text; SQLite's a number.
  const counted = query.select((eb) => eb.fn.countAll().as("total")).$castTo<{ total: number | string }>();
  return Number((await counted.executeTakeFirstOrThrow()).total);
}

/**
 * One page of a log table's rows (tasks, notification deliveries), optionally
 * of one status, newest first (ties by id), and how many match in all.
 */
export async function newestFirstPage<DB, TB extends keyof DB>(
  base: SelectQueryBuilder<DB, TB, object>,
  query: { limit: number; offset: number; status?: string | undefined },
) {
  const filtered = query.status ? base.where(sql.ref("status"), "=", query.status) : base;
  const total = await countMatching(filtered);
  const rows = await filtered
    .selectAll()
    .orderBy(sql.ref("created_at"), "desc")
    .orderBy(sql.ref("id"))
    .limit(query.limit)
    .offset(query.offset)
    .execute();
  return { rows, total };
}
