import { describe, expect, it } from "vitest";
import { downloadExtension, formatOf, hasCodeBlock, looksLikeMarkdown } from "./detect";
import { codeLanguage, escapeHtml, FORBIDDEN_ATTRIBUTES, FORBIDDEN_TAGS, markdownToHtml } from "./render";
import { isExternalHref, isSafeImageSrc, isSafeLinkHref, schemeOf } from "./safe-url";

describe("link and image URL allowlists", () => {
  it("keeps web, mail and relative links", () => {
    for (const url of [
      "https://example.com/a?b#c",
      "http://example.com",
      "mailto:someone@example.com",
      "/paste/abc",
      "#section",
      "?q=1",
      "docs/readme.md",
      "//cdn.example.com/x",
    ]) {
      expect(isSafeLinkHref(url), url).toBe(true);
    }
  });

  it("drops script and other schemes, however they are disguised", () => {
    for (const url of [
      "javascript:alert(1)",
      "JavaScript:alert(1)",
      " javascript:alert(1)",
      "java\tscript:alert(1)",
      "java\nscript:alert(1)",
      "\u0001javascript:alert(1)",
      "vbscript:msgbox(1)",
      "data:text/html,<script>alert(1)</script>",
      "file:///etc/passwd",
    ]) {
      expect(isSafeLinkHref(url), JSON.stringify(url)).toBe(false);
    }
    expect(schemeOf("java\tscript:x")).toBe("javascript:");
  });

  it("allows web images and inline raster data, but not SVG data or scripts", () => {
    expect(isSafeImageSrc("https://example.com/a.png")).toBe(true);
    expect(isSafeImageSrc("data:image/png;base64,iVBORw0KGgo=")).toBe(true);
    expect(isSafeImageSrc("data:image/svg+xml;base64,PHN2Zz4=")).toBe(false);
    expect(isSafeImageSrc("javascript:alert(1)")).toBe(false);
    expect(isSafeImageSrc("mailto:x@example.com")).toBe(false);
  });

  it("opens only links leaving the site in a new tab", () => {
    expect(isExternalHref("https://example.com")).toBe(true);
    expect(isExternalHref("//example.com")).toBe(true);
    expect(isExternalHref("/paste/x")).toBe(false);
    expect(isExternalHref("#top")).toBe(false);
    expect(isExternalHref("mailto:a@b.c")).toBe(false);
  });
});

describe("Markdown detection", () => {
  it("recognises Markdown syntax", () => {
    expect(looksLikeMarkdown("# Title\n\ntext")).toBe(true);
    expect(looksLikeMarkdown("see [docs](https://example.com)")).toBe(true);
    expect(looksLikeMarkdown("| a | b |\n|---|---|\n| 1 | 2 |")).toBe(true);
    expect(looksLikeMarkdown("- [ ] todo\n- [x] done")).toBe(true);
    expect(looksLikeMarkdown("```js\nlet a = 1;\n```")).toBe(true);
    expect(looksLikeMarkdown("- one\n- two and **bold**")).toBe(true);
  });

  it("leaves plain notes and code plain", () => {
    expect(looksLikeMarkdown("just a note\nwith two lines")).toBe(false);
    expect(looksLikeMarkdown("- milk\n- eggs")).toBe(false);
    expect(looksLikeMarkdown("int main() { return 0; }")).toBe(false);
    expect(looksLikeMarkdown("#include <stdio.h>")).toBe(false);
    expect(formatOf("hello")).toBe("plain");
    expect(downloadExtension("markdown")).toBe("md");
    expect(downloadExtension("plain")).toBe("txt");
  });

  it("finds code blocks for the highlighter", () => {
    expect(hasCodeBlock("text\n\n```py\nx = 1\n```")).toBe(true);
    expect(hasCodeBlock("para\n\n    indented code")).toBe(true);
    expect(hasCodeBlock("no `code` blocks")).toBe(false);
  });
});

describe("Markdown → HTML (before sanitizing)", () => {
  it("renders GFM tables and task lists", () => {
    const html = markdownToHtml("| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n- [ ] todo\n");
    expect(html).toContain("<table>");
    expect(html).toContain("<td>1</td>");
    expect(html).toMatch(/<input[^>]*checked[^>]*type="checkbox"|<input[^>]*type="checkbox"[^>]*checked/);
    expect(html.match(/type="checkbox"/g)).toHaveLength(2);
  });

  it("escapes code and passes it to the highlighter with a safe language name", () => {
    const seen: (string | undefined)[] = [];
    const html = markdownToHtml(
      '```ts title="x"\nconst a = "<b>";\n```\n\n```"><script>\nx\n```',
      (code, lang) => {
        seen.push(lang);
        return lang === "ts" ? `<span class="hljs-keyword">${escapeHtml(code)}</span>` : null;
      },
    );
    expect(seen).toEqual(["ts", undefined]);
    expect(html).toContain(
      '<code class="hljs language-ts"><span class="hljs-keyword">const a = &quot;&lt;b&gt;&quot;;',
    );
    expect(html).not.toContain("<script>");
    expect(codeLanguage("C++ extra")).toBe("c++");
    expect(codeLanguage('"><img')).toBeUndefined();
  });

  it("forbids the elements and attributes that could act or overlay the page", () => {
    for (const tag of ["style", "form", "iframe", "object", "embed", "base", "svg", "math"]) {
      expect(FORBIDDEN_TAGS).toContain(tag);
    }
    for (const attr of ["style", "srcset", "formaction"]) expect(FORBIDDEN_ATTRIBUTES).toContain(attr);
  });
});
