/**
 * Shaping the dashboard's figures for display. Pure, so it is unit-tested.
 */
import { DASHBOARD_DAYS, lastUtcDays } from "@clipshare/shared";
import { intlLocale } from "../../lib/format";
import type { BucketUsage } from "./api/dashboard";

export interface ActivityDay {
  /** UTC date, YYYY-MM-DD. */
  date: string;
  pastes: number;
  files: number;
}

const countAt = (values: readonly unknown[] | undefined, index: number) => {
  const n = Number(values?.[index]);
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
};

/**
 * Seven days of activity, oldest first. The server sends two arrays of counts aligned to the right
 * (the last entry is today); a 0.7.3 server sends no dates, so they are derived from `now`. Short or
 * missing arrays count as zero, longer ones keep their last seven entries.
 */
export function activityDays(
  stats: {
    days?: readonly string[];
    lastWeekPastes?: readonly unknown[];
    lastWeekFiles?: readonly unknown[];
  },
  now = new Date(),
): ActivityDay[] {
  const serverDays = stats.days?.length === DASHBOARD_DAYS ? stats.days : null;
  const dates = serverDays ? [...serverDays] : lastUtcDays(now);
  const pastes = stats.lastWeekPastes ?? [];
  const files = stats.lastWeekFiles ?? [];
  return dates.map((date, i) => ({
    date,
    pastes: countAt(pastes, pastes.length - DASHBOARD_DAYS + i),
    files: countAt(files, files.length - DASHBOARD_DAYS + i),
  }));
}

/**
 * The top of the chart's scale: the largest daily count rounded up to a step that divides into
 * four even gridlines (4, 8, 20, 40, 100, …), at least 4 so an empty week still draws a grid.
 */
export function chartScaleMax(days: readonly ActivityDay[]): number {
  const peak = Math.max(0, ...days.flatMap((d) => [d.pastes, d.files]));
  if (peak <= 4) return 4;
  const magnitude = 10 ** Math.floor(Math.log10(peak / 4));
  for (const step of [1, 2, 2.5, 5, 10]) {
    const max = step * magnitude * 4;
    if (max >= peak && Number.isInteger(max)) return max;
  }
  return Math.ceil(peak / 4) * 4;
}

/** Totals of the week, for the chart's text alternative. */
export function activityTotals(days: readonly ActivityDay[]): { pastes: number; files: number } {
  return days.reduce((sum, d) => ({ pastes: sum.pastes + d.pastes, files: sum.files + d.files }), {
    pastes: 0,
    files: 0,
  });
}

/** Percent of the quota in use (0-100), or null when the config has no quota. */
export function quotaPercent(bucket: Pick<BucketUsage, "usedStorage" | "totalStorage">): number | null {
  const total = Number(bucket.totalStorage);
  if (!Number.isFinite(total) || total <= 0) return null;
  return Math.min(100, Math.round((Math.max(0, bucket.usedStorage) / total) * 100));
}

/** A cache's hit rate (0-1) as a whole percent; 0 when it has not been asked yet. */
export function hitRatePercent(hitRate: number | null | undefined): number {
  return Number.isFinite(hitRate) ? Math.round(Math.min(1, Math.max(0, Number(hitRate))) * 100) : 0;
}

/** "Mon 11/23"-style short labels for the chart's axis, in the UI language, of UTC dates. */
export function dayLabel(date: string, language: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(d.getTime())) return date;
  return new Intl.DateTimeFormat(intlLocale(language), {
    weekday: "short",
    timeZone: "UTC",
  }).format(d);
}
