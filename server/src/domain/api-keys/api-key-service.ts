/**
 * API keys: each belongs to a user, is shown in full once, and is stored as an HMAC of the
 * key under a server-secret-derived pepper (a leaked database alone does not let anyone use or
 * brute-force them). Expired keys stay listed but are refused. A key never does more than its
 * user: making or changing one asks for no bit and no path the user lacks, and every use
 * narrows it to the user's grant as it is then (users/principals.ts), so taking a right from
 * a user takes it from their keys at once. Administrators see every key; users only their own.
 */
import { randomUUID } from "node:crypto";
import {
  type ApiKeyDto,
  type CreateApiKeyRequest,
  type CreatedApiKey,
  createApiKeyRequest,
  grantFitsWithin,
  grantOfRole,
  type KeyRole,
  normalizeBasePath,
  permissionNames,
  type UpdateApiKeyRequest,
  updateApiKeyRequest,
} from "@clipshare/shared";
import type { z } from "zod";
import type { ApiKeyIdentity, Principal } from "../../auth/principal";
import type { Db } from "../../db/database";
import { nowIso } from "../../db/database";
import { preparedQuery } from "../../db/prepared-query";
import type { ApiKeyRow } from "../../db/schema";
import { isUniqueViolation } from "../../db/sql-helpers";
import { AppError, badRequest, conflict, notFound } from "../../errors";
import { deriveKey, hmacSha256, randomBase62 } from "../../lib/crypto";
import { keyIdentity, roleOf, USER_FIELDS, type UserFields } from "../users/principals";
import { userNotFound } from "../users/user-service";

const GENERATED_KEY_LENGTH = 32;
const DEFAULT_LIFETIME_MS = 24 * 3600 * 1000;
/** Writing last_used on every request would turn reads into writes; once a minute is plenty. */
const LAST_USED_RESOLUTION_MS = 60_000;

type CreateInput = z.output<typeof createApiKeyRequest>;
type UpdateInput = z.output<typeof updateApiKeyRequest>;

export class ApiKeyService {
  private readonly pepper: Buffer;

  /** Every request signed in with a key runs this; prepared once (prepared-query.ts). */
  private readonly keyLookup;

  constructor(
    private readonly db: Db,
    secret: Buffer,
  ) {
    this.pepper = deriveKey(secret, "api-key");
    this.keyLookup = preparedQuery<{ hash: string }, KeyWithOwner>(db, (param) =>
      db
        .selectFrom("api_keys")
        .innerJoin("users", "users.id", "api_keys.user_id")
        .select([
          "api_keys.id",
          "api_keys.name",
          "api_keys.permissions",
          "api_keys.basic_path",
          "api_keys.role",
          "api_keys.is_guest",
          "api_keys.expires_at",
          "api_keys.last_used",
          "users.id as owner_id",
          "users.username as owner_username",
          "users.role as owner_role",
          "users.permissions as owner_permissions",
          "users.base_path as owner_base_path",
          "users.disabled as owner_disabled",
        ])
        .where("api_keys.key_hash", "=", param("hash")),
    );
  }

  hashKey(key: string): string {
    return hmacSha256(this.pepper, key).toString("hex");
  }

  /** Every key for an administrator (optionally one user's), a user's own keys otherwise. */
  async list(scope: KeyScope, ownerId?: string): Promise<ApiKeyDto[]> {
    let query = this.db
      .selectFrom("api_keys")
      .leftJoin("users", "users.id", "api_keys.user_id")
      .selectAll("api_keys")
      .select("users.username as owner_name");
    const owner = scope === "all" ? ownerId : scope;
    if (owner) query = query.where("api_keys.user_id", "=", owner);
    const rows = await query.orderBy("api_keys.created_at", "desc").execute();
    return rows.map((row) => toDto(row, row.owner_name));
  }

  async get(scope: KeyScope, id: string): Promise<ApiKeyDto> {
    const row = await this.requireRow(scope, id);
    return toDto(row, await this.ownerName(row.user_id));
  }

