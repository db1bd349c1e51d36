/**
 * The ownership rule: whose a row is. Rows of pastes, file shares, file requests and tasks
 * carry two columns:
 * - `created_by`: who made it: a user id (signed in), or `apikey:<id>` for a key (in rows from
 *   0.7.3, the bare key id);
 * - `owner_id`: the user it belongs to: the user, or the user whose key made it.
 *
 * Administrators own everything; a user owns the rows whose owner is them, whichever of their
 * keys made them; an API key owns what it made itself (as it always has), never what its user
 * or the user's other keys made. Every check on a single row and every query that lists,
 * changes or deletes "own" rows goes through here, so the rule exists once.
 */
import { type Expression, type RawBuilder, type SqlBool, sql } from "kysely";
import { accountIdOf, type Principal } from "./principal";

const KEY_PREFIX = "apikey:";

/** The created_by value recorded for things this principal creates. */
export function creatorIdOf(principal: Principal): string {
  if (principal.kind === "admin") return principal.adminId;
  if (principal.kind === "user") return principal.user.id;
  if (principal.kind === "apiKey") return `${KEY_PREFIX}${principal.key.id}`;
  throw new Error("Anonymous principals cannot create resources");
}

/** The owner_id recorded for things this principal creates: the user it is or speaks for. */
export function ownerIdOf(principal: Principal): string {
  const id = accountIdOf(principal);
  if (id === null) throw new Error("Anonymous principals cannot own resources");
  return id;
}

/** Both columns of a new row. */
export const ownership = (principal: Principal) => ({
  created_by: creatorIdOf(principal),
  owner_id: ownerIdOf(principal),
});

/** The API key id a created_by names, with or without the prefix; `prefixed` says which form it had. */
export function keyIdOfCreator(createdBy: string): { keyId: string; prefixed: boolean } {
  const prefixed = createdBy.startsWith(KEY_PREFIX);
  return { keyId: prefixed ? createdBy.slice(KEY_PREFIX.length) : createdBy, prefixed };
}

/** The created_by values an API key owns (both spellings). */
const keyCreatorIds = (keyId: string) => [`${KEY_PREFIX}${keyId}`, keyId];

/** A row as the rule reads it. */
export interface Owned {
  created_by: string;
  owner_id: string | null;
}

export function isCreator(principal: Principal, row: Owned | null | undefined): boolean {
  if (!row) return false;
  if (principal.kind === "admin") return true;
  if (principal.kind === "user") return row.owner_id === principal.user.id;
  if (principal.kind === "apiKey") return keyCreatorIds(principal.key.id).includes(row.created_by);
  return false;
}

/** Anything with a Kysely `where(expression)`: select, update and delete builders alike. */
interface Filterable<Q> {
  where(expression: Expression<SqlBool>): Q;
}

const column = (table: string | null, name: string) => sql.ref(table ? `${table}.${name}` : name);

/** Limits a query to the rows `principal` owns (`table`: the table or alias, null when unambiguous). */
export function whereOwned<Q extends Filterable<Q>>(query: Q, table: string | null, principal: Principal): Q {
  if (principal.kind === "admin") return query;
  if (principal.kind === "user")
    return query.where(sql<SqlBool>`${column(table, "owner_id")} = ${principal.user.id}`);
  if (principal.kind === "apiKey") {
    return query.where(
      sql<SqlBool>`${column(table, "created_by")} in (${sql.join(keyCreatorIds(principal.key.id))})`,
    );
  }
  return query.where(sql<SqlBool>`1 = 0`);
}

/** Join condition from a created_by column to the API key that created the row (for key names in lists). */
export function createdByKey(createdByColumn: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`${sql.ref(createdByColumn)} = ${sql.lit(KEY_PREFIX)} || api_keys.id`;
}
