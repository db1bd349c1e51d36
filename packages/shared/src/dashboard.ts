/** The admin dashboard's wire contract (GET /api/admin/dashboard/stats). */

/** The activity chart covers this many UTC days, today included. */
export const DASHBOARD_DAYS = 7;

/** How many of the newest shares the dashboard lists. */
export const DASHBOARD_RECENT_SHARES = 5;

/** The last `count` UTC dates (YYYY-MM-DD) ending with today, oldest first. */
export function lastUtcDays(now: Date, count = DASHBOARD_DAYS): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: count }, (_, i) =>
    new Date(today - (count - 1 - i) * 86_400_000).toISOString().slice(0, 10),
  );
}

/** One of the newest shares: enough to link to it, never its content or password hash. */
export interface RecentShare {
  type: "paste" | "file";
  id: string;
  slug: string;
  /** The paste's remark or the file's name; null for a paste without a remark. */
  title: string | null;
  /** Bytes of a file; null for a paste. */
  size: number | null;
  has_password: boolean;
  expires_at: string | null;
  created_at: string;
}
