import { describe, expect, it } from "vitest";
import { bytesFromInput, formatBytes, formatSpeed, inputFromBytes } from "./file-size";

describe("formatBytes", () => {
  it("uses binary steps and at most three significant digits", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(512)).toBe("512 B");
    expect(formatBytes(1023)).toBe("1023 B");
    expect(formatBytes(1024)).toBe("1 KB");
    expect(formatBytes(1536)).toBe("1.5 KB");
    expect(formatBytes(1024 * 15.25)).toBe("15.3 KB");
    expect(formatBytes(1024 * 152.4)).toBe("152 KB");
    expect(formatBytes(100 * 1024 ** 2)).toBe("100 MB");
    expect(formatBytes(1.25 * 1024 ** 3)).toBe("1.25 GB");
    expect(formatBytes(3 * 1024 ** 4)).toBe("3 TB");
  });
  it("is empty for missing or invalid sizes", () => {
    expect(formatBytes(null)).toBe("");
    expect(formatBytes(undefined)).toBe("");
    expect(formatBytes(-1)).toBe("");
    expect(formatBytes(Number.NaN)).toBe("");
  });
  it("formats speeds", () => {
    expect(formatSpeed(2.5 * 1024 * 1024)).toBe("2.5 MB/s");
    expect(formatSpeed(null)).toBe("");
  });
});

describe("typed sizes (quotas)", () => {
  it("turns amount and unit into bytes, refusing non-positive or non-numeric text", () => {
    expect(bytesFromInput("1", "GB")).toBe(1024 ** 3);
    expect(bytesFromInput(" 1.5 ", "MB")).toBe(1.5 * 1024 ** 2);
    expect(bytesFromInput("0", "GB")).toBeNull();
    expect(bytesFromInput("-3", "GB")).toBeNull();
    expect(bytesFromInput("ten", "GB")).toBeNull();
    expect(bytesFromInput("1e3", "GB")).toBeNull();
  });
  it("shows a byte count in the largest unit that stays exact", () => {
    expect(inputFromBytes(null)).toEqual({ amount: "", unit: "GB" });
    expect(inputFromBytes(2 * 1024 ** 4)).toEqual({ amount: "2", unit: "TB" });
    expect(inputFromBytes(1.5 * 1024 ** 3)).toEqual({ amount: "1.5", unit: "GB" });
    expect(inputFromBytes(300 * 1024 ** 2)).toEqual({ amount: "300", unit: "MB" });
    expect(inputFromBytes(12345)).toEqual({ amount: "0.01", unit: "MB" });
  });
});
