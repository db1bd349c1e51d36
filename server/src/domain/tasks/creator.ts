/**
 * The principal behind a stored `created_by` (the admin id, or
 * `apikey:<id>`), for work done later on that principal's behalf: tasks and
 * signed download links. A deleted or expired key resolves to null, so its
 * queued work stops with it.
 */
import { keyIdOfCreator } from "../../auth/creator";
import type { Principal } from "../../auth/principal";
import type { Db } from "../../db/database";
import { nowIso } from "../../db/database";

export async function resolveCreator(db: Db, createdBy: string): Promise<Principal | null> {
  const { keyId, prefixed } = keyIdOfCreator(createdBy);
  const key = await db.selectFrom("api_keys").selectAll().where("id", "=", keyId).executeTakeFirst();
  if (key) {
    if (key.expires_at !== null && key.expires_at <= nowIso()) return null;
    return {
      kind: "apiKey",
      key: {
        id: key.id,
        name: key.name,
        permissions: key.permissions,
        basicPath: key.basic_path,
        role: key.role,
        isGuest: key.is_guest === 1,
      },
    };
  }
  if (prefixed) return null;
  const admin = await db
    .selectFrom("admins")
    .select(["id", "username"])
    .where("id", "=", createdBy)
    .executeTakeFirst();
  return admin ? { kind: "admin", adminId: admin.id, username: admin.username } : null;
}
