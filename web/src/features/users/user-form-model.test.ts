import { Permission } from "@clipshare/shared";
import { describe, expect, it } from "vitest";
import { createBody, emptyUserForm, invitationBody, updateBody, validateUserForm } from "./user-form-model";

describe("the user form", () => {
  it("sends the e-mail address single sign-on matches only when it changed, an empty one as null", () => {
    const initial = { ...emptyUserForm(), email: "ann@example.com" };
    expect(updateBody(initial, initial)).toEqual({});
    expect(updateBody({ ...initial, email: " bob@example.com " }, initial)).toEqual({
      email: "bob@example.com",
    });
    expect(updateBody({ ...initial, email: "" }, initial)).toEqual({ email: null });
  });

  it("asks a new user for a valid name and a password of 8 characters or more", () => {
    const v = { ...emptyUserForm(), username: "has space", password: "short" };
    expect(validateUserForm(v, "create")).toEqual({ username: "invalid", password: "tooShort" });
    expect(validateUserForm({ ...v, username: "ann", password: "long-enough" }, "create")).toEqual({});
  });

  it("leaves the password alone when editing unless one is typed", () => {
    expect(validateUserForm({ ...emptyUserForm(), username: "ann" }, "edit")).toEqual({});
    expect(validateUserForm({ ...emptyUserForm(), password: "abc" }, "edit")).toEqual({
      password: "tooShort",
    });
  });

  it("sends a guest only the bits a guest may hold", () => {
    const v = { ...emptyUserForm(), username: "g", password: "long-enough", role: "guest" as const };
    expect(createBody({ ...v, permissions: Permission.TEXT | Permission.MOUNT_VIEW })).toMatchObject({
      role: "guest",
      permissions: Permission.MOUNT_VIEW,
    });
  });

  it("sends only what changed", () => {
    const initial = { ...emptyUserForm(), username: "ann" };
    expect(updateBody({ ...initial, disabled: true }, initial)).toEqual({ disabled: true });
    expect(updateBody({ ...initial, basePath: "/team/" }, initial)).toEqual({ base_path: "/team" });
  });

  it("gives an invitation its lifetime in hours, 1 to 720", () => {
    expect(validateUserForm({ ...emptyUserForm(), hours: "0" }, "invite")).toEqual({ hours: "invalid" });
    expect(invitationBody({ ...emptyUserForm(), hours: "24", note: " hi " })).toMatchObject({
      expires_in_hours: 24,
      note: "hi",
      role: "user",
    });
  });
});
