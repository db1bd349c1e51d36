/**
 * Signing in and one's own account: the first administrator, password sign-in, sessions
 * (bearer tokens; only their SHA-256 is stored), the credential change, and the operator's
 * password reset. Every user signs in the same way; the role decides what the session may do
 * (users/principals.ts).
 */
import { randomUUID } from "node:crypto";
import type { AdminLogin, ChangePasswordRequest, SecondFactorChallenge, SessionDto } from "@clipshare/shared";
import { hashPassword, verifyPassword } from "../../auth/passwords";
import type { Principal } from "../../auth/principal";
import { accountTarget, RATE_LIMITS, type RateLimiter } from "../../auth/rate-limiter";
import type { Db } from "../../db/database";
import { nowIso } from "../../db/database";
import { preparedQuery } from "../../db/prepared-query";
import type { UserRow } from "../../db/schema";
import { AppError, badRequest, conflict, notFound } from "../../errors";
import { randomBase62, randomToken, sha256Hex } from "../../lib/crypto";
import type { Logger } from "../../logger";
import { roleOf, USER_FIELDS, type UserFields, userPrincipal } from "./principals";

export interface VerifiedAccount {
  principal: Principal;
  stamp: string;
}

/** Length of generated passwords (first start, reset): about 119 bits. */
const GENERATED_PASSWORD_LENGTH = 20;
/** Writing last_seen_at on every request would turn reads into writes; once a minute is plenty. */
const LAST_SEEN_RESOLUTION_MS = 60_000;
const USER_AGENT_MAX = 300;

/**
 * Changes whenever what a proven password stands for changes: the name, the password (a new
 * one has a new salt), the role, the grant or the disabled flag.
 */
const stampOf = (user: UserFields & Pick<UserRow, "password_hash">) =>
  sha256Hex(
    [user.username, user.password_hash, user.role, user.permissions, user.base_path, user.disabled].join(
      "\0",
    ),
  );

/**
 * What a correct password must still pass before a session starts (second-factor-service.ts):
 * a challenge to answer with a code, or null when the account has no second factor.
 */
export interface SignInGate {
  challengeIfDue(user: UserFields): Promise<SecondFactorChallenge | null>;
}

export type TokenCheck = { ok: true; principal: Principal } | { ok: false };

/** Who signs in from where, recorded with the session so its owner recognises it in the list. */
export interface SignInContext {
  clientIp: string;
  userAgent?: string | null;
}

export class AccountService {
  /** A real hash to verify against when the username is unknown, so timing does not reveal it. */
  private decoyHash: Promise<string> | null = null;

  /** Every request signed in with a token runs this; prepared once (prepared-query.ts). */
  private readonly tokenLookup;

  constructor(
    private readonly db: Db,
    private readonly rateLimiter: RateLimiter,
    private readonly tokenTtlSeconds: number,
    private readonly gate: SignInGate | null = null,
  ) {
    this.tokenLookup = preparedQuery<
      { hash: string },
      UserFields & { expires_at: string; session_id: string | null; last_seen_at: string | null }
    >(db, (param) =>
      db
        .selectFrom("sessions")
        .innerJoin("users", "users.id", "sessions.user_id")
        .select([
          "users.id",
          "users.username",
          "users.role",
          "users.permissions",
          "users.base_path",
          "users.disabled",
          "sessions.expires_at",
          "sessions.id as session_id",
          "sessions.last_seen_at",
        ])
        .where("sessions.token_hash", "=", param("hash")),
    );
  }

