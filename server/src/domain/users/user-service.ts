/**
 * Users as administrators manage them: list, create, change (role, grant, disabled, a new
 * password), delete with their shares, requests, collections and tasks handed to another user. The last
 * active administrator can be neither demoted, disabled nor deleted: the check and the change
 * happen under one lock of the administrators' rows, so two administrators demoting each
 * other at once cannot both succeed.
 */
import { randomUUID } from "node:crypto";
import {
  type CreateUserRequest,
  createUserRequest,
  DEFAULT_USER_PERMISSIONS,
  grantOfRole,
  ROLE_PERMISSIONS,
  type Role,
  type UpdateUserRequest,
  type UserDto,
  updateUserRequest,
} from "@clipshare/shared";
import type { Transaction } from "kysely";
import { hashPassword } from "../../auth/passwords";
import type { Db, Dialect } from "../../db/database";
import { nowIso } from "../../db/database";
import type { Database, UserRow } from "../../db/schema";
import { isUniqueViolation } from "../../db/sql-helpers";
import { AppError, badRequest, conflict, notFound } from "../../errors";
import { roleOf } from "./principals";
import type { UserQuota } from "./user-quota";

/** The tables whose rows belong to a user (owner_id), in the order a transfer moves them. */
export const OWNED_TABLES = ["pastes", "files", "file_requests", "tasks", "collections"] as const;

export interface UserListQuery {
  search?: string | undefined;
  role?: Role | undefined;
  limit: number;
  offset: number;
}

export const userNotFound = () => notFound("User does not exist", "user_not_found");
const lastAdmin = () =>
  new AppError(409, "last_admin", "The last administrator cannot be deleted, disabled or given another role");

/** A unique index refused the row: its e-mail address (users_email) or its name is taken. */
function takenName(e: unknown): unknown {
  if (!isUniqueViolation(e)) return e;
  return /email/i.test(String((e as Error).message))
    ? conflict("Another user has this e-mail address", "email_taken")
    : conflict("Username already exists", "username_taken");
}

type Usage = Pick<UserDto, "used_bytes" | "storage_quotas" | "two_factor">;

