/**
 * Markdown to safe HTML for previews: marked renders, DOMPurify removes
 * anything that could run script. Loaded only when a Markdown file is shown.
 */
import DOMPurify from "dompurify";
import { Marked } from "marked";

const marked = new Marked({ gfm: true, breaks: false, async: false });

let hooked = false;
function ensureLinkHook(): void {
  if (hooked) return;
  hooked = true;
  // Links leave the page in a new tab and get no handle on it.
  DOMPurify.addHook("afterSanitizeAttributes", (node) => {
    if (node.tagName === "A" && node.getAttribute("href")) {
      node.setAttribute("target", "_blank");
      node.setAttribute("rel", "noopener noreferrer nofollow");
    }
  });
}

export function renderMarkdown(source: string): string {
  ensureLinkHook();
  const html = marked.parse(source) as string;
  return DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ["style", "form", "input", "button", "textarea", "select", "iframe", "object", "embed"],
    FORBID_ATTR: ["style"],
  });
}
