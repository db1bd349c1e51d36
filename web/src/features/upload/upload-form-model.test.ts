import { describe, expect, it } from "vitest";
import {
  clipboardFileName,
  emptyUploadForm,
  presignBody,
  uploadFields,
  validateUploadForm,
} from "./upload-form-model";

const form = (over: Partial<ReturnType<typeof emptyUploadForm>> = {}) => ({
  ...emptyUploadForm("cfg-1"),
  ...over,
});

describe("upload form", () => {
  it("sends only the fields that are set", () => {
    expect(uploadFields(form(), true)).toEqual({ s3_config_id: "cfg-1" });
    expect(
      uploadFields(
        form({
          slug: " report ",
          path: "/docs/2026/",
          remark: "q1",
          password: " p w ",
          expiryHours: 24,
          maxViews: "3",
          noLog: true,
        }),
        true,
      ),
    ).toEqual({
      s3_config_id: "cfg-1",
      slug: "report",
      path: "docs/2026",
      remark: "q1",
      password: " p w ",
      expires_in: "24",
      max_views: "3",
      no_log: "true",
    });
  });

  it("drops the slug when several files go at once, and 0 views / never expiry", () => {
    expect(uploadFields(form({ slug: "one", maxViews: "0", expiryHours: 0 }), false)).toEqual({
      s3_config_id: "cfg-1",
    });
  });

  it("builds the presign body with numbers", () => {
    const fields = uploadFields(form({ expiryHours: 168, maxViews: "5", remark: "r" }), true);
    expect(presignBody(fields, { name: "a.md", size: 12, type: "text/markdown" })).toEqual({
      s3_config_id: "cfg-1",
      remark: "r",
      filename: "a.md",
      size: 12,
      mimetype: "text/markdown",
      expires_in: 168,
      max_views: 5,
    });
  });

  it("checks the share options by the rules every share form uses", () => {
    expect(validateUploadForm(form({ slug: "ok_slug-1" }), true)).toEqual({});
    expect(validateUploadForm(form({ slug: "has space" }), true)).toEqual({ slug: "invalid" });
    expect(validateUploadForm(form({ slug: "admin" }), true)).toEqual({ slug: "reserved" });
    expect(validateUploadForm(form({ slug: "x".repeat(51) }), true)).toEqual({ slug: "tooLong" });
    // A slug that will not be sent is not checked.
    expect(validateUploadForm(form({ slug: "has space" }), false)).toEqual({});
    expect(validateUploadForm(form({ path: "a/../b" }), true)).toEqual({ path: "invalid" });
    expect(validateUploadForm(form({ maxViews: "-1" }), true)).toEqual({ maxViews: "invalid" });
    expect(validateUploadForm(form({ maxViews: "1.5" }), true)).toEqual({ maxViews: "invalid" });
    // The server's bound (a 32-bit column on every database).
    expect(validateUploadForm(form({ maxViews: "2147483648" }), true)).toEqual({ maxViews: "invalid" });
    expect(validateUploadForm(form({ maxViews: "2147483647" }), true)).toEqual({});
    expect(validateUploadForm(form({ remark: "r".repeat(1001) }), true)).toEqual({ remark: "tooLong" });
  });

  it("names pasted screenshots after the time", () => {
    const at = new Date(2026, 0, 2, 3, 4, 5);
    expect(clipboardFileName("image.png", "image/png", at)).toBe("clipboard-20260102-030405.png");
    expect(clipboardFileName("", "image/jpeg", at)).toBe("clipboard-20260102-030405.jpg");
    expect(clipboardFileName("notes.txt", "text/plain", at)).toBe("notes.txt");
  });
});
