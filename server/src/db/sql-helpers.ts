/**
 * Small SQL helpers that read the same on SQLite and PostgreSQL, so services
 * never test driver error codes or escape LIKE patterns themselves.
 */
import { type RawBuilder, sql } from "kysely";

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
