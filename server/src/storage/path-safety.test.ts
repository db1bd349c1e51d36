import { describe, expect, it } from "vitest";
import { MAX_PATH_BYTES } from "./path-rules";
import { baseName, isSameOrInside, joinPath, normalizePath, parentPath } from "./path-safety";

describe("normalizePath", () => {
  it.each([
    ["", ""],
    [".", ""],
    ["a", "a"],
    ["a/b.txt", "a/b.txt"],
    ["a/b/", "a/b"],
    ["a//b///c", "a/b/c"],
    ["./a/./b", "a/b"],
    ["dir with space/文件 名.txt", "dir with space/文件 名.txt"],
    ["..hidden/...", "..hidden/..."],
    ["a/..b/c..", "a/..b/c.."],
    ["%2e%2e/x", "%2e%2e/x"],
  ])("normalizes %j to %j", (input, expected) => {
    expect(normalizePath(input)).toBe(expected);
  });

  it.each([
    ["..", "parent segment"],
    ["../x", "leading parent"],
    ["a/../b", "inner parent"],
    ["a/..", "trailing parent"],
    ["a/b/../../..", "deep parent"],
    ["/etc/passwd", "absolute"],
    ["/", "root slash"],
    ["a\\b", "backslash"],
    ["..\\x", "windows traversal"],
    ["a\0b", "NUL"],
    ["a\nb", "newline"],
    ["a\rb", "carriage return"],
    ["tab\there", "tab"],
    ["del\x7f", "DEL"],
    ["c1\u0085", "C1 control"],
  ])("refuses %j (%s)", (input) => {
    expect(() => normalizePath(input)).toThrow(
      expect.objectContaining({ status: 400, error: "invalid_path" }),
    );
  });

  it("limits total and segment length in UTF-8 bytes", () => {
    expect(normalizePath("a".repeat(255))).toHaveLength(255);
    expect(() => normalizePath("a".repeat(256))).toThrow(expect.objectContaining({ error: "invalid_path" }));
    // 86 three-byte characters = 258 bytes, though only 86 UTF-16 units.
    expect(() => normalizePath("文".repeat(86))).toThrow(expect.objectContaining({ error: "invalid_path" }));
    const deep = Array.from({ length: 8 }, () => "b".repeat(127)).join("/");
    expect(Buffer.byteLength(deep)).toBeLessThanOrEqual(MAX_PATH_BYTES);
    expect(normalizePath(deep)).toBe(deep);
    expect(() => normalizePath(`${deep}/ccc`)).toThrow(expect.objectContaining({ error: "invalid_path" }));
  });

  it("refuses non-strings", () => {
    expect(() => normalizePath(undefined as unknown as string)).toThrow(
      expect.objectContaining({ status: 400 }),
    );
  });
});

describe("path helpers", () => {
  it("joins, splits and compares normalized paths", () => {
    expect(joinPath("", "a", "", "b")).toBe("a/b");
    expect(parentPath("a/b/c")).toBe("a/b");
    expect(parentPath("a")).toBe("");
    expect(baseName("a/b/c.txt")).toBe("c.txt");
    expect(baseName("")).toBe("");
    expect(isSameOrInside("a/b", "a")).toBe(true);
    expect(isSameOrInside("a", "a")).toBe(true);
    expect(isSameOrInside("ab", "a")).toBe(false);
    expect(isSameOrInside("anything", "")).toBe(true);
  });
});
