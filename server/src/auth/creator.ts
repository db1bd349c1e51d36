/**
 * The creator rule: who owns a row, from its `created_by`. The admin owns
 * everything; an API key owns what carries its id, recorded as
 * `apikey:<id>` (or, in rows from 0.7.3, the bare id). Every check on a
 * single row and every query that lists or deletes "own" rows goes through
 * here, so the rule exists once.
 */
import { type Expression, type RawBuilder, type SqlBool, sql } from "kysely";
import type { Principal } from "./principal";

const KEY_PREFIX = "apikey:";

/** The created_by value recorded for things this principal creates. */
export function creatorIdOf(principal: Principal): string {
  if (principal.kind === "admin") return principal.adminId;
  if (principal.kind === "apiKey") return `${KEY_PREFIX}${principal.key.id}`;
  throw new Error("Anonymous principals cannot create resources");
}

/** The API key id a created_by names, with or without the prefix; `prefixed` says which form it had. */
export function keyIdOfCreator(createdBy: string): { keyId: string; prefixed: boolean } {
  const prefixed = createdBy.startsWith(KEY_PREFIX);
  return { keyId: prefixed ? createdBy.slice(KEY_PREFIX.length) : createdBy, prefixed };
}

/** The created_by values a principal owns: "all" for the admin, none for anonymous. */
export function ownedCreatorIds(principal: Principal): "all" | string[] {
  if (principal.kind === "admin") return "all";
  if (principal.kind === "apiKey") return [`${KEY_PREFIX}${principal.key.id}`, principal.key.id];
  return [];
}

export function isCreator(principal: Principal, createdBy: string | null | undefined): boolean {
  const owned = ownedCreatorIds(principal);
  if (owned === "all") return true;
  return !!createdBy && owned.includes(createdBy);
}

/** Anything with a Kysely `where(expression)`: select, update and delete builders alike. */
interface Filterable<Q> {
  where(expression: Expression<SqlBool>): Q;
}

/** Limits a query to the rows `principal` created (`column` is the created_by column). */
export function whereCreatedBy<Q extends Filterable<Q>>(query: Q, column: string, principal: Principal): Q {
  const owned = ownedCreatorIds(principal);
  if (owned === "all") return query;
  if (owned.length === 0) return query.where(sql<SqlBool>`1 = 0`);
  return query.where(sql<SqlBool>`${sql.ref(column)} in (${sql.join(owned)})`);
}

/** Join condition from a created_by column to the API key that created the row (for key names in lists). */
export function createdByKey(column: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`${sql.ref(column)} = ${sql.lit(KEY_PREFIX)} || api_keys.id`;
}
