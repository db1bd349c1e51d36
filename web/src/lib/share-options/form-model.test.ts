import { MAX_VIEWS_PROBLEM, PASTE_MAX_BYTES } from "@clipshare/shared";
import { describe, expect, it } from "vitest";
import type { PasteDetail } from "../pastes/api";
import { createBodyProblem, updateBodyProblem } from "../pastes/schema-check";
import {
  createBody,
  editFormFrom,
  emptyShareForm,
  expiresAtFor,
  isContentTooLarge,
  shareOptionFieldProblems,
  updateBody,
  validateEditForm,
  validateShareForm,
} from "./form-model";

const NOW = Date.parse("2026-01-31T10:00:00.000Z");

describe("expiry choice → ISO time", () => {
  it("never is null and keep is undefined", () => {
    expect(expiresAtFor("never", "5", NOW)).toBeNull();
    expect(expiresAtFor("keep", "5", NOW)).toBeUndefined();
  });

  it("adds hours, days and weeks", () => {
    expect(expiresAtFor("hours", "3", NOW)).toBe("2026-01-31T13:00:00.000Z");
    expect(expiresAtFor("days", "1", NOW)).toBe("2026-02-01T10:00:00.000Z");
    expect(expiresAtFor("weeks", "2", NOW)).toBe("2026-02-14T10:00:00.000Z");
  });

  it("adds calendar months, clamped to the end of a shorter month", () => {
    expect(expiresAtFor("months", "1", NOW)).toBe("2026-02-28T10:00:00.000Z");
    expect(expiresAtFor("months", "2", NOW)).toBe("2026-03-31T10:00:00.000Z");
    expect(expiresAtFor("months", "12", NOW)).toBe("2027-01-31T10:00:00.000Z");
  });

  it("gives nothing for an amount that is not a whole number from 1", () => {
    for (const bad of ["", "0", "-1", "1.5", "abc", "10000"]) {
      expect(expiresAtFor("days", bad, NOW)).toBeUndefined();
    }
  });
});

describe("share form validation", () => {
  const form = { ...emptyShareForm() };

  it("requires content that is not blank", () => {
    expect(validateShareForm("", form).content).toBe("required");
    expect(validateShareForm("  \n ", form).content).toBe("required");
    expect(validateShareForm("hello", form)).toEqual({});
  });

  it("checks the link suffix like the server", () => {
    const slugProblem = (slug: string) => shareOptionFieldProblems({ slug }).slug;
    expect(slugProblem("")).toBeUndefined();
    expect(slugProblem("my-notes_2")).toBeUndefined();
    expect(slugProblem("has space")).toBe("invalid");
    expect(slugProblem("ünïcode")).toBe("invalid");
    expect(slugProblem("a".repeat(51))).toBe("tooLong");
    expect(slugProblem("Admin")).toBe("reserved");
    expect(slugProblem("raw")).toBe("reserved");
    expect(validateShareForm("x", { ...form, slug: "bad/slug" }).slug).toBe("invalid");
  });

  it("checks the expiry amount and max views", () => {
    expect(validateShareForm("x", { ...form, expiryUnit: "days", expiryAmount: "" }).expiryAmount).toBe(
      "required",
    );
    expect(validateShareForm("x", { ...form, expiryUnit: "days", expiryAmount: "0" }).expiryAmount).toBe(
      "invalid",
    );
    expect(validateShareForm("x", { ...form, expiryUnit: "never", expiryAmount: "" })).toEqual({});
    expect(validateShareForm("x", { ...form, maxViews: "-1" }).maxViews).toBe("invalid");
    expect(validateShareForm("x", { ...form, maxViews: "2.5" }).maxViews).toBe("invalid");
    expect(validateShareForm("x", { ...form, maxViews: "2147483648" }).maxViews).toBe("invalid");
    expect(validateShareForm("x", { ...form, maxViews: "2147483647" })).toEqual({});
    expect(validateShareForm("x", { ...form, maxViews: "" })).toEqual({});
  });

  it("refuses texts over 10 MB (UTF-8 bytes)", () => {
    expect(isContentTooLarge("a".repeat(1000))).toBe(false);
    expect(isContentTooLarge("a".repeat(PASTE_MAX_BYTES))).toBe(false);
    expect(isContentTooLarge("a".repeat(PASTE_MAX_BYTES + 1))).toBe(true);
    // 3 bytes each in UTF-8: fewer characters, too many bytes.
    expect(isContentTooLarge("中".repeat(Math.ceil(PASTE_MAX_BYTES / 3) + 1))).toBe(true);
  });
});

