import { describe, expect, it } from "vitest";
import {
  codeLanguage,
  extensionOf,
  HIGHLIGHT_MAX_BYTES,
  previewKind,
  shouldHighlight,
  TEXT_PREVIEW_MAX_BYTES,
  textPreviewRange,
} from "./preview-kind";

describe("preview kind by type and name", () => {
  it.each([
    ["image/png", "a.png", "image"],
    ["image/jpeg", "a.jpg", "image"],
    ["image/svg+xml", "a.svg", "image"],
    ["video/mp4", "a.mp4", "video"],
    ["video/webm", "a.webm", "video"],
    ["audio/mpeg", "a.mp3", "audio"],
    ["application/pdf", "a.pdf", "pdf"],
    ["text/markdown", "notes.txt", "markdown"],
    ["application/octet-stream", "README.md", "markdown"],
    ["text/plain", "notes.rmd", "markdown"],
    ["text/plain; charset=utf-8", "a.txt", "text"],
    ["application/json", "data.json", "text"],
    ["text/html", "page.html", "text"],
    ["application/x-yaml", "c.yml", "text"],
    ["application/octet-stream", "main.go", "text"],
    ["application/octet-stream", "Dockerfile", "text"],
    ["application/vnd.openxmlformats-officedocument.wordprocessingml.document", "a.docx", "office"],
    ["application/octet-stream", "sheet.xlsx", "office"],
    ["application/zip", "a.zip", "archive"],
    ["application/gzip", "logs.tar.gz", "archive"],
    ["application/epub+zip", "book.epub", "epub"],
    ["application/octet-stream", "novel.epub", "epub"],
    ["", "docs/photo.png", "image"],
    ["application/octet-stream", "a.7z", "none"],
    ["application/octet-stream", "a.bin", "none"],
    ["video/x-matroska", "a.mkv", "none"],
    ["", "noext", "none"],
  ])("%s %s → %s", (type, name, kind) => {
    expect(previewKind(type, name)).toBe(kind);
  });

  it("follows the server's Office flag", () => {
    expect(previewKind("application/msword", "x", true)).toBe("office");
  });

  it("picks highlight.js languages from the extension, then the type", () => {
    expect(codeLanguage("text/plain", "app.tsx")).toBe("typescript");
    expect(codeLanguage("application/json", "data")).toBe("json");
    expect(codeLanguage("text/html", "index.html")).toBe("xml");
    expect(codeLanguage("text/plain", "notes.txt")).toBeNull();
    expect(extensionOf("archive.tar.GZ")).toBe("gz");
    expect(extensionOf(".bashrc")).toBe(".bashrc");
  });

  it("caps text previews with a Range request and highlights only small texts", () => {
    expect(textPreviewRange(1000)).toEqual({ truncated: false, bytes: 1000, rangeHeader: null });
    expect(textPreviewRange(TEXT_PREVIEW_MAX_BYTES + 1)).toEqual({
      truncated: true,
      bytes: TEXT_PREVIEW_MAX_BYTES,
      rangeHeader: `bytes=0-${TEXT_PREVIEW_MAX_BYTES - 1}`,
    });
    expect(shouldHighlight("json", HIGHLIGHT_MAX_BYTES)).toBe(true);
    expect(shouldHighlight("json", HIGHLIGHT_MAX_BYTES + 1)).toBe(false);
    expect(shouldHighlight(null, 10)).toBe(false);
  });
});
