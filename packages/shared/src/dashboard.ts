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
