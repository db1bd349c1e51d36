import { lastUtcDays } from "@clipshare/shared";
import { describe, expect, it } from "vitest";
import { activityDays, activityTotals, chartScaleMax, hitRatePercent, quotaPercent } from "./dashboard-model";

const day = (pastes: number, files = 0) => ({ date: "2026-11-23", pastes, files });

describe("activityDays", () => {
  const now = new Date("2026-11-23T01:30:00+02:00"); // still 22 November in UTC

  it("uses the server's dates and counts as they are", () => {
    const days = [
      "2026-11-17",
      "2026-11-18",
      "2026-11-19",
      "2026-11-20",
      "2026-11-21",
      "2026-11-22",
      "2026-11-23",
    ];
    const out = activityDays(
      { days, lastWeekPastes: [0, 1, 2, 3, 4, 5, 6], lastWeekFiles: [6, 5, 4, 3, 2, 1, 0] },
      now,
    );
    expect(out.map((d) => d.date)).toEqual(days);
    expect(out[6]).toEqual({ date: "2026-11-23", pastes: 6, files: 0 });
    expect(out[0]).toEqual({ date: "2026-11-17", pastes: 0, files: 6 });
  });

  it("derives seven UTC dates ending today when a 0.7.3 server sends none", () => {
    const out = activityDays(
      { lastWeekPastes: [1, 0, 0, 0, 0, 0, 2], lastWeekFiles: [0, 0, 0, 0, 0, 0, 1] },
      now,
    );
    expect(out.map((d) => d.date)).toEqual([
      "2026-11-16",
      "2026-11-17",
      "2026-11-18",
      "2026-11-19",
      "2026-11-20",
      "2026-11-21",
      "2026-11-22",
    ]);
    expect(out[6]).toMatchObject({ pastes: 2, files: 1 });
    expect(out[0]).toMatchObject({ pastes: 1, files: 0 });
  });

  it("fills short or missing arrays with zeros, keeping the last entry on today", () => {
    const out = activityDays({ lastWeekPastes: [3, 4], lastWeekFiles: undefined }, now);
    expect(out).toHaveLength(7);
    expect(out.map((d) => d.pastes)).toEqual([0, 0, 0, 0, 0, 3, 4]);
    expect(out.map((d) => d.files)).toEqual([0, 0, 0, 0, 0, 0, 0]);
  });

  it("keeps the newest seven of a longer array and turns junk into zero", () => {
    const out = activityDays({ lastWeekPastes: [9, 9, 1, 2, "x", -4, null, 6.7, 7] }, now);
    expect(out.map((d) => d.pastes)).toEqual([1, 2, 0, 0, 0, 6, 7]);
  });

  it("ignores a dates list of the wrong length", () => {
    const out = activityDays({ days: ["2026-11-23"], lastWeekPastes: [], lastWeekFiles: [] }, now);
    expect(out[6]?.date).toBe("2026-11-22");
  });
});

describe("lastUtcDays", () => {
  it("crosses month and year ends", () => {
    expect(lastUtcDays(new Date("2027-01-02T12:00:00Z"))).toEqual([
      "2026-12-27",
      "2026-12-28",
      "2026-12-29",
      "2026-12-30",
      "2026-12-31",
      "2027-01-01",
      "2027-01-02",
    ]);
  });
});

describe("chartScaleMax", () => {
  it("draws a grid for an empty week", () => {
    expect(chartScaleMax([day(0), day(0)])).toBe(4);
  });
  it("rounds the peak up to four even steps", () => {
    expect(chartScaleMax([day(3, 4)])).toBe(4);
    expect(chartScaleMax([day(5)])).toBe(8);
    expect(chartScaleMax([day(1, 9)])).toBe(10);
    expect(chartScaleMax([day(17)])).toBe(20);
    expect(chartScaleMax([day(33)])).toBe(40);
    expect(chartScaleMax([day(101)])).toBe(200);
    expect(chartScaleMax([day(1234)])).toBe(2000);
  });
  it("never cuts off the peak and divides into whole gridlines", () => {
    for (let peak = 0; peak <= 5000; peak += 7) {
      const max = chartScaleMax([day(peak)]);
      expect(max).toBeGreaterThanOrEqual(peak);
      expect(Number.isInteger(max / 4)).toBe(true);
    }
  });
});

describe("figures", () => {
  it("totals the week", () => {
    expect(activityTotals([day(1, 2), day(3, 4)])).toEqual({ pastes: 4, files: 6 });
  });
  it("gives a quota percent only when there is a quota", () => {
    expect(quotaPercent({ usedStorage: 50, totalStorage: 200 })).toBe(25);
    expect(quotaPercent({ usedStorage: 500, totalStorage: 200 })).toBe(100);
    expect(quotaPercent({ usedStorage: 5, totalStorage: null })).toBeNull();
    expect(quotaPercent({ usedStorage: 5, totalStorage: 0 })).toBeNull();
  });
  it("turns a hit rate into a percent", () => {
    expect(hitRatePercent(0.756)).toBe(76);
    expect(hitRatePercent(undefined)).toBe(0);
    expect(hitRatePercent(Number.NaN)).toBe(0);
  });
});
