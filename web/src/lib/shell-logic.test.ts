import { ALL_PERMISSIONS, Permission } from "@clipshare/shared";
import { describe, expect, it } from "vitest";
import { explorerUrl } from "../app/route-guards";
import {
  ADMIN_MODULE_IDS,
  allowedModules,
  defaultModule,
  modulePermission,
} from "../features/admin/modules/module-ids";
import { type AuthState, capabilitiesOf, parseKeyInfo, parsePermissionMask, SIGNED_OUT } from "./auth-state";
import { isValidBackendUrl, resolveBaseUrl } from "./runtime-config";
import { nextThemeMode, parseThemeMode } from "./theme";

const signedOut: AuthState = SIGNED_OUT;

const keyUser = (permissions: number, basic_path = "/"): AuthState => ({
  ...signedOut,
  authType: "apikey",
  apiKey: "k",
  permissions,
  keyInfo: { id: "1", name: "k", basic_path },
});

describe("theme", () => {
  it("cycles auto → light → dark → auto", () => {
    expect(nextThemeMode("auto")).toBe("light");
    expect(nextThemeMode("light")).toBe("dark");
    expect(nextThemeMode("dark")).toBe("auto");
    expect(parseThemeMode("purple")).toBe("auto");
  });
});

describe("backend base URL", () => {
  it("runtime config, then stored setting, then same origin", () => {
    expect(resolveBaseUrl({ apiBaseUrl: "https://a.test/" }, "https://b.test")).toEqual({
      url: "https://a.test",
      source: "runtime",
    });
    expect(resolveBaseUrl({ apiBaseUrl: "" }, "https://b.test")).toEqual({
      url: "https://b.test",
      source: "stored",
    });
    expect(resolveBaseUrl(undefined, null)).toEqual({ url: "", source: "default" });
    expect(resolveBaseUrl(undefined, "javascript:alert(1)")).toEqual({ url: "", source: "default" });
  });
  it("accepts only http(s) URLs", () => {
    expect(isValidBackendUrl("http://127.0.0.1:8787")).toBe(true);
    expect(isValidBackendUrl("ftp://x")).toBe(false);
    expect(isValidBackendUrl("https://x.test/?a=1")).toBe(false);
  });
});

describe("auth state", () => {
  it("reads the permission mask from either shape", () => {
    expect(parsePermissionMask({ permission_mask: 257 })).toBe(257);
    expect(parsePermissionMask({ permissions: 3 })).toBe(3);
    expect(parsePermissionMask({ permissions: { text: true, file: true } })).toBe(3);
    expect(parsePermissionMask({})).toBeNull();
    expect(parseKeyInfo({ name: "n", basic_path: "/a/" })).toEqual({ id: null, name: "n", basic_path: "/a" });
  });

  it("panel access: admin, or a key with text, file or mount permission", () => {
    expect(capabilitiesOf(signedOut).hasPanelAccess).toBe(false);
    expect(capabilitiesOf({ ...signedOut, authType: "admin", adminToken: "t" }).hasPanelAccess).toBe(true);
    expect(capabilitiesOf(keyUser(Permission.WEBDAV_READ)).hasPanelAccess).toBe(false);
    expect(capabilitiesOf(keyUser(Permission.MOUNT_RENAME)).hasPanelAccess).toBe(true);
  });

  it("modules follow the permissions", () => {
    const admin = capabilitiesOf({
      ...signedOut,
      authType: "admin",
      adminToken: "t",
      permissions: ALL_PERMISSIONS,
    });
    expect(allowedModules(admin)).toEqual(ADMIN_MODULE_IDS);
    expect(defaultModule(admin)).toBe("dashboard");
    const textOnly = capabilitiesOf(keyUser(Permission.TEXT));
    expect(allowedModules(textOnly)).toEqual(["text-management"]);
    expect(allowedModules(capabilitiesOf(keyUser(Permission.FILE_SHARE | Permission.MOUNT_VIEW)))).toEqual([
      "file-management",
      "file-requests",
      "collections",
      "mount-management",
    ]);
    expect(allowedModules(capabilitiesOf(keyUser(Permission.MOUNT_DELETE)))).toEqual(["mount-management"]);
  });

  it("a user's session opens what its grant allows, plus its own keys and profile, never the users", () => {
    const user = capabilitiesOf({
      ...signedOut,
      authType: "user",
      adminToken: "t",
      permissions: Permission.TEXT,
      userInfo: { id: "u", name: "ann", basicPath: "/team", role: "user" },
    });
    expect(user).toMatchObject({ isAuthenticated: true, isAdmin: false, isScoped: true, basicPath: "/team" });
    expect(allowedModules(user)).toEqual(["text-management", "key-management", "profile"]);
    expect(defaultModule(user)).toBe("text-management");
  });

  it("a locked module names the permission a key lacks, or none when only the administrator may open it", () => {
    expect(modulePermission("text-management")).toBe("TEXT");
    expect(modulePermission("file-management")).toBe("FILE_SHARE");
    expect(modulePermission("mount-management")).toBe("MOUNT_VIEW");
    expect(modulePermission("key-management")).toBeNull();
    expect(modulePermission("dashboard")).toBeNull();
  });
});

describe("explorer URLs", () => {
  it("encodes each segment", () => {
    expect(explorerUrl("/")).toBe("/mount-explorer");
    expect(explorerUrl("/team/a b/")).toBe("/mount-explorer/team/a%20b");
  });
});
