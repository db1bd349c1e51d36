/**
 * The administrator account: first-run bootstrap, login tokens, credential change.
 * Tokens are 256-bit random strings; only their SHA-256 is stored.
 */
import { randomUUID } from "node:crypto";
import type { AdminLogin, ChangePasswordRequest } from "@clipshare/shared";
import { hashPassword, verifyPassword } from "../../auth/passwords";
import type { Principal } from "../../auth/principal";
import { accountTarget, RATE_LIMITS, type RateLimiter } from "../../auth/rate-limiter";
import type { Db } from "../../db/database";
import { nowIso } from "../../db/database";
import { preparedQuery } from "../../db/prepared-query";
import { AppError, badRequest, conflict, notFound } from "../../errors";
import { randomBase62, randomToken, sha256Hex } from "../../lib/crypto";
import type { Logger } from "../../logger";

export interface VerifiedAdmin {
  principal: Extract<Principal, { kind: "admin" }>;
  stamp: string;
}

/** Length of generated admin passwords (first start, reset): about 119 bits. */
const GENERATED_PASSWORD_LENGTH = 20;

const stampOf = (admin: { username: string; password_hash: string }) =>
  sha256Hex(`${admin.username}\0${admin.password_hash}`);

export type TokenCheck = { ok: true; principal: Extract<Principal, { kind: "admin" }> } | { ok: false };

export class AdminService {
  /** A real hash to verify against when the username is unknown, so timing does not reveal it. */
  private decoyHash: Promise<string> | null = null;

  /** Every request signed in with a token runs this; prepared once (prepared-query.ts). */
  private readonly tokenLookup;

  constructor(
    private readonly db: Db,
    private readonly rateLimiter: RateLimiter,
    private readonly tokenTtlSeconds: number,
  ) {
    this.tokenLookup = preparedQuery<{ hash: string }, { id: string; username: string; expires_at: string }>(
      db,
      (param) =>
        db
          .selectFrom("admin_tokens")
          .innerJoin("admins", "admins.id", "admin_tokens.admin_id")
          .select(["admins.id", "admins.username", "admin_tokens.expires_at"])
          .where("admin_tokens.token_hash", "=", param("hash")),
    );
  }

