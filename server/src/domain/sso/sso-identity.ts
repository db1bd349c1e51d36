/**
 * Who a person the provider vouched for is here: the user linked to their issuer + subject; on
 * a first sign-in the user an administrator gave their (verified) e-mail address; otherwise,
 * when the settings allow it, a new user without a password. With a role claim set, every
 * sign-in gives the user the role the claim names now. Every refusal is an AppError the
 * callback turns into the sign-in error page.
 */
import { randomUUID } from "node:crypto";
import { type ErrorCode, type Role, USERNAME_PATTERN } from "@clipshare/shared";
import type { Db } from "../../db/database";
import { nowIso } from "../../db/database";
import type { UserRow } from "../../db/schema";
import { isUniqueViolation } from "../../db/sql-helpers";
import { AppError } from "../../errors";
import type { Logger } from "../../logger";
import { accountDisabled } from "../users/account-service";
import { USER_FIELDS, type UserFields } from "../users/principals";
import { storedGrant, type UserService } from "../users/user-service";
import type { ActiveProvider } from "./sso-settings";

export type Claims = Record<string, unknown>;

const refused = (status: number, error: ErrorCode, message: string) => new AppError(status, error, message);

/** The verified e-mail address in the claims (lower-case), or null. */
function verifiedEmail(claims: Claims): string | null {
  const email = typeof claims.email === "string" ? claims.email.trim().toLowerCase() : "";
  // A provider that does not say whether it verified the address is taken at its word.
  return email.includes("@") && claims.email_verified !== false ? email : null;
}

/** The role the claims name (a string or a list of strings), else the settings' default. */
export function roleFromClaims(provider: ActiveProvider, claims: Claims): Role {
  if (!provider.roleClaim) return provider.defaultRole;
  const raw = claims[provider.roleClaim];
  const values = (Array.isArray(raw) ? raw : [raw]).filter((v): v is string => typeof v === "string");
  // The strongest role any value maps to wins.
  for (const role of ["admin", "user", "guest"] as const) {
    if (values.some((v) => provider.roleValues[role].includes(v))) return role;
  }
  return provider.defaultRole;
}

/** A free user name from what the provider calls the person (their name, their address, the subject). */
async function freeUsername(db: Db, claims: Claims, subject: string): Promise<string> {
  const wanted = [claims.preferred_username, claims.email, `sso-${subject}`]
    .filter((v): v is string => typeof v === "string")
    .map((v) => v.replace(/[^A-Za-z0-9_.@-]/g, "").slice(0, 56))
    .find((v) => USERNAME_PATTERN.test(v));
  const base = wanted ?? `sso-${randomUUID().slice(0, 8)}`;
  for (let n = 1; n < 100; n++) {
    const name = n === 1 ? base : `${base}-${n}`;
    const taken = await db.selectFrom("users").select("id").where("username", "=", name).executeTakeFirst();
    if (!taken) return name;
  }
  return `${base}-${randomUUID().slice(0, 8)}`;
}

export class SsoIdentities {
  constructor(
    private readonly db: Db,
    private readonly users: Pick<UserService, "update">,
    private readonly log: Logger,
  ) {}