  /**
   * A new key of `ownerId`. Its bits and base path must fit within the owner's grant
   * (administrators' keys may hold anything).
   */
  async create(input: CreateInput | CreateApiKeyRequest, ownerId: string): Promise<CreatedApiKey> {
    const data = createApiKeyRequest.parse(input);
    const owner = await this.requireOwner(ownerId);
    assertWithinOwner(owner, data.permissions, data.basic_path);
    const key = data.custom_key ?? randomBase62(GENERATED_KEY_LENGTH);
    const now = new Date();
    const expiresAt =
      data.expires_at === undefined
        ? new Date(now.getTime() + DEFAULT_LIFETIME_MS).toISOString()
        : data.expires_at;
    assertFutureExpiry(expiresAt);
    await this.assertNameFree(data.name);
    const keyHash = this.hashKey(key);
    const taken = await this.db
      .selectFrom("api_keys")
      .select("id")
      .where("key_hash", "=", keyHash)
      .executeTakeFirst();
    if (taken) throw conflict("Key already exists, choose another custom key", "api_key_taken");
    const row: ApiKeyRow = {
      id: randomUUID(),
      name: data.name,
      key_hash: keyHash,
      key_prefix: key.slice(0, 6),
      permissions: data.permissions,
      role: data.role,
      basic_path: normalizeBasePath(data.basic_path),
      is_guest: data.is_guest ? 1 : 0,
      user_id: owner.id,
      expires_at: expiresAt,
      last_used: null,
      created_at: nowIso(now),
      updated_at: nowIso(now),
    };
    try {
      await this.db.insertInto("api_keys").values(row).execute();
    } catch (e) {
      // Two concurrent creates with one name: the unique index decides.
      if (isUniqueViolation(e)) throw conflict("Key name already exists", "api_key_name_taken");
      throw e;
    }
    return { ...toDto(row, owner.username), key };
  }

  async update(scope: KeyScope, id: string, input: UpdateInput | UpdateApiKeyRequest): Promise<ApiKeyDto> {
    const data = updateApiKeyRequest.parse(input);
    const row = await this.requireRow(scope, id);
    const owner = row.user_id ? await this.requireOwner(row.user_id) : null;
    if (owner)
      assertWithinOwner(owner, data.permissions ?? row.permissions, data.basic_path ?? row.basic_path);
    const patch: Partial<ApiKeyRow> = {};
    if (data.name !== undefined && data.name !== row.name) {
      await this.assertNameFree(data.name);
      patch.name = data.name;
    }
    if (data.permissions !== undefined) patch.permissions = data.permissions;
    if (data.role !== undefined) patch.role = data.role;
    if (data.basic_path !== undefined) patch.basic_path = normalizeBasePath(data.basic_path);
    if (data.is_guest !== undefined) patch.is_guest = data.is_guest ? 1 : 0;
    if (data.expires_at !== undefined) {
      assertFutureExpiry(data.expires_at);
      patch.expires_at = data.expires_at;
    }
    if (Object.keys(patch).length === 0 && Object.keys(data).length === 0) {
      throw badRequest("No valid update fields provided", "nothing_to_update");
    }
    patch.updated_at = nowIso();
    try {
      await this.db.updateTable("api_keys").set(patch).where("id", "=", id).execute();
    } catch (e) {
      if (isUniqueViolation(e)) throw conflict("Key name already exists", "api_key_name_taken");
      throw e;
    }
    return toDto({ ...row, ...patch }, owner?.username ?? null);
  }

  async delete(scope: KeyScope, id: string): Promise<void> {
    let query = this.db.deleteFrom("api_keys").where("id", "=", id);
    if (scope !== "all") query = query.where("user_id", "=", scope);
    const result = await query.executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw notFound("Key does not exist", "api_key_not_found");
  }

