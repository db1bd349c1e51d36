import { describe, expect, it } from "vitest";
import { displayPath, fromSubPath, isWithin, normalizeVirtualPath, subPathOf, vparent } from "./vpath";

describe("virtual paths", () => {
  it.each([
    ["/", "/"],
    ["", "/"],
    ["a/b", "/a/b"],
    ["//a///b/", "/a/b"],
    ["/资料/报告 2024.txt", "/资料/报告 2024.txt"],
    ["/100%.txt", "/100%.txt"],
    ["/a%20b", "/a%20b"],
  ])("normalizes %j to %j", (input, expected) => {
    expect(normalizeVirtualPath(input)).toBe(expected);
  });

  it.each([
    "/a/../b",
    "/a/./b",
    "..",
    "/a/%2e%2e/b",
    "/a/%2E%2E/b",
    "/a/%252e%252e/b",
    "/a/%2e/b",
    "/a/..%2fb",
    "/a/%5cb",
    "/a/%00",
    "/a\\b",
    "/a\u0000b",
    "/a\u001fb",
    `/${"x".repeat(256)}`,
    `/${"a/".repeat(1025)}`,
  ])("refuses %j", (input) => {
    expect(() => normalizeVirtualPath(input)).toThrow(
      expect.objectContaining({ status: 400, error: "invalid_path" }),
    );
  });

  it("knows what lies within what, and maps to and from mounts", () => {
    expect(isWithin("/a/b", "/a")).toBe(true);
    expect(isWithin("/ab", "/a")).toBe(false);
    expect(isWithin("/x", "/")).toBe(true);
    expect(subPathOf("/m", "/m")).toBe("");
    expect(subPathOf("/m/a/b", "/m")).toBe("a/b");
    expect(fromSubPath("/m", "a/b")).toBe("/m/a/b");
    expect(vparent("/a")).toBe("/");
    expect(vparent("/")).toBe("/");
    expect(displayPath("/a", true)).toBe("/a/");
    expect(displayPath("/", true)).toBe("/");
  });
});
