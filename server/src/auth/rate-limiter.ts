/**
 * Fixed-window attempt counters for every secret check, kept in the database
 * so limits hold across server instances.
 *
 * An attempt is reserved before anything is verified: one upsert increments
 * the counter and returns it, so however many requests race, only the first
 * `maxFailures` of a window are ever verified and the rest get 429 without
 * costing a password hash. A subject already over its limit is refused after
 * a plain read, before any write. A successful attempt gives its reservation back,
 * so a correct password never locks anybody out on its own.
 *
 * Every attempt counts twice: against its target (an account name, a share)
 * from this address, and against the address alone. The first limits guessing
 * one secret; the second bounds the hashing one address can cause by cycling
 * targets (unknown user names are verified against a decoy hash).
 */
import { sql } from "kysely";
import type { Db } from "../db/database";
import { tooManyRequests } from "../errors";
import { sha256Hex } from "../lib/crypto";
import { metrics } from "../lib/metrics";

export interface RateLimitRule {
  bucket: string;
  maxFailures: number;
  windowMs: number;
}

const FIFTEEN_MINUTES = 15 * 60_000;

export const RATE_LIMITS = {
  adminLogin: { bucket: "admin_login", maxFailures: 5, windowMs: FIFTEEN_MINUTES },
  sharePassword: { bucket: "share_password", maxFailures: 10, windowMs: FIFTEEN_MINUTES },
  folderPassword: { bucket: "folder_password", maxFailures: 10, windowMs: FIFTEEN_MINUTES },
  webdavAuth: { bucket: "webdav_auth", maxFailures: 10, windowMs: FIFTEEN_MINUTES },
  /** TOTP and recovery codes (sign-in, enrolment, turning it off), per account. */
  secondFactor: { bucket: "second_factor", maxFailures: 5, windowMs: FIFTEEN_MINUTES },
  /** API keys presented on any request (header, X-Custom-Auth-Key, WebDAV Basic password). */
  apiKey: { bucket: "api_key", maxFailures: 10, windowMs: FIFTEEN_MINUTES },
  /** Single sign-on's state on the way back from the provider, and its one-time hand-off code. */
  ssoCode: { bucket: "sso_code", maxFailures: 10, windowMs: FIFTEEN_MINUTES },
} satisfies Record<string, RateLimitRule>;

/** The target of second-factor checks (codes, passkeys): the account, whichever method is tried. */
export const secondFactorTarget = (userId: string) => `second-factor:${userId}`;

/** Failed secret checks of one address, whatever they target. */
const PER_ADDRESS: RateLimitRule = { bucket: "address", maxFailures: 100, windowMs: FIFTEEN_MINUTES };

/** Who makes an attempt on what: `target` is e.g. `paste:<slug>`; omit it when the address is the only key. */
export interface Attempt {
  clientIp: string;
  target?: string;
  /**
   * The secret tried. Concurrent attempts with the same secret on the same target are one guess:
   * they share one reservation and one check, so a client that opens many connections at once
   * with the right password (WebDAV, a video player) is not refused for its own parallelism.
   */
  secret?: string;
}

/** The target of a user-name guess. Only a digest is stored: people type passwords into name fields. */
export const accountTarget = (username: string) => `user:${sha256Hex(username).slice(0, 32)}`;

const retryLater = (resetAt: number, now: number) => {
  metrics.rateLimitRefused();
  return tooManyRequests(Math.max(1, Math.ceil((resetAt - now) / 1000)));
};

interface Held {
  rule: RateLimitRule;
  subject: string;
  resetAt: number;
}