  /** Resolves a presented key; null when unknown, expired, or its user is disabled. */
  async authenticate(key: string): Promise<ApiKeyIdentity | null> {
    if (!key || key.length > 256) return null;
    const [row] = await this.keyLookup({ hash: this.hashKey(key) });
    if (!row) return null;
    const now = new Date();
    if (row.expires_at !== null && row.expires_at <= nowIso(now)) return null;
    const identity = keyIdentity(row, ownerOf(row));
    if (!identity) return null;
    if (!row.last_used || now.getTime() - Date.parse(row.last_used) > LAST_USED_RESOLUTION_MS) {
      await this.db
        .updateTable("api_keys")
        .set({ last_used: nowIso(now) })
        .where("id", "=", row.id)
        .execute();
    }
    return identity;
  }

  private async requireRow(scope: KeyScope, id: string): Promise<ApiKeyRow> {
    let query = this.db.selectFrom("api_keys").selectAll().where("id", "=", id);
    if (scope !== "all") query = query.where("user_id", "=", scope);
    const row = await query.executeTakeFirst();
    if (!row) throw notFound("Key does not exist", "api_key_not_found");
    return row;
  }

  private async requireOwner(id: string) {
    const owner = await this.db
      .selectFrom("users")
      .select([...USER_FIELDS])
      .where("id", "=", id)
      .executeTakeFirst();
    if (!owner) throw userNotFound();
    return owner;
  }

  private async ownerName(id: string | null): Promise<string | null> {
    if (!id) return null;
    const owner = await this.db
      .selectFrom("users")
      .select("username")
      .where("id", "=", id)
      .executeTakeFirst();
    return owner?.username ?? null;
  }

  private async assertNameFree(name: string): Promise<void> {
    const existing = await this.db
      .selectFrom("api_keys")
      .select("id")
      .where("name", "=", name)
      .executeTakeFirst();
    if (existing) throw conflict("Key name already exists", "api_key_name_taken");
  }
}

function assertFutureExpiry(expiresAt: string | null): void {
  if (expiresAt !== null && Date.parse(expiresAt) <= Date.now()) {
    throw badRequest("Expiry time must be in the future", "invalid_expiry");
  }
}

/** Whose keys a caller manages: every key (administrators) or one user's. */
export type KeyScope = "all" | string;

/** The key scope of a signed-in account: administrators manage every key, users their own. */
export const keyScopeOf = (principal: Extract<Principal, { kind: "admin" | "user" }>): KeyScope =>
  principal.kind === "admin" ? "all" : principal.user.id;

/** A key with its owner's fields, as the lookup of a presented key reads them. */
type KeyWithOwner = Pick<
  ApiKeyRow,
  "id" | "name" | "permissions" | "basic_path" | "role" | "is_guest" | "expires_at" | "last_used"
> & {
  owner_id: string;
  owner_username: string;
  owner_role: string;
  owner_permissions: number;
  owner_base_path: string;
  owner_disabled: number;
};

const ownerOf = (row: KeyWithOwner): UserFields => ({
  id: row.owner_id,
  username: row.owner_username,
  role: row.owner_role,
  permissions: row.owner_permissions,
  base_path: row.owner_base_path,
  disabled: row.owner_disabled,
});

function assertWithinOwner(owner: UserFields, permissions: number, basePath: string): void {
  const role = roleOf(owner.role);
  if (role === "admin") return;
  const grant = grantOfRole(role, { permissions: owner.permissions, basePath: owner.base_path });
  if (!grantFitsWithin(grant, { permissions, basePath: normalizeBasePath(basePath) })) {
    throw new AppError(
      403,
      "grant_exceeded",
      `An API key of ${owner.username} can hold only their permissions, at or below ${grant.basePath}`,
    );
  }
}

function toDto(row: ApiKeyRow, ownerName: string | null): ApiKeyDto {
  return {
    id: row.id,
    name: row.name,
    key_masked: `${row.key_prefix}...`,
    permissions: row.permissions,
    permission_names: permissionNames(row.permissions),
    role: row.role as KeyRole,
    basic_path: row.basic_path,
    is_guest: row.is_guest === 1 ? 1 : 0,
    expires_at: row.expires_at,
    is_expired: row.expires_at !== null && row.expires_at <= nowIso(),
    last_used: row.last_used,
    created_at: row.created_at,
    updated_at: row.updated_at,
    user_id: row.user_id,
    owner: ownerName,
  };
}