describe("create body", () => {
  it("sends only what was filled in", () => {
    expect(createBody("hello", emptyShareForm(), NOW)).toEqual({ content: "hello" });
  });

  it("maps every field, and the shared schema accepts it", () => {
    const body = createBody(
      "# Title",
      {
        remark: "  notes ",
        slug: " team-notes ",
        password: "s3cret",
        expiryUnit: "hours",
        expiryAmount: "2",
        maxViews: "2",
        noLog: true,
      },
      NOW,
    );
    expect(body).toEqual({
      content: "# Title",
      remark: "notes",
      slug: "team-notes",
      password: "s3cret",
      expires_at: "2026-01-31T12:00:00.000Z",
      max_views: 2,
      no_log: true,
    });
    expect(createBodyProblem(body)).toBeUndefined();
  });

  it("the schema check reports what the server would refuse", () => {
    expect(createBodyProblem({ content: " " })).toBe("Content cannot be empty");
    expect(createBodyProblem({ content: "x", slug: "api" })).toMatch(/reserved/);
    expect(updateBodyProblem({ max_views: -1 })).toBe(MAX_VIEWS_PROBLEM);
    expect(updateBodyProblem({ max_views: 2_147_483_648 })).toBe(MAX_VIEWS_PROBLEM);
    expect(updateBodyProblem({ max_views: 2_147_483_647 })).toBeUndefined();
  });

  it("0 views means unlimited and is left out", () => {
    expect(createBody("x", { ...emptyShareForm(), maxViews: "0" }, NOW).max_views).toBeUndefined();
  });
});

describe("edit form", () => {
  const detail = {
    id: "p1",
    slug: "notes",
    content: "old text",
    remark: "r",
    has_password: true,
    expires_at: null,
    max_views: 5,
    views: 3,
  } as PasteDetail;

  it("sends nothing when nothing changed", () => {
    expect(updateBody(detail, editFormFrom(detail), NOW)).toEqual({});
  });

  it("sends only changed fields (a new view limit restarts counting on the server)", () => {
    const values = {
      ...editFormFrom(detail),
      content: "new text",
      slug: "renamed",
      maxViews: "0",
      expiryUnit: "days" as const,
      expiryAmount: "1",
      passwordAction: "clear" as const,
    };
    const body = updateBody(detail, values, NOW);
    expect(body).toEqual({
      content: "new text",
      new_slug: "renamed",
      max_views: 0,
      expires_at: "2026-02-01T10:00:00.000Z",
      clear_password: true,
    });
    expect(updateBodyProblem(body)).toBeUndefined();
  });

  it("can set expiry to never and a new password", () => {
    const values = { ...editFormFrom(detail), expiryUnit: "never" as const, passwordAction: "set" as const };
    expect(validateEditForm(values).password).toBe("required");
    const body = updateBody(detail, { ...values, password: "pw" }, NOW);
    expect(body).toEqual({ expires_at: null, password: "pw" });
  });

  it("applies the same rules as creating", () => {
    const base = editFormFrom(detail);
    expect(validateEditForm({ ...base, content: " " }).content).toBe("required");
    expect(validateEditForm({ ...base, slug: "" }).slug).toBe("required");
    expect(validateEditForm({ ...base, slug: "api" }).slug).toBe("reserved");
    expect(validateEditForm({ ...base, maxViews: "x" }).maxViews).toBe("invalid");
    expect(validateEditForm(base)).toEqual({});
  });
});
