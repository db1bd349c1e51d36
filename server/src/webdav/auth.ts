/**
 * Who is calling /dav. The same credentials as the API (Basic with the admin
 * username and password or with an API key as password, Bearer admin token,
 * `ApiKey` header), resolved by the same code (parseCredentials /
 * resolvePrincipal); nothing is remembered per client IP or user agent, so a
 * request without credentials is always anonymous.
 *
 * Basic needs one speed-up: WebDAV clients send the password with every
 * request, and checking it is a deliberately slow scrypt (or, when the
 * password is an API key, a decoy scrypt before the key lookup). So this
 * module keeps a short-lived in-memory map from a hash of the exact
 * `user:password` pair to what it proved. An admin entry stands for
 * TTL seconds at most (a password change takes that long to reach an instance
 * that cached the old one); an API-key entry only skips the scrypt and the
 * key itself is looked up again on every request, so revocation, expiry and
 * permission changes apply at once. Failed Basic attempts are rate-limited
 * per client IP in the database (RATE_LIMITS.webdavAuth).
 */
import { createHash } from "node:crypto";
import type { Principal } from "../auth/principal";
import { RATE_LIMITS } from "../auth/rate-limiter";
import type { AppContext } from "../context";
import { type Credentials, parseCredentials, resolvePrincipal } from "../http/middleware/authenticate";

const CACHE_TTL_MS = 60_000;
const CACHE_MAX = 1000;

type Proven = { kind: "admin"; principal: Extract<Principal, { kind: "admin" }> } | { kind: "apiKey" };

export class DavAuthenticator {
  private readonly verified = new Map<string, { proven: Proven; until: number }>();

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
    if (creds.scheme !== "basic") return resolvePrincipal(this.ctx, creds);
    return this.basic(creds, clientIp);
  }

  private async basic(
    creds: Extract<Credentials, { scheme: "basic" }>,
    clientIp: string,
  ): Promise<Principal> {
    const cacheKey = createHash("sha256")
      .update(creds.username)
      .update("\0")
      .update(creds.password)
      .digest("base64");
    const hit = this.verified.get(cacheKey);
    if (hit && hit.until > this.now()) {
      if (hit.proven.kind === "admin") return hit.proven.principal;
      const key = await this.ctx.apiKeys.authenticate(creds.password);
      if (key) return { kind: "apiKey", key };
      this.verified.delete(cacheKey);
      return { kind: "anonymous", authFailure: "invalid_credentials" };
    }
    // Throws 429 with Retry-After once this address has failed too often.
    await this.ctx.rateLimiter.assertAllowed(RATE_LIMITS.webdavAuth, clientIp);
    const principal = await resolvePrincipal(this.ctx, creds);
    if (principal.kind === "anonymous") {
      await this.ctx.rateLimiter.recordFailure(RATE_LIMITS.webdavAuth, clientIp);
      return principal;
    }
    this.remember(cacheKey, principal.kind === "admin" ? { kind: "admin", principal } : { kind: "apiKey" });
    return principal;
  }

  private remember(cacheKey: string, proven: Proven): void {
    const now = this.now();
    if (this.verified.size >= CACHE_MAX) {
      for (const [k, v] of this.verified) if (v.until <= now) this.verified.delete(k);
      // Still full: drop the oldest entries (Map keeps insertion order).
      for (const k of this.verified.keys()) {
        if (this.verified.size < CACHE_MAX) break;
        this.verified.delete(k);
      }
    }
    this.verified.set(cacheKey, { proven, until: now + CACHE_TTL_MS });
  }
}
