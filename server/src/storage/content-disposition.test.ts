import { describe, expect, it } from "vitest";
import { contentDisposition } from "./content-disposition";

describe("contentDisposition", () => {
  it("keeps plain ASCII names simple", () => {
    expect(contentDisposition("inline")).toBe("inline");
    expect(contentDisposition("attachment", "report.pdf")).toBe('attachment; filename="report.pdf"');
  });

  it("adds an RFC 8187 name for non-ASCII and awkward characters", () => {
    expect(contentDisposition("attachment", "报告 (1).pdf")).toBe(
      "attachment; filename=\"__ (1).pdf\"; filename*=UTF-8''%E6%8A%A5%E5%91%8A%20%281%29.pdf",
    );
    expect(contentDisposition("inline", 'say "hi".txt')).toBe(
      "inline; filename=\"say _hi_.txt\"; filename*=UTF-8''say%20%22hi%22.txt",
    );
  });
});
