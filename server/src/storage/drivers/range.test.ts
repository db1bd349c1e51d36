import { describe, expect, it } from "vitest";
import { resolveRange } from "./range";

describe("resolveRange", () => {
  it("follows HTTP range rules", () => {
    expect(resolveRange(10)).toEqual({ start: 0, end: 9, contentLength: 10, partial: false });
    expect(resolveRange(0)).toEqual({ start: 0, end: -1, contentLength: 0, partial: false });
    expect(resolveRange(10, { start: 9 })).toMatchObject({ start: 9, end: 9, contentLength: 1 });
    expect(resolveRange(10, { suffix: 50 })).toMatchObject({ start: 0, end: 9, partial: true });
    expect(() => resolveRange(10, { start: 10 })).toThrow(expect.objectContaining({ status: 416 }));
    expect(() => resolveRange(0, { start: 0 })).toThrow(expect.objectContaining({ status: 416 }));
    expect(() => resolveRange(10, { suffix: 0 })).toThrow(expect.objectContaining({ status: 416 }));
    expect(() => resolveRange(10, { start: 5, end: 2 })).toThrow(expect.objectContaining({ status: 400 }));
    expect(() => resolveRange(10, { start: -1 })).toThrow(expect.objectContaining({ status: 400 }));
  });
});