export class RateLimiter {
  private lastSweep = 0;
  /** Checks under way in this process, by rule, address, target and a digest of the secret. */
  private readonly inFlight = new Map<string, Promise<unknown>>();
  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Reserves the attempt (429 with Retry-After when over a limit), runs `verify`
   * and gives the reservation back when its result is truthy (true, a principal).
   * A failed or throwing check keeps it: that is the failure being counted.
   */
  async attempt<T>(rule: RateLimitRule, who: Attempt, verify: () => Promise<T>): Promise<T> {
    if (who.secret === undefined) return this.reserveAndVerify(rule, who, verify);
    const key = [rule.bucket, who.clientIp, who.target ?? "", sha256Hex(who.secret)].join("\0");
    const pending = this.inFlight.get(key) as Promise<T> | undefined;
    if (pending) return pending;
    const run = this.reserveAndVerify(rule, who, verify).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, run);
    return run;
  }

  /**
   * For cheap checks made on every request (API keys): a locked-out address is refused before the
   * check, so a right guess tells it nothing, and only a failure is counted, so a valid key costs
   * one read and no write. A failure past the limit answers 429 like the ones refused up front:
   * however many race, only the first `maxFailures` are told that their key was wrong.
   */
  async attemptCountingFailures<T>(rule: RateLimitRule, who: Attempt, verify: () => Promise<T>): Promise<T> {
    const keys = this.subjects(rule, who);
    await this.refuseIfOver(keys);
    const result = await verify();
    if (!result) {
      const now = this.now();
      for (const [keyRule, subject] of keys) {
        const row = await this.increment(keyRule, subject, now);
        if (row.count > keyRule.maxFailures) throw retryLater(row.reset_at, now);
      }
      await this.sweep(now);
    }
    return result;
  }

  /**
   * A quota of uses rather than of failures (visitors' downloads): every call
   * counts against `who` alone (`maxFailures` is then the number of uses), and
   * one past the limit is 429 with Retry-After. A subject already over it is
   * refused after a read, with no write.
   */
  async take(rule: RateLimitRule, who: Attempt): Promise<void> {
    const key = this.subjects(rule, who)[0]!;
    await this.refuseIfOver([key]);
    const now = this.now();
    const row = await this.increment(rule, key[1], now);
    if (row.count > rule.maxFailures) throw retryLater(row.reset_at, now);
    await this.sweep(now);
  }

  private subjects(rule: RateLimitRule, who: Attempt): Array<[RateLimitRule, string]> {
    return [
      [rule, who.target === undefined ? who.clientIp : `${who.clientIp} ${who.target}`],
      [PER_ADDRESS, who.clientIp],
    ];
  }

  /** Throws 429 when `who` is over `rule` or the per-address limit; counts nothing. */
  refuseIfLocked(rule: RateLimitRule, who: Attempt): Promise<void> {
    return this.refuseIfOver(this.subjects(rule, who));
  }

  /** Already over a limit: refuse after a read, so a flood of doomed attempts causes no writes. */
  private async refuseIfOver(keys: Array<[RateLimitRule, string]>): Promise<void> {
    for (const [keyRule, subject] of keys) {
      const now = this.now();
      const row = await this.db
        .selectFrom("rate_limits")
        .select(["count", "reset_at"])
        .where("bucket", "=", keyRule.bucket)
        .where("subject", "=", subject)
        .executeTakeFirst();
      if (row && row.reset_at > now && row.count >= keyRule.maxFailures) throw retryLater(row.reset_at, now);
    }
  }

  private async reserveAndVerify<T>(rule: RateLimitRule, who: Attempt, verify: () => Promise<T>): Promise<T> {
    const held = await this.reserve(rule, who);
    const result = await verify();
    if (result) await this.release(held);
    return result;
  }

  /** Counts one attempt against the target and the address; throws 429 if either is over its limit. */
  private async reserve(rule: RateLimitRule, who: Attempt): Promise<Held[]> {
    const keys = this.subjects(rule, who);
    await this.refuseIfOver(keys);
    const held: Held[] = [];
    for (const [keyRule, subject] of keys) {
      const now = this.now();
      const row = await this.increment(keyRule, subject, now);
      if (row.count > keyRule.maxFailures) {
        // This attempt is refused, not made: the other counters should not carry it.
        await this.release(held);
        throw retryLater(row.reset_at, now);
      }
      held.push({ rule: keyRule, subject, resetAt: row.reset_at });
    }
    await this.sweep(this.now());
    return held;
  }

  /** Gives reservations back (only within the window they were taken in). */
  private async release(held: Held[]): Promise<void> {
    for (const { rule, subject, resetAt } of held) {
      await this.db
        .updateTable("rate_limits")
        .set({ count: sql`count - 1` })
        .where("bucket", "=", rule.bucket)
        .where("subject", "=", subject)
        .where("reset_at", "=", resetAt)
        .where("count", ">", 0)
        .execute();
    }
  }

  /** One statement on both dialects: insert or bump (restarting an elapsed window), returning the new count. */
  private increment(rule: RateLimitRule, subject: string, now: number) {
    const resetAt = now + rule.windowMs;
    return this.db
      .insertInto("rate_limits")
      .values({ bucket: rule.bucket, subject, count: 1, reset_at: resetAt })
      .onConflict((oc) =>
        oc.columns(["bucket", "subject"]).doUpdateSet({
          count: sql`case when rate_limits.reset_at <= ${now} then 1 else rate_limits.count + 1 end`,
          reset_at: sql`case when rate_limits.reset_at <= ${now} then ${resetAt} else rate_limits.reset_at end`,
        }),
      )
      .returning(["count", "reset_at"])
      .executeTakeFirstOrThrow();
  }

  /**
   * Clears an account's failure counters from every address (its password was just reset by
   * an operator), so its owner is not locked out by earlier guesses. Per-address counters stay.
   */
  async forgetAccount(username: string): Promise<void> {
    // Account subjects are "<address> user:<hex digest>": no LIKE wildcards in the pattern.
    await this.db
      .deleteFrom("rate_limits")
      .where("subject", "like", `% ${accountTarget(username)}`)
      .execute();
  }

  /** Drop elapsed windows now and then so the table stays small. */
  private async sweep(now: number): Promise<void> {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    await this.db.deleteFrom("rate_limits").where("reset_at", "<", now).execute();
  }
}
