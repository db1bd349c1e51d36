import { describe, expect, it } from "vitest";
import { sharedText } from "./share-target";

describe("shared text", () => {
  it("joins title, text and link in order, each once", () => {
    expect(sharedText("Train notes", "Platform 9", "https://example.com/t")).toBe(
      "Train notes\nPlatform 9\nhttps://example.com/t",
    );
    // Share sheets often repeat the link inside the text, or the title as the text.
    expect(sharedText("Article", "Read this https://example.com/a", "https://example.com/a")).toBe(
      "Article\nRead this https://example.com/a",
    );
    expect(sharedText("Same", "Same", "")).toBe("Same");
    expect(sharedText("  ", "", "")).toBe("");
  });
});