  /** Creates the administrator on first run; returns the generated password when one was made. */
  async bootstrap(
    wanted: { username: string | null; password: string | null },
    log: Logger,
  ): Promise<{ created: boolean; generatedPassword: string | null }> {
    const existing = await this.db
      .selectFrom("users")
      .select("id")
      .where("role", "=", "admin")
      .limit(1)
      .executeTakeFirst();
    if (existing) return { created: false, generatedPassword: null };
    const username = wanted.username ?? "admin";
    const generatedPassword = wanted.password ? null : randomBase62(GENERATED_PASSWORD_LENGTH);
    const password = wanted.password ?? generatedPassword!;
    const now = nowIso();
    await this.db
      .insertInto("users")
      .values({
        id: randomUUID(),
        username,
        password_hash: await hashPassword(password),
        role: "admin",
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

  /**
   * Rate-limited per (address, user name) and per address; a burst is verified at most up to
   * the limit. A disabled account is told so only after its password proved right. An account
   * with a second factor gets 401 `second_factor_required` with a challenge instead of a session.
   */
  async login(username: string, password: string, from: SignInContext): Promise<AdminLogin> {
    const verified = await this.rateLimiter.attempt(
      RATE_LIMITS.adminLogin,
      { clientIp: from.clientIp, target: accountTarget(username), secret: password },
      () => this.verifyPassword(username, password),
    );
    if (!verified) throw new AppError(401, "invalid_credentials", "Wrong username or password");
    if (verified.disabled === 1) throw accountDisabled();
    const challenge = await this.gate?.challengeIfDue(verified);
    if (challenge) {
      throw new AppError(
        401,
        "second_factor_required",
        "Enter the code from your authenticator app or a recovery code",
        challenge,
      );
    }
    return this.startSession(verified, from);
  }

  /** A new session of `user` (after its credentials were proven). */
  async startSession(user: UserFields, from: SignInContext): Promise<AdminLogin> {
    const token = randomToken(32);
    const now = new Date();
    const expiresAt = new Date(now.getTime() + this.tokenTtlSeconds * 1000).toISOString();
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto("sessions")
        .values({
          token_hash: sha256Hex(token),
          id: randomUUID(),
          user_id: user.id,
          user_agent: from.userAgent ? from.userAgent.slice(0, USER_AGENT_MAX) : null,
          client_ip: from.clientIp,
          last_seen_at: nowIso(now),
          expires_at: expiresAt,
          created_at: nowIso(now),
        })
        .execute();
      await trx
        .updateTable("users")
        .set({ last_login_at: nowIso(now) })
        .where("id", "=", user.id)
        .execute();
    });
    return { username: user.username, token, expiresAt, role: roleOf(user.role) };
  }

  async logout(token: string): Promise<void> {
    await this.db.deleteFrom("sessions").where("token_hash", "=", sha256Hex(token)).execute();
  }

  async verifyToken(token: string): Promise<TokenCheck> {
    const [row] = await this.tokenLookup({ hash: sha256Hex(token) });
    if (!row) return { ok: false };
    const now = new Date();
    if (row.expires_at <= nowIso(now) || row.disabled === 1) {
      await this.logout(token);
      return { ok: false };
    }
    if (!row.last_seen_at || now.getTime() - Date.parse(row.last_seen_at) > LAST_SEEN_RESOLUTION_MS) {
      await this.db
        .updateTable("sessions")
        .set({ last_seen_at: nowIso(now) })
        .where("token_hash", "=", sha256Hex(token))
        .execute();
    }
    return { ok: true, principal: userPrincipal(row, row.session_id ?? undefined) };
  }

  /**
   * Username + password (WebDAV Basic) → the account, and a stamp of what proved it (see
   * credentialStamp). A disabled account proves nothing. Callers rate-limit it.
   */
  async verifyCredentials(username: string, password: string): Promise<VerifiedAccount | null> {
    const user = await this.verifyPassword(username, password);
    if (!user || user.disabled === 1) return null;
    return { principal: userPrincipal(user), stamp: stampOf(user) };
  }

  /**
   * Unknown names are verified against a decoy hash so timing does not reveal which exist.
   * An account without a password (made by single sign-on) never matches, and says why.
   */
  private async verifyPassword(username: string, password: string) {
    const user = await this.db
      .selectFrom("users")
      .select([...USER_FIELDS, "password_hash"])
      .where("username", "=", username)
      .executeTakeFirst();
    if (!user || user.password_hash === "") {
      await verifyPassword(password, await this.decoy());
      if (user) throw passwordNotSet();
      return null;
    }
    return (await verifyPassword(password, user.password_hash)) ? user : null;
  }

  /** The stamp of an account now (null when it is gone), for caches of proven credentials. */
  async credentialStamp(userId: string): Promise<string | null> {
    const user = await this.db
      .selectFrom("users")
      .select([...USER_FIELDS, "password_hash"])
      .where("id", "=", userId)
      .executeTakeFirst();
    return user ? stampOf(user) : null;
  }

  /** Own name or password change, confirmed by the current password; signs every session out. */
  async changeCredentials(userId: string, input: ChangePasswordRequest, clientIp: string): Promise<void> {
    const user = await this.db.selectFrom("users").selectAll().where("id", "=", userId).executeTakeFirst();
    if (!user) throw notFound("User does not exist", "user_not_found");
    if (!input.newPassword && !input.newUsername) {
      throw badRequest("No new password or username provided", "nothing_to_update");
    }
    const confirmed = await this.rateLimiter.attempt(
      RATE_LIMITS.adminLogin,
      { clientIp, target: accountTarget(user.username), secret: input.currentPassword },
      () => verifyPassword(input.currentPassword, user.password_hash),
    );
    if (!confirmed) throw new AppError(401, "wrong_current_password", "Current password is wrong");
    if (input.newPassword && input.newPassword === input.currentPassword) {
      throw badRequest("New password cannot equal current password", "password_unchanged");
    }
    if (input.newUsername && input.newUsername !== user.username) {
      const taken = await this.db
        .selectFrom("users")
        .select("id")
        .where("username", "=", input.newUsername)
        .executeTakeFirst();
      if (taken) throw conflict("Username already exists", "username_taken");
    }
    const passwordHash = input.newPassword ? await hashPassword(input.newPassword) : user.password_hash;
    await this.replaceCredentials(userId, input.newUsername ?? user.username, passwordHash);
  }

  /**
   * Recovery for an administrator who lost the password (the `reset-admin-password` command,
   * run by whoever controls the server): a new random password, returned once. Without a name
   * the only administrator is meant. Failed-login counters of the account are cleared so the
   * new password works at once.
   */
  async resetPassword(username?: string): Promise<{ username: string; password: string }> {
    const admins = await this.db
      .selectFrom("users")
      .select(["id", "username"])
      .where("role", "=", "admin")
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
   * Stores new credentials and ends every session of the user in one transaction. The new
   * hash also changes the credential stamp, which revokes WebDAV's cached logins on every instance.
   */
  async replaceCredentials(userId: string, username: string, passwordHash: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable("users")
        .set({ username, password_hash: passwordHash, updated_at: nowIso() })
        .where("id", "=", userId)
        .execute();
      await trx.deleteFrom("sessions").where("user_id", "=", userId).execute();
    });
  }

