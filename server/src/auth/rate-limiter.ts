/**
 * Fixed-window failure counters kept in the database so limits hold across
 * server instances. Only failures are counted: a correct password never locks
 * anybody out on its own.
 */
import { sql } from "kysely";
import type { Db } from "../db/database";
import { tooManyRequests } from "../errors";

export interface RateLimitRule {
  bucket: string;
  maxFailures: number;
  windowMs: number;
}

export const RATE_LIMITS = {
  adminLogin: { bucket: "admin_login", maxFailures: 5, windowMs: 15 * 60_000 },
  apiKeyTest: { bucket: "api_key_test", maxFailures: 5, windowMs: 15 * 60_000 },
  sharePassword: { bucket: "share_password", maxFailures: 10, windowMs: 15 * 60_000 },
  webdavAuth: { bucket: "webdav_auth", maxFailures: 10, windowMs: 15 * 60_000 },
} satisfies Record<string, RateLimitRule>;

export class RateLimiter {
  private lastSweep = 0;
  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  /** Throws 429 (with Retry-After) when the subject has used up its failures. */
  async assertAllowed(rule: RateLimitRule, subject: string): Promise<void> {
    const row = await this.db
      .selectFrom("rate_limits")
      .select(["count", "reset_at"])
      .where("bucket", "=", rule.bucket)
      .where("subject", "=", subject)
      .executeTakeFirst();
    const now = this.now();
    if (row && row.reset_at > now && row.count >= rule.maxFailures) {
      throw tooManyRequests(Math.max(1, Math.ceil((row.reset_at - now) / 1000)));
    }
  }

  async recordFailure(rule: RateLimitRule, subject: string): Promise<void> {
    const now = this.now();
    const resetAt = now + rule.windowMs;
    await this.db
      .insertInto("rate_limits")
      .values({ bucket: rule.bucket, subject, count: 1, reset_at: resetAt })
      .onConflict((oc) =>
        oc.columns(["bucket", "subject"]).doUpdateSet({
          count: sql`case when rate_limits.reset_at <= ${now} then 1 else rate_limits.count + 1 end`,
          reset_at: sql`case when rate_limits.reset_at <= ${now} then ${resetAt} else rate_limits.reset_at end`,
        }),
      )
      .execute();
    await this.sweep(now);
  }

  async reset(rule: RateLimitRule, subject: string): Promise<void> {
    await this.db
      .deleteFrom("rate_limits")
      .where("bucket", "=", rule.bucket)
      .where("subject", "=", subject)
      .execute();
  }

  /** Drop expired windows now and then so the table stays small. */
  private async sweep(now: number): Promise<void> {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    await this.db.deleteFrom("rate_limits").where("reset_at", "<", now).execute();
  }
}
