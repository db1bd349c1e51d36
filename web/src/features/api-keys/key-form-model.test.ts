import { Permission } from "@clipshare/shared";
import { describe, expect, it } from "vitest";
import {
  createBody,
  emptyKeyForm,
  expiresAtFor,
  formFromRow,
  isExpired,
  isNeverExpiring,
  updateBody,
  validateKeyForm,
} from "./key-form-model";

const NOW = Date.parse("2026-01-01T00:00:00.000Z");

describe("API key form", () => {
  it("requires a name", () => {
    expect(validateKeyForm({ ...emptyKeyForm(), name: "  " }, "create").name).toBe("required");
  });

  it("checks the custom key only when the option is on", () => {
    const base = { ...emptyKeyForm(), name: "ci" };
    expect(validateKeyForm({ ...base, customKey: "bad key!" }, "create")).toEqual({});
    expect(validateKeyForm({ ...base, useCustomKey: true }, "create").customKey).toBe("required");
    expect(validateKeyForm({ ...base, useCustomKey: true, customKey: "bad key!" }, "create").customKey).toBe(
      "invalid",
    );
    expect(validateKeyForm({ ...base, useCustomKey: true, customKey: "ab" }, "create").customKey).toBe(
      "tooShort",
    );
    expect(validateKeyForm({ ...base, useCustomKey: true, customKey: "Good_key-123" }, "create")).toEqual({});
  });

  it("requires a whole number of days for a custom expiry", () => {
    const base = { ...emptyKeyForm(), name: "ci", expiry: "custom" as const };
    expect(validateKeyForm(base, "create").customDays).toBe("required");
    expect(validateKeyForm({ ...base, customDays: "1.5" }, "create").customDays).toBe("invalid");
    expect(validateKeyForm({ ...base, customDays: "0" }, "create").customDays).toBe("invalid");
    expect(validateKeyForm({ ...base, customDays: "14" }, "create")).toEqual({});
  });

  it("rejects base paths that do not start with / or contain dot segments", () => {
    const base = { ...emptyKeyForm(), name: "ci" };
    expect(validateKeyForm({ ...base, basePath: "docs" }, "create").basePath).toBe("invalid");
    expect(validateKeyForm({ ...base, basePath: "/a/../b" }, "create").basePath).toBe("invalid");
  });

  it("maps expiry choices to expires_at", () => {
    expect(expiresAtFor("never", "", NOW)).toBe("never");
    expect(expiresAtFor("1d", "", NOW)).toBe("2026-01-02T00:00:00.000Z");
    expect(expiresAtFor("30d", "", NOW)).toBe("2026-01-31T00:00:00.000Z");
    expect(expiresAtFor("custom", "3", NOW)).toBe("2026-01-04T00:00:00.000Z");
    expect(expiresAtFor("keep", "", NOW)).toBeUndefined();
  });

  it("builds the create body with the custom key only when chosen", () => {
    const body = createBody(
      {
        ...emptyKeyForm(),
        name: " ci ",
        permissions: Permission.TEXT | Permission.MOUNT_VIEW,
        basePath: "/docs/",
        expiry: "never",
        isGuest: true,
      },
      NOW,
    );
    expect(body).toEqual({
      name: "ci",
      permissions: 257,
      role: "GENERAL",
      basic_path: "/docs",
      is_guest: 1,
      expires_at: "never",
    });
    expect(
      createBody({ ...emptyKeyForm(), name: "x", useCustomKey: true, customKey: "abcdefgh" }, NOW).custom_key,
    ).toBe("abcdefgh");
  });

  it("keeps the expiry on edit unless changed", () => {
    const row = {
      id: "1",
      name: "k",
      key_masked: "abcdef...",
      permissions: 3,
      role: "ADMIN",
      basic_path: "/",
      is_guest: 0,
      last_used: null,
      expires_at: null,
    };
    const form = formFromRow(row);
    expect(form.role).toBe("ADMIN");
    expect(updateBody(form, NOW).expires_at).toBeUndefined();
    expect(updateBody({ ...form, expiry: "7d" }, NOW).expires_at).toBe("2026-01-08T00:00:00.000Z");
  });

  it("recognises never-expiring and expired keys", () => {
    expect(isNeverExpiring(null)).toBe(true);
    expect(isNeverExpiring("9999-12-31T23:59:59.000Z")).toBe(true);
    expect(isExpired("2025-12-31T00:00:00.000Z", NOW)).toBe(true);
    expect(isExpired("2026-02-01T00:00:00.000Z", NOW)).toBe(false);
  });
});
