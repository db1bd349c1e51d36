import { describe, expect, it } from "vitest";
import { shareOptions, shareOptionsEdit } from "./schemas/share-options";
import {
  MAX_VIEWS_MAX,
  MAX_VIEWS_PROBLEM,
  REMARK_MAX,
  REMARK_PROBLEM,
  SHARE_PASSWORD_MAX,
  shareOptionProblems,
  shareOptionProblemText,
  slugProblem,
} from "./share-rules";

/** Typed values at and around each limit, with whether the rules take them. */
const CASES = [
  { field: "remark", value: "r".repeat(REMARK_MAX), ok: true },
  { field: "remark", value: "r".repeat(REMARK_MAX + 1), ok: false },
  { field: "slug", value: "my-notes_2", ok: true },
  { field: "slug", value: "has space", ok: false },
  { field: "slug", value: "Admin", ok: false },
  { field: "slug", value: "s".repeat(51), ok: false },
  { field: "password", value: "p".repeat(SHARE_PASSWORD_MAX), ok: true },
  { field: "password", value: "p".repeat(SHARE_PASSWORD_MAX + 1), ok: false },
  { field: "max_views", value: String(MAX_VIEWS_MAX), ok: true },
  { field: "max_views", value: String(MAX_VIEWS_MAX + 1), ok: false },
  { field: "max_views", value: "1.5", ok: false },
  { field: "max_views", value: "0", ok: true },
] as const;

describe("share options: one rule for forms, the CLI and the server", () => {
  it.each(CASES)("the form check and the server schema agree on $field = $value", ({ field, value, ok }) => {
    expect(shareOptionProblems({ [field]: value })[field] === undefined).toBe(ok);
    expect(shareOptions.safeParse({ [field]: value }).success).toBe(ok);
    expect(shareOptionsEdit.safeParse({ [field]: value }).success).toBe(ok);
  });

  it("names each refused field with the server's own text", () => {
    const values = { remark: "r".repeat(REMARK_MAX + 1), slug: "raw", max_views: "-1" };
    const problems = shareOptionProblems(values);
    expect(Object.keys(problems).sort()).toEqual(["max_views", "remark", "slug"]);
    expect(shareOptionProblemText("remark", values)).toBe(REMARK_PROBLEM);
    expect(shareOptionProblemText("slug", values)).toBe(slugProblem("raw"));
    expect(shareOptionProblemText("max_views", values)).toBe(MAX_VIEWS_PROBLEM);
    const parsed = shareOptions.safeParse(values);
    expect(parsed.error?.issues.map((i) => i.message).sort()).toEqual(
      [REMARK_PROBLEM, slugProblem("raw"), MAX_VIEWS_PROBLEM].sort(),
    );
  });

  it("a blank field is not set on create, and null clears it on edit", () => {
    expect(shareOptions.parse({ remark: "", password: null, max_views: "" })).toEqual({});
    expect(shareOptionsEdit.parse({ remark: null, password: "", max_views: 0 })).toEqual({
      remark: null,
      password: "",
      max_views: null,
    });
  });
});