  async resolve(
    provider: ActiveProvider,
    issuer: string,
    subject: string,
    claims: Claims,
  ): Promise<UserFields> {
    const email = verifiedEmail(claims);
    if (provider.allowedDomains.length > 0) {
      if (!email) throw refused(403, "sso_email_missing", "The provider gave no verified e-mail address");
      if (!provider.allowedDomains.includes(email.slice(email.lastIndexOf("@") + 1)))
        throw refused(403, "sso_domain_not_allowed", "Your e-mail domain may not sign in here");
    }
    const linked = await this.linked(issuer, subject);
    if (linked) return this.withClaimedRole(provider, claims, usable(linked));
    const byEmail = email
      ? await this.db.selectFrom("users").select(USER_FIELDS).where("email", "=", email).executeTakeFirst()
      : undefined;
    if (byEmail) {
      const other = await this.db
        .selectFrom("user_identities")
        .select("subject")
        .where("user_id", "=", byEmail.id)
        .where("issuer", "=", issuer)
        .executeTakeFirst();
      if (other)
        throw refused(
          409,
          "sso_user_taken",
          "An account with your e-mail address is already linked to another sign-in",
        );
      usable(byEmail);
      await this.link(issuer, subject, byEmail.id);
      return this.withClaimedRole(provider, claims, (await this.linked(issuer, subject)) ?? byEmail);
    }
    if (!provider.autoCreate)
      throw refused(
        403,
        "sso_unknown_user",
        "No account here matches you; ask an administrator to create or invite you",
      );
    return this.create(provider, issuer, subject, claims, email);
  }

  /**
   * The provider decides the role when a role claim is set: a changed one is stored through the
   * users' own update (their sessions end, the grant follows the role). The last active
   * administrator keeps the role (409 last_admin there), so a provider's mistake cannot leave
   * the server without one; a disabled user was refused before this.
   */
  private async withClaimedRole(provider: ActiveProvider, claims: Claims, user: UserFields) {
    if (!provider.roleClaim) return user;
    const role = roleFromClaims(provider, claims);
    if (role === user.role) return user;
    try {
      const changed = await this.users.update(user.id, { role });
      return { ...user, role: changed.role, permissions: changed.permissions, base_path: changed.base_path };
    } catch (e) {
      if (!(e instanceof AppError) || e.error !== "last_admin") throw e;
      this.log.warn({ user: user.username, role }, "Single sign-on kept the last administrator's role");
      return user;
    }
  }

  private linked(issuer: string, subject: string): Promise<UserFields | undefined> {
    return this.db
      .selectFrom("user_identities")
      .innerJoin("users", "users.id", "user_identities.user_id")
      .select(USER_FIELDS.map((f) => `users.${f}` as const))
      .where("user_identities.issuer", "=", issuer)
      .where("user_identities.subject", "=", subject)
      .executeTakeFirst();
  }

  /** A second callback of the same person racing this one finds the link it made. */
  private async link(issuer: string, subject: string, userId: string): Promise<void> {
    await this.db
      .insertInto("user_identities")
      .values({ issuer, subject, user_id: userId, created_at: nowIso() })
      .onConflict((oc) => oc.columns(["issuer", "subject"]).doNothing())
      .execute();
  }

  /** A new user without a password (password sign-in says so until an administrator sets one). */
  private async create(
    provider: ActiveProvider,
    issuer: string,
    subject: string,
    claims: Claims,
    email: string | null,
  ): Promise<UserFields> {
    const role = roleFromClaims(provider, claims);
    const now = nowIso();
    const emailFree =
      email &&
      !(await this.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirst());
    const displayName = typeof claims.name === "string" ? claims.name.trim().slice(0, 100) || null : null;
    const row: UserRow = {
      id: randomUUID(),
      username: await freeUsername(this.db, claims, subject),
      password_hash: "",
      role,
      display_name: displayName,
      email: emailFree ? email : null,
      disabled: 0,
      ...storedGrant(role, undefined, "/"),
      quota_bytes: null,
      last_login_at: null,
      created_at: now,
      updated_at: now,
    };
    try {
      await this.db.transaction().execute(async (trx) => {
        await trx.insertInto("users").values(row).execute();
        await trx
          .insertInto("user_identities")
          .values({ issuer, subject, user_id: row.id, created_at: now })
          .execute();
      });
    } catch (e) {
      // The same person's other sign-in (another tab, another instance) made the user first.
      if (!isUniqueViolation(e)) throw e;
      const made = await this.linked(issuer, subject);
      if (made) return usable(made);
      throw e;
    }
    return row;
  }
}

function usable(user: UserFields): UserFields {
  if (user.disabled === 1) throw accountDisabled();
  return user;
}
