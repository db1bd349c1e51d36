import { describe, expect, it } from "vitest";
import {
  ALL_PERMISSIONS,
  hasPermission,
  isAncestorOfBase,
  isPathWithinBase,
  isValidPermissionMask,
  maskFromFlags,
  normalizeBasePath,
  Permission,
  permissionFlags,
  permissionNames,
} from "./permissions";

describe("permission bits", () => {
  it("keep their wire values", () => {
    expect(Permission).toEqual({
      TEXT: 1,
      FILE_SHARE: 2,
      MOUNT_VIEW: 256,
      MOUNT_UPLOAD: 512,
      MOUNT_COPY: 1024,
      MOUNT_RENAME: 2048,
      MOUNT_DELETE: 4096,
      WEBDAV_READ: 65536,
      WEBDAV_MANAGE: 131072,
    });
    expect(ALL_PERMISSIONS).toBe(204547);
  });

  it("flags and masks round-trip for every single bit and for all bits", () => {
    for (const bit of [...Object.values(Permission), ALL_PERMISSIONS, 0]) {
      expect(maskFromFlags(permissionFlags(bit))).toBe(bit);
    }
  });

  it("the flag object carries both file_share and its alias file", () => {
    expect(permissionFlags(Permission.FILE_SHARE)).toMatchObject({
      file_share: true,
      file: true,
      text: false,
    });
    expect(maskFromFlags({ file: true })).toBe(Permission.FILE_SHARE);
  });

  it("hasPermission needs every required bit", () => {
    expect(hasPermission(Permission.TEXT | Permission.FILE_SHARE, Permission.TEXT)).toBe(true);
    expect(hasPermission(Permission.TEXT, Permission.TEXT | Permission.FILE_SHARE)).toBe(false);
  });

  it("rejects masks with unknown bits, negatives and non-integers", () => {
    expect(isValidPermissionMask(ALL_PERMISSIONS)).toBe(true);
    expect(isValidPermissionMask(4)).toBe(false);
    expect(isValidPermissionMask(-1)).toBe(false);
    expect(isValidPermissionMask(1.5)).toBe(false);
    expect(isValidPermissionMask("1")).toBe(false);
  });

  it("names set bits in table order", () => {
    expect(permissionNames(Permission.WEBDAV_READ | Permission.TEXT)).toEqual(["TEXT", "WEBDAV_READ"]);
  });
});

describe("base path rule", () => {
  it.each([
    ["/", "/anything/at/all", true],
    ["/", "/", true],
    ["/a", "/a", true],
    ["/a", "/a/", true],
    ["/a", "/a/b/c.txt", true],
    ["/a", "/ab", false],
    ["/a", "/ab/c", false],
    ["/a", "/", false],
    ["/a", "/b", false],
    ["/a/", "/a/b", true],
    ["/team/docs", "/team", false],
  ])("base %s, path %s → %s", (base, path, expected) => {
    expect(isPathWithinBase(base, path)).toBe(expected);
  });

  it("knows the ancestors of a base path (for navigating down to it)", () => {
    expect(isAncestorOfBase("/a/b", "/")).toBe(true);
    expect(isAncestorOfBase("/a/b", "/a")).toBe(true);
    expect(isAncestorOfBase("/a/b", "/a/b")).toBe(false);
    expect(isAncestorOfBase("/ab/c", "/a")).toBe(false);
  });

  it("normalizes slashes", () => {
    expect(normalizeBasePath("")).toBe("/");
    expect(normalizeBasePath("a//b/")).toBe("/a/b");
    expect(normalizeBasePath(null)).toBe("/");
  });
});