export function toUserDto(row: UserRow, usage: Usage): UserDto {
  const role = roleOf(row.role);
  const grant = grantOfRole(role, { permissions: row.permissions, basePath: row.base_path });
  return {
    id: row.id,
    username: row.username,
    display_name: row.display_name,
    email: row.email,
    role,
    permissions: role === "admin" ? 0 : grant.permissions,
    base_path: role === "admin" ? "/" : grant.basePath,
    disabled: row.disabled === 1,
    two_factor: usage.two_factor,
    quota_bytes: row.quota_bytes == null ? null : Number(row.quota_bytes),
    used_bytes: usage.used_bytes,
    storage_quotas: usage.storage_quotas,
    last_login_at: row.last_login_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The stored grant of a new or changed user: bits their role may hold, a normalized base path. */
export function storedGrant(role: Role, permissions: number | undefined, basePath: string) {
  if (role === "admin") return { permissions: 0, base_path: "/" };
  const grant = grantOfRole(role, {
    permissions: permissions ?? (role === "user" ? DEFAULT_USER_PERMISSIONS : ROLE_PERMISSIONS.guest),
    basePath,
  });
  return { permissions: grant.permissions, base_path: grant.basePath };
}

export class UserService {
  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
    private readonly quota: UserQuota,
  ) {}

  /** A user as the API shows them, with their quotas, what they use and whether they have a second factor. */
  private async present(row: UserRow): Promise<UserDto> {
    const [usage, totp] = await Promise.all([
      this.quota.usageOf(row.id),
      this.db
        .selectFrom("user_totp")
        .select("user_id")
        .where("user_id", "=", row.id)
        .where("confirmed_at", "is not", null)
        .executeTakeFirst(),
    ]);
    return toUserDto(row, {
      used_bytes: usage.used_bytes,
      storage_quotas: usage.storage,
      two_factor: totp !== undefined,
    });
  }

  async list(query: UserListQuery): Promise<{ users: UserDto[]; total: number }> {
    let base = this.db.selectFrom("users");
    if (query.role) base = base.where("role", "=", query.role);
    if (query.search) {
      const like = `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      base = base.where((eb) => eb.or([eb("username", "like", like), eb("display_name", "like", like)]));
    }
    const [rows, count] = await Promise.all([
      base.selectAll().orderBy("created_at").orderBy("id").limit(query.limit).offset(query.offset).execute(),
      base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
    ]);
    return { users: await Promise.all(rows.map((row) => this.present(row))), total: Number(count.n) };
  }

  async get(id: string): Promise<UserDto> {
    return this.present(await this.requireRow(id));
  }

  /** Names of users by id (owner columns of the admin lists). */
  async namesOf(ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom("users")
      .select(["id", "username"])
      .where("id", "in", [...new Set(ids)])
      .execute();
    return new Map(rows.map((r) => [r.id, r.username]));
  }

  async create(input: CreateUserRequest): Promise<UserDto> {
    const data = createUserRequest.parse(input);
    const now = nowIso();
    const row: UserRow = {
      id: randomUUID(),
      username: data.username,
      password_hash: await hashPassword(data.password),
      role: data.role,
      display_name: data.display_name ?? null,
      email: data.email ?? null,
      disabled: 0,
      ...storedGrant(data.role, data.permissions, data.base_path),
      quota_bytes: data.quota_bytes ?? null,
      last_login_at: null,
      created_at: now,
      updated_at: now,
    };
    await this.db.transaction().execute(async (trx) => {
      await this.insert(trx, row);
      if (data.storage_quotas) await this.quota.setQuotas(trx, row.id, data.storage_quotas);
    });
    return this.present(row);
  }

  /** Inserts a new user; a name already taken (also by a concurrent insert) is 409 username_taken. */
  async insert(db: Db | Transaction<Database>, row: UserRow): Promise<void> {
    try {
      await db.insertInto("users").values(row).execute();
    } catch (e) {
      throw takenName(e);
    }
  }

  /**
   * Changes a user. A new password, a new role or a grant that shrinks signs their sessions
   * out, as disabling does; their API keys narrow at once (they are narrowed on every use).
   */
  async update(id: string, input: UpdateUserRequest): Promise<UserDto> {
    const data = updateUserRequest.parse(input);
    if (Object.values(data).every((v) => v === undefined)) {
      throw badRequest("No valid update fields provided", "nothing_to_update");
    }
    const passwordHash = data.password ? await hashPassword(data.password) : null;
    return this.db
      .transaction()
      .execute(async (trx) => {
        const row = await this.lockRow(trx, id);
        const role = data.role ?? roleOf(row.role);
        const disabled = data.disabled === undefined ? row.disabled : data.disabled ? 1 : 0;
        const losesAdmin = row.role === "admin" && (role !== "admin" || disabled === 1);
        if (losesAdmin && row.disabled === 0) await this.requireAnotherAdmin(trx, id);
        const grant = storedGrant(
          role,
          data.permissions ?? (role === row.role ? row.permissions : undefined),
          data.base_path ?? row.base_path,
        );
        const next: UserRow = {
          ...row,
          role,
          disabled,
          ...grant,
          display_name: data.display_name === undefined ? row.display_name : data.display_name,
          email: data.email === undefined ? row.email : data.email,
          quota_bytes: data.quota_bytes === undefined ? row.quota_bytes : data.quota_bytes,
          password_hash: passwordHash ?? row.password_hash,
          updated_at: nowIso(),
        };
        await trx
          .updateTable("users")
          .set(next)
          .where("id", "=", id)
          .execute()
          .catch((e) => {
            throw takenName(e);
          });
        const signOut =
          passwordHash !== null ||
          role !== row.role ||
          (disabled === 1 && row.disabled === 0) ||
          (row.permissions & ~grant.permissions) !== 0 ||
          grant.base_path !== row.base_path;
        if (signOut) await trx.deleteFrom("sessions").where("user_id", "=", id).execute();
        if (data.storage_quotas) await this.quota.setQuotas(trx, id, data.storage_quotas);
        return next;
      })
      .then((next) => this.present(next));
  }

  /** A user's own change of their display name. */
  async setDisplayName(id: string, displayName: string | null): Promise<UserDto> {
    const result = await this.db
      .updateTable("users")
      .set({ display_name: displayName, updated_at: nowIso() })
      .where("id", "=", id)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw userNotFound();
    return this.get(id);
  }

  /**
   * Deletes a user. What they own (pastes, file shares, requests, tasks) goes to `transferTo`,
   * which is required when there is any; their keys, sessions and pending invitations go with them.
   */
  async delete(id: string, transferTo: string | undefined): Promise<{ transferred: number }> {
    return this.db.transaction().execute(async (trx) => {
      const row = await this.lockRow(trx, id);
      if (row.role === "admin" && row.disabled === 0) await this.requireAnotherAdmin(trx, id);
      let owned = 0;
      for (const table of OWNED_TABLES) {
        const found = await trx
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("owner_id", "=", id)
          .executeTakeFirstOrThrow();
        owned += Number(found.n);
      }
      if (owned > 0) {
        if (!transferTo) {
          throw badRequest(
            "Choose the user who receives the deleted user's shares, requests and tasks",
            "transfer_required",
          );
        }
        const target = await trx
          .selectFrom("users")
          .selectAll()
          .where("id", "=", transferTo)
          .executeTakeFirst();
        if (!target || target.id === id || target.disabled === 1 || roleOf(target.role) === "guest") {
          throw badRequest(
            "Ownership can only go to another active user who may own shares",
            "invalid_transfer_target",
          );
        }
        for (const table of OWNED_TABLES) {
          await trx.updateTable(table).set({ owner_id: target.id }).where("owner_id", "=", id).execute();
        }
      }
      await trx
        .deleteFrom("user_invitations")
        .where("created_by", "=", id)
        .where("accepted_at", "is", null)
        .execute();
      await trx.deleteFrom("api_keys").where("user_id", "=", id).execute();
      await trx.deleteFrom("sessions").where("user_id", "=", id).execute();
      await trx.deleteFrom("users").where("id", "=", id).execute();
      return { transferred: owned };
    });
  }

  private async requireRow(id: string): Promise<UserRow> {
    const row = await this.db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
    if (!row) throw userNotFound();
    return row;
  }

  /**
   * The user's row inside a transaction, with the administrators' rows locked on PostgreSQL
   * (SQLite's write transaction already excludes every other writer).
   */
  private async lockRow(trx: Transaction<Database>, id: string): Promise<UserRow> {
    if (this.dialect === "postgres") {
      await trx.selectFrom("users").select("id").where("role", "=", "admin").forUpdate().execute();
    }
    const row = await trx.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
    if (!row) throw userNotFound();
    return row;
  }

  private async requireAnotherAdmin(trx: Transaction<Database>, id: string): Promise<void> {
    const other = await trx
      .selectFrom("users")
      .select("id")
      .where("role", "=", "admin")
      .where("disabled", "=", 0)
      .where("id", "!=", id)
      .limit(1)
      .executeTakeFirst();
    if (!other) throw lastAdmin();
  }
}