  // ---- sessions ------------------------------------------------------------

  async listSessions(userId: string, currentSessionId: string | null): Promise<SessionDto[]> {
    const rows = await this.db
      .selectFrom("sessions")
      .select(["id", "user_agent", "client_ip", "created_at", "last_seen_at", "expires_at"])
      .where("user_id", "=", userId)
      .where("expires_at", ">", nowIso())
      .orderBy("created_at", "desc")
      .execute();
    return rows.map((row) => ({
      id: row.id ?? "",
      user_agent: row.user_agent,
      client_ip: row.client_ip,
      created_at: row.created_at,
      last_seen_at: row.last_seen_at,
      expires_at: row.expires_at,
      current: row.id !== null && row.id === currentSessionId,
    }));
  }

  /** Signs one session of the user out (their own list: another user's id is "not found"). */
  async endSession(userId: string, sessionId: string): Promise<void> {
    const result = await this.db
      .deleteFrom("sessions")
      .where("user_id", "=", userId)
      .where("id", "=", sessionId)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw notFound("Session does not exist", "session_not_found");
  }

  /** Signs every session of the user out but `keep` (the one asking); returns how many ended. */
  async endOtherSessions(userId: string, keep: string | null): Promise<number> {
    let query = this.db.deleteFrom("sessions").where("user_id", "=", userId);
    if (keep) query = query.where("id", "!=", keep);
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async deleteExpiredTokens(): Promise<number> {
    const result = await this.db
      .deleteFrom("sessions")
      .where("expires_at", "<=", nowIso())
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  private decoy(): Promise<string> {
    this.decoyHash ??= hashPassword(randomToken(16));
    return this.decoyHash;
  }
}

export const passwordNotSet = () =>
  new AppError(
    401,
    "password_not_set",
    "This account signs in with single sign-on; it has no password until an administrator sets one",
  );

export const accountDisabled = () =>
  new AppError(403, "account_disabled", "This account is disabled; ask an administrator");
