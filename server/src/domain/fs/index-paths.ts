/**
 * Paths of the index of mount entries: mount-relative, no leading slash, compared byte by byte,
 * so a folder's subtree is one range of the (mount_id, path) index.
 */
import type { Expression, ExpressionBuilder, SqlBool } from "kysely";
import type { Database } from "../../db/schema";

export type Eb = ExpressionBuilder<Database, "fs_index">;

export const codePoints = (s: string) => [...s].length;

export const parentOf = (path: string) => {
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
};
export const nameOf = (path: string) => path.slice(path.lastIndexOf("/") + 1);

/**
 * `path` is `prefix` or lies below it: one range of the (mount_id, path) index. Paths compare
 * byte by byte (BINARY on SQLite, collation "C" on PostgreSQL) and "/" sorts just before "0",
 * so everything starting with "prefix/" lies in ["prefix/", "prefix0").
 */
export function within(eb: Eb, prefix: string): Expression<SqlBool> {
  // One range ["prefix", "prefix0") holds the entry and its subtree, and siblings such as
  // "prefix-2" or "prefix.txt" ('-' and '.' sort before '/'), which the OR leaves out. Written as
  // an OR alone, SQLite reads the whole mount instead of the range.
  return eb.and([
    eb("path", ">=", prefix),
    eb("path", "<", `${prefix}0`),
    eb.or([eb("path", "=", prefix), eb("path", ">=", `${prefix}/`)]),
  ]);
}

export function below(eb: Eb, prefix: string): Expression<SqlBool> {
  return eb.and([eb("path", ">=", `${prefix}/`), eb("path", "<", `${prefix}0`)]);
}
