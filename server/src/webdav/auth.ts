/**
 * Who is calling /dav. Bearer session tokens and `ApiKey` headers resolve as on
 * the API (resolvePrincipal). HTTP Basic, which most WebDAV clients can only
 * send, is accepted here and nowhere else: an API key as the password (any
 * user name), or a user's name and password (what they may do is their grant,
 * as in the explorer). Nothing is remembered
 * per client IP or user agent, so a request without credentials is always
 * anonymous.
 *
 * - A key is looked up first: a keyed hash and an indexed read, no password
 *   hash, and the key itself is checked on every request, so revocation,
 *   expiry and permission changes apply at once.
 * - Otherwise it is a password guess: reserved against the WebDAV
 *   limit per (address, user name) and per address before the deliberately
 *   slow scrypt runs, so a flood of wrong passwords costs one database write
 *   per request once over the limit.
 * - WebDAV clients send the password with every request, so a proven
 *   pair is kept in memory for TTL under a SHA-256 of the exact
 *   `user:password`, with a stamp of the account (name, password, role, grant,
 *   disabled). Each hit checks the stamp against the database (one indexed
 *   read), so any such change revokes the entry at once on every instance.
 * - An account with a second factor is refused its password (401 `password_needs_second_factor`):
 *   Basic has no way to send a code. An API key or an app password as the password still works.
 * - An app password (users/app-password-service.ts) is looked up like a key, by its keyed hash,
 *   on every request (so revoking it applies at once), and must belong to the user named; a
 *   wrong one falls through to the password check, which counts it as a failed Basic sign-in.
 */
import { createHash } from "node:crypto";
import { type Credentials, parseCredentials, resolvePrincipal } from "../auth/credentials";
import type { Principal } from "../auth/principal";
import { accountIdOf } from "../auth/principal";
import { accountTarget, RATE_LIMITS } from "../auth/rate-limiter";
import type { AppContext } from "../context";
import type { VerifiedAccount } from "../domain/users/account-service";
import { userPrincipal } from "../domain/users/principals";

const CACHE_TTL_MS = 60_000;
const CACHE_MAX = 1000;

export class DavAuthenticator {
  private readonly verified = new Map<string, { admin: VerifiedAccount; until: number }>();

  constructor(
    private readonly ctx: AppContext,
    private readonly now: () => number = Date.now,
  ) {}

  /** The principal of a request; anonymous (with a reason) when credentials are missing or wrong. */
  async authenticate(
    authorization: string | undefined,
    customKey: string | undefined,
    clientIp: string,
  ): Promise<Principal> {
    const creds = parseCredentials(authorization, customKey);
    const principal =
      creds.scheme === "basic"
        ? await this.basic(creds, clientIp)
        : await resolvePrincipal(this.ctx, creds, clientIp);
    // An administrator still to set up a required second factor reaches no files this way either.
    return (await this.ctx.secondFactors.enrolmentDue(principal))
      ? { kind: "anonymous", authFailure: "second_factor_enrolment" }
      : principal;
  }

  private async basic(
    creds: Extract<Credentials, { scheme: "basic" }>,
    clientIp: string,
  ): Promise<Principal> {
    // The password may be an API key. An address locked out for this name (or for keys) learns
    // nothing from a right one; a wrong one is counted once, below, as a failed Basic sign-in.
    const who = { clientIp, target: accountTarget(creds.username) };
    await this.ctx.rateLimiter.refuseIfLocked(RATE_LIMITS.webdavAuth, who);
    await this.ctx.rateLimiter.refuseIfLocked(RATE_LIMITS.apiKey, { clientIp });
    const key = await this.ctx.apiKeys.authenticate(creds.password);
    if (key) return { kind: "apiKey", key };
    const owner = await this.ctx.appPasswords.verify(creds.username, creds.password);
    if (owner) return userPrincipal(owner);
    const cacheKey = createHash("sha256")
      .update(creds.username)
      .update("\0")
      .update(creds.password)
      .digest("base64");
    const hit = this.verified.get(cacheKey);
    if (hit && hit.until > this.now()) {
      const current = await this.ctx.accounts.credentialStamp(accountIdOf(hit.admin.principal)!);
      if (current === hit.admin.stamp) return this.unlessSecondFactor(hit.admin.principal);
    }
    if (hit) this.verified.delete(cacheKey);
    // Throws 429 with Retry-After, before hashing, once this address and name are over the limit.
    const admin = await this.ctx.rateLimiter.attempt(
      RATE_LIMITS.webdavAuth,
      { ...who, secret: creds.password },
      () => this.ctx.accounts.verifyCredentials(creds.username, creds.password),
    );
    if (!admin) return { kind: "anonymous", authFailure: "invalid_credentials" };
    this.remember(cacheKey, admin);
    return this.unlessSecondFactor(admin.principal);
  }

  /**
   * A password alone is not enough for an account with a second factor (Basic cannot ask for a
   * code): checked on every request, cached or not, so turning TOTP on refuses the password at once.
   */
  private async unlessSecondFactor(principal: Principal): Promise<Principal> {
    const due = await this.ctx.secondFactors.isDue(accountIdOf(principal)!);
    return due ? { kind: "anonymous", authFailure: "second_factor_password" } : principal;
  }

  private remember(cacheKey: string, admin: VerifiedAccount): void {
    const now = this.now();
    if (this.verified.size >= CACHE_MAX) {
      for (const [k, v] of this.verified) if (v.until <= now) this.verified.delete(k);
      // Still full: drop the oldest entries (Map keeps insertion order).
      for (const k of this.verified.keys()) {
        if (this.verified.size < CACHE_MAX) break;
        this.verified.delete(k);
      }
    }
    this.verified.set(cacheKey, { admin, until: now + CACHE_TTL_MS });
  }
}
