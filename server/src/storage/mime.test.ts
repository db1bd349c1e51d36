import { describe, expect, it } from "vitest";
import { DEFAULT_MIME_TYPE, extensionOf, isMarkdownName, mimeTypeFor } from "./mime";

describe("mimeTypeFor", () => {
  it.each(["md", "markdown", "mdown", "mkd", "mdwn", "mdtxt", "mdtext", "rmd", "MD", "Rmd"])(
    "treats .%s as Markdown",
    (ext) => {
      expect(mimeTypeFor(`notes.${ext}`)).toBe("text/markdown");
      expect(isMarkdownName(`dir/notes.${ext}`)).toBe(true);
    },
  );

  it.each([
    ["a.txt", "text/plain"],
    ["photo.JPG", "image/jpeg"],
    ["clip.mp4", "video/mp4"],
    ["song.mp3", "audio/mpeg"],
    ["doc.pdf", "application/pdf"],
    ["sheet.xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"],
    ["a.tar.gz", "application/gzip"],
    ["data.json", "application/json"],
    ["feed.xml", "application/xml"],
    ["page.html", "text/html"],
    ["logo.svg", "image/svg+xml"],
    ["dir.v2/noext", DEFAULT_MIME_TYPE],
    [".env", DEFAULT_MIME_TYPE],
    ["weird.zzz", DEFAULT_MIME_TYPE],
  ])("%s → %s", (name, type) => {
    expect(mimeTypeFor(name)).toBe(type);
  });

  it("extracts extensions from the last segment only", () => {
    expect(extensionOf("a.b/c")).toBe("");
    expect(extensionOf("x/y.Tar.GZ")).toBe("gz");
  });
});
