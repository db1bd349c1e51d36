/**
 * API keys: created by the admin, shown in full once, stored as an HMAC of the
 * key under a server-secret-derived pepper (a leaked database alone does not
 * let anyone use or brute-force them). Expired keys stay listed but are refused.
 */
import { randomUUID } from "node:crypto";
import {
  type ApiKeyDto,
  type CreateApiKeyRequest,
  type CreatedApiKey,
  createApiKeyRequest,
  type KeyRole,
  normalizeBasePath,
  permissionNames,
  type UpdateApiKeyRequest,
  updateApiKeyRequest,
} from "@clipshare/shared";
import type { z } from "zod";
import type { ApiKeyIdentity } from "../../auth/principal";
import type { Db } from "../../db/database";
import { nowIso } from "../../db/database";
import type { ApiKeyRow } from "../../db/schema";
import { isUniqueViolation } from "../../db/sql-helpers";
import { badRequest, conflict, notFound } from "../../errors";
import { deriveKey, hmacSha256, randomBase62 } from "../../lib/crypto";

const GENERATED_KEY_LENGTH = 32;
const DEFAULT_LIFETIME_MS = 24 * 3600 * 1000;
/** Writing last_used on every request would turn reads into writes; once a minute is plenty. */
const LAST_USED_RESOLUTION_MS = 60_000;

type CreateInput = z.output<typeof createApiKeyRequest>;
type UpdateInput = z.output<typeof updateApiKeyRequest>;

export class ApiKeyService {
  private readonly pepper: Buffer;

  constructor(
    private readonly db: Db,
    secret: Buffer,
  ) {
    this.pepper = deriveKey(secret, "api-key");
  }

  hashKey(key: string): string {
    return hmacSha256(this.pepper, key).toString("hex");
  }

  async list(): Promise<ApiKeyDto[]> {
    const rows = await this.db.selectFrom("api_keys").selectAll().orderBy("created_at", "desc").execute();
    return rows.map(toDto);
  }

  async get(id: string): Promise<ApiKeyDto> {
    return toDto(await this.requireRow(id));
  }

  async create(input: CreateInput | CreateApiKeyRequest): Promise<CreatedApiKey> {
    const data = createApiKeyRequest.parse(input);
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
    return { ...toDto(row), key };
  }

  async update(id: string, input: UpdateInput | UpdateApiKeyRequest): Promise<ApiKeyDto> {
    const data = updateApiKeyRequest.parse(input);
    const row = await this.requireRow(id);
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
    return toDto({ ...row, ...patch });
  }

  async delete(id: string): Promise<void> {
    const result = await this.db.deleteFrom("api_keys").where("id", "=", id).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw notFound("Key does not exist", "api_key_not_found");
  }

  /** Resolves a presented key; null when unknown or expired. */
  async authenticate(key: string): Promise<ApiKeyIdentity | null> {
    if (!key || key.length > 256) return null;
    const row = await this.db
      .selectFrom("api_keys")
      .selectAll()
      .where("key_hash", "=", this.hashKey(key))
      .executeTakeFirst();
    if (!row) return null;
    const now = new Date();
    if (row.expires_at !== null && row.expires_at <= nowIso(now)) return null;
    if (!row.last_used || now.getTime() - Date.parse(row.last_used) > LAST_USED_RESOLUTION_MS) {
      await this.db
        .updateTable("api_keys")
        .set({ last_used: nowIso(now) })
        .where("id", "=", row.id)
        .execute();
    }
    return {
      id: row.id,
      name: row.name,
      permissions: row.permissions,
      basicPath: row.basic_path,
      role: row.role,
      isGuest: row.is_guest === 1,
    };
  }

  private async requireRow(id: string): Promise<ApiKeyRow> {
    const row = await this.db.selectFrom("api_keys").selectAll().where("id", "=", id).executeTakeFirst();
    if (!row) throw notFound("Key does not exist", "api_key_not_found");
    return row;
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

function toDto(row: ApiKeyRow): ApiKeyDto {
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
  };
}
