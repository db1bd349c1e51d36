import { describe, expect, it } from "vitest";
import type { FileShare } from "./api/file-shares";
import {
  expiresAtFor,
  fileShareUpdateBody,
  formFromFile,
  validateFileShareForm,
} from "./file-share-form-model";

const share = {
  id: "f1",
  slug: "report",
  filename: "report.pdf",
  mimetype: "application/pdf",
  size: 10,
  remark: "q1",
  has_password: true,
  expires_at: null,
  max_views: 5,
  views: 2,
  use_proxy: true,
} as FileShare;

const NOW = Date.parse("2026-03-01T12:00:00Z");

describe("file share edit form", () => {
  it("starts from the share and sends nothing when nothing changed", () => {
    const initial = formFromFile(share);
    expect(initial).toMatchObject({
      slug: "report",
      remark: "q1",
      maxViews: "5",
      expiry: "keep",
      passwordMode: "keep",
    });
    expect(fileShareUpdateBody(initial, initial, NOW)).toEqual({});
  });

  it("sends only the changed fields", () => {
    const initial = formFromFile(share);
    expect(
      fileShareUpdateBody(
        { ...initial, slug: "report-v2", remark: "  ", maxViews: "", useProxy: false, expiry: "1d" },
        initial,
        NOW,
      ),
    ).toEqual({
      slug: "report-v2",
      remark: null,
      max_views: 0,
      use_proxy: false,
      expires_at: "2026-03-02T12:00:00.000Z",
    });
  });

  it("sets, clears or keeps the password", () => {
    const initial = formFromFile(share);
    expect(fileShareUpdateBody({ ...initial, passwordMode: "set", password: "pw" }, initial)).toEqual({
      password: "pw",
    });
    expect(fileShareUpdateBody({ ...initial, passwordMode: "clear", password: "ignored" }, initial)).toEqual({
      password: "",
    });
  });

  it("expiry choices", () => {
    const base = formFromFile(share);
    expect(expiresAtFor({ ...base, expiry: "keep" }, NOW)).toBeUndefined();
    expect(expiresAtFor({ ...base, expiry: "never" }, NOW)).toBeNull();
    expect(expiresAtFor({ ...base, expiry: "1h" }, NOW)).toBe("2026-03-01T13:00:00.000Z");
    expect(expiresAtFor({ ...base, expiry: "30d" }, NOW)).toBe("2026-03-31T12:00:00.000Z");
    expect(expiresAtFor({ ...base, expiry: "custom", customExpiry: "2026-04-01T08:30:00Z" }, NOW)).toBe(
      "2026-04-01T08:30:00.000Z",
    );
  });

  it("validates names, slugs, passwords, dates and view counts", () => {
    const base = formFromFile(share);
    expect(validateFileShareForm(base, NOW)).toEqual({});
    expect(
      validateFileShareForm(
        {
          ...base,
          filename: "a/b",
          slug: "bad slug",
          passwordMode: "set",
          password: "",
          expiry: "custom",
          customExpiry: "2020-01-01T00:00",
          maxViews: "-2",
        },
        NOW,
      ),
    ).toEqual({
      filename: "invalid",
      slug: "invalid",
      password: "required",
      customExpiry: "past",
      maxViews: "invalid",
    });
    expect(validateFileShareForm({ ...base, maxViews: "2147483648" }, NOW)).toEqual({ maxViews: "invalid" });
    expect(validateFileShareForm({ ...base, maxViews: "2147483647" }, NOW)).toEqual({});
    expect(
      validateFileShareForm({ ...base, filename: " ", slug: "", expiry: "custom", customExpiry: "" }, NOW),
    ).toEqual({
      filename: "required",
      slug: "required",
      customExpiry: "required",
    });
  });
});
