import { describe, expect, it } from "vitest";
import { effectiveSearch, pageCount, pageRange, searchTooShort } from "./list-model";

describe("list helpers", () => {
  it("searches only from two characters", () => {
    expect(effectiveSearch("")).toBeUndefined();
    expect(effectiveSearch(" a ")).toBeUndefined();
    expect(effectiveSearch(" ab ")).toBe("ab");
    expect(searchTooShort("")).toBe(false);
    expect(searchTooShort(" a ")).toBe(true);
    expect(searchTooShort("ab")).toBe(false);
  });

  it("computes the visible range", () => {
    expect(pageRange(1, 10, 0)).toEqual({ from: 0, to: 0 });
    expect(pageRange(2, 10, 4)).toEqual({ from: 11, to: 14 });
    expect(pageRange(1, 50, 50)).toEqual({ from: 1, to: 50 });
    expect(pageRange(6, 20, 20)).toEqual({ from: 101, to: 120 });
  });

  it("counts pages, at least one", () => {
    expect(pageCount(0, 10)).toBe(1);
    expect(pageCount(10, 10)).toBe(1);
    expect(pageCount(11, 10)).toBe(2);
  });
});
