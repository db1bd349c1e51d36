/**
 * App passwords (docs/accounts.md#app-passwords): named passwords a user makes in My account
 * for WebDAV clients, which can send only a name and a password (HTTP Basic) and so cannot
 * answer a second factor. Generated here and shown once; stored as an HMAC under a pepper of
 * the server secret, as API keys are, so a presented one is found by one indexed read and a
 * leaked database cannot be used or brute-forced. They prove nothing outside WebDAV: the
 * sign-in and every /api route compare the account password only.
 */
import { randomUUID } from "node:crypto";
import type { AppPasswordDto, CreatedAppPassword } from "@clipshare/shared";
import type { Db } from "../../db/database";
import { nowIso } from "../../db/database";
import { conflict, notFound } from "../../errors";
import { deriveKey, hmacSha256, randomBase62 } from "../../lib/crypto";
import { USER_FIELDS, type UserFields } from "./principals";

/** About 190 bits: nothing to guess, and short enough to paste into a client's password field. */
const APP_PASSWORD_LENGTH = 32;
/** Writing last_used_at on every WebDAV request would turn reads into writes; once a minute is plenty. */
const LAST_USED_RESOLUTION_MS = 60_000;
/** One account does not need more; the bound keeps a runaway script from filling the table. */
const MAX_PER_USER = 50;

export class AppPasswordService {
  private readonly pepper: Buffer;

  constructor(
    private readonly db: Db,
    secret: Buffer,
  ) {
    this.pepper = deriveKey(secret, "app-password");
  }

  private hash(password: string): string {
    return hmacSha256(this.pepper, password).toString("hex");
  }

  async list(userId: string): Promise<AppPasswordDto[]> {
    return this.db
      .selectFrom("app_passwords")
      .select(["id", "name", "created_at", "last_used_at"])
      .where("user_id", "=", userId)
      .orderBy("created_at", "desc")
      .orderBy("id")
      .execute();
  }

  async create(userId: string, name: string): Promise<CreatedAppPassword> {
    const count = await this.db
      .selectFrom("app_passwords")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow();
    if (Number(count.n) >= MAX_PER_USER) {
      throw conflict(
        `An account has at most ${MAX_PER_USER} app passwords; revoke one first`,
        "app_password_limit",
      );
    }
    const password = randomBase62(APP_PASSWORD_LENGTH);
    const row = {
      id: randomUUID(),
      user_id: userId,
      name,
      password_hash: this.hash(password),
      created_at: nowIso(),
      last_used_at: null,
    };
    await this.db.insertInto("app_passwords").values(row).execute();
    return { id: row.id, name, created_at: row.created_at, last_used_at: null, password };
  }

  /** Revokes one of the user's own (another user's id is "not found"); WebDAV refuses it at once. */
  async revoke(userId: string, id: string): Promise<void> {
    const result = await this.db
      .deleteFrom("app_passwords")
      .where("id", "=", id)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) {
      throw notFound("App password does not exist", "app_password_not_found");
    }
  }

  /**
   * The account `username` names, when `password` is one of its app passwords and the account
   * is not disabled; null otherwise (also for another account's app password). Callers
   * rate-limit failures.
   */
  async verify(username: string, password: string): Promise<UserFields | null> {
    if (!password || password.length > 256) return null;
    const row = await this.db
      .selectFrom("app_passwords")
      .innerJoin("users", "users.id", "app_passwords.user_id")
      .select(USER_FIELDS.map((f) => `users.${f}` as const))
      .select(["app_passwords.id as app_password_id", "app_passwords.last_used_at"])
      .where("app_passwords.password_hash", "=", this.hash(password))
      .executeTakeFirst();
    if (!row || row.username !== username || row.disabled === 1) return null;
    const now = new Date();
    if (!row.last_used_at || now.getTime() - Date.parse(row.last_used_at) > LAST_USED_RESOLUTION_MS) {
      await this.db
        .updateTable("app_passwords")
        .set({ last_used_at: nowIso(now) })
        .where("id", "=", row.app_password_id)
        .execute();
    }
    const { app_password_id: _id, last_used_at: _used, ...user } = row;
    return user;
  }
}
