import createDOMPurify from "dompurify";
import { Marked, type Tokens } from "marked";
import { codeLanguage, type Highlighter } from "./code-language";
import { isExternalHref, isSafeImageSrc, isSafeLinkHref } from "./safe-url";

export { codeLanguage, type Highlighter };

/**
 * Markdown → HTML that is safe to put into the page. marked turns GFM (tables,
 * task lists, strikethrough, autolinks) into HTML, raw HTML included; DOMPurify
 * then removes everything that could run script or reach outside the content
 * box, and the hooks below tighten links, images and task-list checkboxes.
 */

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);
}

/** GFM → HTML, not yet sanitized. DOM-free, so unit-testable. */
export function markdownToHtml(source: string, highlight?: Highlighter): string {
  const marked = new Marked({
    gfm: true,
    breaks: false,
    renderer: {
      code({ text, lang }: Tokens.Code): string {
        const language = codeLanguage(lang);
        const highlighted = highlight ? highlight(text, language) : null;
        const cls = `hljs${language ? ` language-${language}` : ""}`;
        return `<pre><code class="${cls}">${highlighted ?? escapeHtml(text)}</code></pre>\n`;
      },
    },
  });
  return marked.parse(source, { async: false });
}

/** Tags that are dropped with their content even where DOMPurify would keep them. */
export const FORBIDDEN_TAGS = [
  "style",
  "form",
  "button",
  "select",
  "option",
  "textarea",
  "iframe",
  "frame",
  "frameset",
  "object",
  "embed",
  "base",
  "link",
  "meta",
  "dialog",
  "audio",
  "video",
  "source",
  "track",
  "svg",
  "math",
];

/** Attributes never kept: inline styles could cover the page; the rest load or submit elsewhere. */
export const FORBIDDEN_ATTRIBUTES = [
  "style",
  "srcset",
  "formaction",
  "action",
  "ping",
  "background",
  "poster",
  "autofocus",
  "tabindex",
  "name",
];

type Purifier = ReturnType<typeof createDOMPurify>;
let purifier: Purifier | null = null;

function getPurifier(): Purifier {
  if (purifier) return purifier;
  // An instance of our own, so these hooks never touch another user of DOMPurify.
  const p = createDOMPurify(window);
  p.addHook("afterSanitizeAttributes", (node) => {
    const el = node as Element;
    switch (el.tagName) {
      case "A": {
        const href = el.getAttribute("href");
        el.removeAttribute("target");
        if (href === null) break;
        if (!isSafeLinkHref(href)) {
          el.removeAttribute("href");
        } else if (isExternalHref(href)) {
          el.setAttribute("target", "_blank");
          el.setAttribute("rel", "noopener noreferrer nofollow ugc");
        }
        break;
      }
      case "IMG": {
        const src = el.getAttribute("src");
        if (src !== null && !isSafeImageSrc(src)) el.removeAttribute("src");
        el.setAttribute("loading", "lazy");
        el.setAttribute("referrerpolicy", "no-referrer");
        break;
      }
      case "INPUT":
        // Only the read-only checkboxes of task lists.
        el.setAttribute("type", "checkbox");
        el.setAttribute("disabled", "");
        break;
    }
  });
  purifier = p;
  return p;
}

export function sanitizeHtml(html: string): string {
  return getPurifier().sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: FORBIDDEN_TAGS,
    FORBID_ATTR: FORBIDDEN_ATTRIBUTES,
    ALLOW_DATA_ATTR: false,
    ALLOW_UNKNOWN_PROTOCOLS: false,
  }) as string;
}

export function renderMarkdown(source: string, highlight?: Highlighter): string {
  return sanitizeHtml(markdownToHtml(source, highlight));
}
