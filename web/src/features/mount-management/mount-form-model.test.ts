import { describe, expect, it } from "vitest";
import { EMPTY_MOUNT_FORM, issueText, suggestedRoot, toRequest, validateMountForm } from "./mount-form-model";

const valid = { ...EMPTY_MOUNT_FORM, name: "Docs", mount_path: "/docs", storage_config_id: "cfg-1" };

describe("mount form", () => {
  it("sends the folder and the overlap confirmation; suggests a folder named after the mount path", () => {
    expect(toRequest({ ...valid, root: "/team/docs/", allow_overlap: true })).toMatchObject({
      root: "/team/docs/",
      allow_overlap: true,
    });
    expect(suggestedRoot("/team/docs")).toBe("team/docs");
    expect(suggestedRoot("/")).toBe("");
  });

  it("accepts a valid form and builds the request", () => {
    expect(validateMountForm(valid)).toEqual({});
    expect(toRequest({ ...valid, remark: " ", sign_expires: "60" })).toMatchObject({
      remark: null,
      sign_expires: 60,
      cache_ttl: 300,
    });
  });

  it.each([
    [{ name: "" }, "name", "mounts.errors.nameRequired"],
    [{ name: "x".repeat(51) }, "name", "mounts.errors.nameTooLong"],
    [{ mount_path: "docs" }, "mount_path", "mounts.errors.pathSlash"],
    [{ mount_path: "/" }, "mount_path", "mounts.errors.pathRoot"],
    [{ mount_path: "/a b" }, "mount_path", "mounts.errors.pathChars"],
    [{ mount_path: "/api" }, "mount_path", "mounts.errors.pathReserved"],
    [{ storage_config_id: "" }, "storage_config_id", "mounts.errors.configRequired"],
    [{ cache_ttl: "86401" }, "cache_ttl", "mounts.errors.cacheTtl"],
    [{ cache_ttl: "1.5" }, "cache_ttl", "mounts.errors.cacheTtl"],
    [{ sort_order: "first" }, "sort_order", "mounts.errors.sortOrder"],
    [{ root: ".clipshare-shares/x" }, "root", "mounts.errors.rootReserved"],
    [{ root: "a/../b" }, "root", "mounts.errors.rootDots"],
    [{ root: "a\\b" }, "root", "mounts.errors.rootChars"],
    [{ root: "x".repeat(513) }, "root", "mounts.errors.rootTooLong"],
  ] as const)("reports %j on %s", (patch, field, key) => {
    expect(validateMountForm({ ...valid, ...patch })[field]?.key).toBe(key);
  });

  it("keeps the reserved path for the message and passes unknown messages through", () => {
    expect(issueText("Mount path /dav is reserved by the system")).toMatchObject({
      values: { path: "/dav" },
    });
    expect(issueText("Folder .clipshare-shares is reserved by ClipShare")).toMatchObject({
      key: "mounts.errors.rootReserved",
      values: { path: ".clipshare-shares" },
    });
    expect(issueText("Something new")).toEqual({ key: null, message: "Something new", values: undefined });
  });
});