  /** Creates the administrator on first run; returns the generated password when one was made. */
  async bootstrap(
    wanted: { username: string | null; password: string | null },
    log: Logger,
  ): Promise<{ created: boolean; generatedPassword: string | null }> {
    const existing = await this.db.selectFrom("admins").select("id").limit(1).executeTakeFirst();
    if (existing) return { created: false, generatedPassword: null };
    const username = wanted.username ?? "admin";
    const generatedPassword = wanted.password ? null : randomBase62(GENERATED_PASSWORD_LENGTH);
    const password = wanted.password ?? generatedPassword!;
    const now = nowIso();
    await this.db
      .insertInto("admins")
      .values({
        id: randomUUID(),
        username,
        password_hash: await hashPassword(password),
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.column("username").doNothing())
      .execute();
    if (generatedPassword) {
      log.warn(
        { username },
        `Created administrator "${username}" with generated password: ${generatedPassword} (shown once; change it in Admin → Settings)`,
      );
    } else {
      log.info({ username }, `Created administrator "${username}" from ADMIN_USERNAME/ADMIN_PASSWORD`);
    }
    return { created: true, generatedPassword };
  }

  /** Rate-limited per (address, user name) and per address; a burst is verified at most up to the limit. */
  async login(username: string, password: string, clientIp: string): Promise<AdminLogin> {
    const admin = await this.rateLimiter.attempt(
      RATE_LIMITS.adminLogin,
      { clientIp, target: accountTarget(username), secret: password },
      async () => (await this.verifyCredentials(username, password))?.principal,
    );
    if (!admin) throw new AppError(401, "invalid_credentials", "Wrong username or password");
    const token = randomToken(32);
    const now = new Date();
    const expiresAt = new Date(now.getTime() + this.tokenTtlSeconds * 1000).toISOString();
    await this.db
      .insertInto("admin_tokens")
      .values({
        token_hash: sha256Hex(token),
        admin_id: admin.adminId,
        expires_at: expiresAt,
        created_at: nowIso(now),
      })
      .execute();
    return { username: admin.username, token, expiresAt };
  }

  async logout(token: string): Promise<void> {
    await this.db.deleteFrom("admin_tokens").where("token_hash", "=", sha256Hex(token)).execute();
  }

  async verifyToken(token: string): Promise<TokenCheck> {
    const [row] = await this.tokenLookup({ hash: sha256Hex(token) });
    if (!row) return { ok: false };
    if (row.expires_at <= nowIso()) {
      await this.logout(token);
      return { ok: false };
    }
    return { ok: true, principal: { kind: "admin", adminId: row.id, username: row.username } };
  }

  /**
   * Username + password (login, WebDAV Basic) → the admin, and a stamp of the credentials
   * that proved it (see credentialStamp). Unknown names are verified against a decoy hash
   * so timing does not reveal which names exist. Callers rate-limit it.
   */
  async verifyCredentials(username: string, password: string): Promise<VerifiedAdmin | null> {
    const admin = await this.db
      .selectFrom("admins")
      .select(["id", "username", "password_hash"])
      .where("username", "=", username)
      .executeTakeFirst();
    if (!admin) {
      await verifyPassword(password, await this.decoy());
      return null;
    }
    if (!(await verifyPassword(password, admin.password_hash))) return null;
    return {
      principal: { kind: "admin", adminId: admin.id, username: admin.username },
      stamp: stampOf(admin),
    };
  }

  /**
   * Changes whenever the admin's name or password changes (a new password has a new salt),
   * so a cache of proven credentials can check it is still current with one indexed read.
   */
  async credentialStamp(adminId: string): Promise<string | null> {
    const admin = await this.db
      .selectFrom("admins")
      .select(["username", "password_hash"])
      .where("id", "=", adminId)
      .executeTakeFirst();
    return admin ? stampOf(admin) : null;
  }

  /** Admin update rules; revokes every token of the admin on success. */
  async changeCredentials(adminId: string, input: ChangePasswordRequest, clientIp: string): Promise<void> {
    const admin = await this.db.selectFrom("admins").selectAll().where("id", "=", adminId).executeTakeFirst();
    if (!admin) throw notFound("Admin does not exist", "admin_not_found");
    if (!input.newPassword && !input.newUsername) {
      throw badRequest("No new password or username provided", "nothing_to_update");
    }
    const confirmed = await this.rateLimiter.attempt(
      RATE_LIMITS.adminLogin,
      { clientIp, target: accountTarget(admin.username), secret: input.currentPassword },
      () => verifyPassword(input.currentPassword, admin.password_hash),
    );
    if (!confirmed) throw new AppError(401, "wrong_current_password", "Current password is wrong");
    if (input.newPassword && input.newPassword === input.currentPassword) {
      throw badRequest("New password cannot equal current password", "password_unchanged");
    }
    if (input.newUsername && input.newUsername !== admin.username) {
      const taken = await this.db
        .selectFrom("admins")
        .select("id")
        .where("username", "=", input.newUsername)
        .executeTakeFirst();
      if (taken) throw conflict("Username already exists", "username_taken");
    }
    const passwordHash = input.newPassword ? await hashPassword(input.newPassword) : admin.password_hash;
    await this.replaceCredentials(adminId, input.newUsername ?? admin.username, passwordHash);
  }

  /**
   * Recovery for an administrator who lost the password (the `reset-admin-password` command,
   * run by whoever controls the server): a new random password, returned once. Without a name
   * the only administrator is meant. Failed-login counters of the account are cleared so the
   * new password works at once.
   */
  async resetPassword(username?: string): Promise<{ username: string; password: string }> {
    const admins = await this.db
      .selectFrom("admins")
      .select(["id", "username"])
      .orderBy("username")
      .execute();
    if (admins.length === 0) {
      throw notFound(
        "No administrator exists yet: start ClipShare once, it creates one and prints its password",
        "admin_not_found",
      );
    }
    const admin = username === undefined ? admins[0] : admins.find((a) => a.username === username);
    if (!admin) throw notFound(`No administrator named "${username}"`, "admin_not_found");
    if (username === undefined && admins.length > 1) {
      throw badRequest(
        `Several administrators exist (${admins.map((a) => a.username).join(", ")}); choose one with --username`,
        "admin_ambiguous",
      );
    }
    const password = randomBase62(GENERATED_PASSWORD_LENGTH);
    await this.replaceCredentials(admin.id, admin.username, await hashPassword(password));
    await this.rateLimiter.forgetAccount(admin.username);
    return { username: admin.username, password };
  }

  /**
   * Stores new credentials and revokes every token of the admin in one transaction. The new
   * hash also changes the credential stamp, which revokes WebDAV's cached logins on every instance.
   */
  private async replaceCredentials(adminId: string, username: string, passwordHash: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable("admins")
        .set({ username, password_hash: passwordHash, updated_at: nowIso() })
        .where("id", "=", adminId)
        .execute();
      await trx.deleteFrom("admin_tokens").where("admin_id", "=", adminId).execute();
    });
  }

  async deleteExpiredTokens(): Promise<number> {
    const result = await this.db
      .deleteFrom("admin_tokens")
      .where("expires_at", "<=", nowIso())
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  private decoy(): Promise<string> {
    this.decoyHash ??= hashPassword(randomToken(16));
    return this.decoyHash;
  }
}
