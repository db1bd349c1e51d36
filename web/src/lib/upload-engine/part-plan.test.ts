import { describe, expect, it } from "vitest";
import { MAX_PARTS, partSizeFor, plannedParts, planParts, usesMultipart } from "./part-plan";

const MiB = 1024 * 1024;

describe("part sizing", () => {
  it("uses 5 MiB parts while 10,000 of them suffice", () => {
    expect(partSizeFor(0)).toBe(5_242_880);
    expect(partSizeFor(300 * 1000 * 1000)).toBe(5 * MiB);
    expect(partSizeFor(5 * MiB * MAX_PARTS)).toBe(5 * MiB);
  });

  it("grows parts in whole MiB so a 60 GB file needs at most 10,000", () => {
    for (const size of [60e9, 5 * MiB * MAX_PARTS + 1, 5 * 1024 ** 4]) {
      const plan = planParts(size);
      expect(plan.partCount).toBeLessThanOrEqual(MAX_PARTS);
      expect(plan.partSize % MiB).toBe(0);
      expect(plan.partSize * plan.partCount).toBeGreaterThanOrEqual(size);
    }
    expect(planParts(60e9)).toMatchObject({ partSize: 6 * MiB, partCount: 9537 });
  });

  it("covers the file exactly, the last part holding the rest", () => {
    const parts = plannedParts(planParts(12 * MiB + 3));
    expect(parts.map((p) => p.size)).toEqual([5 * MiB, 5 * MiB, 2 * MiB + 3]);
    expect(parts[2]).toMatchObject({ partNumber: 3, start: 10 * MiB, end: 12 * MiB + 3 });
  });

  it("goes multipart only above two parts", () => {
    expect(usesMultipart(10 * MiB)).toBe(false);
    expect(usesMultipart(10 * MiB + 1)).toBe(true);
    expect(usesMultipart(0)).toBe(false);
  });
});
