import { describe, expect, it } from "vitest";
import { validateAccountForm } from "./account-form-model";

describe("the sign-in change form", () => {
  it("needs the current password and a new name or password, confirmed and different", () => {
    const empty = { currentPassword: "", newUsername: "", newPassword: "", confirmPassword: "" };
    expect(validateAccountForm(empty)).toEqual({ currentPassword: "required", form: "nothingToChange" });
    expect(
      validateAccountForm({
        ...empty,
        currentPassword: "old-secret",
        newPassword: "old-secret",
        confirmPassword: "old-secret",
      }).newPassword,
    ).toBe("samePassword");
    expect(
      validateAccountForm({
        ...empty,
        currentPassword: "a",
        newPassword: "new-secret",
        confirmPassword: "other",
      }).confirmPassword,
    ).toBe("mismatch");
    expect(
      validateAccountForm({ ...empty, currentPassword: "a", newPassword: "short", confirmPassword: "short" })
        .newPassword,
    ).toBe("passwordTooShort");
    expect(validateAccountForm({ ...empty, currentPassword: "a", newUsername: "root" })).toEqual({});
  });
});
