/**
 * The principal behind a stored `created_by` (a user id, or `apikey:<id>`), for work done
 * later on that principal's behalf: tasks, signed links, file-request uploads. It is built as
 * a request would build it now (users/principals.ts): a deleted or expired key, or a disabled
 * or deleted user, resolves to null, so queued work stops with them, and a key is narrowed to
 * what its user may do today.
 */
import { keyIdOfCreator } from "../../auth/creator";
import type { Principal } from "../../auth/principal";
import type { Db } from "../../db/database";
import { nowIso } from "../../db/database";
import { keyIdentity, USER_FIELDS, userPrincipal } from "../users/principals";

export async function resolveCreator(db: Db, createdBy: string): Promise<Principal | null> {
  const { keyId, prefixed } = keyIdOfCreator(createdBy);
  const key = await db.selectFrom("api_keys").selectAll().where("id", "=", keyId).executeTakeFirst();
  if (key) {
    if (key.expires_at !== null && key.expires_at <= nowIso()) return null;
    const owner = key.user_id ? await userRow(db, key.user_id) : undefined;
    const identity = owner ? keyIdentity(key, owner) : null;
    return identity ? { kind: "apiKey", key: identity } : null;
  }
  if (prefixed) return null;
  const user = await userRow(db, createdBy);
  return user && user.disabled === 0 ? userPrincipal(user) : null;
}

const userRow = (db: Db, id: string) =>
  db
    .selectFrom("users")
    .select([...USER_FIELDS])
    .where("id", "=", id)
    .executeTakeFirst();
