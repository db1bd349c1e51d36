import "./markdown.css";
import { useEffect, useMemo, useState } from "react";
import { cn } from "../../lib/cn";
import { hasCodeBlock } from "../../lib/markdown/detect";
import { type Highlighter, renderMarkdown } from "../../lib/markdown/render";

/**
 * Rendered, sanitized Markdown. Its own chunk (marked + DOMPurify); the code
 * highlighter follows only when the text has code blocks.
 */
export default function MarkdownView({ source, className }: { source: string; className?: string }) {
  const [highlight, setHighlight] = useState<Highlighter | null>(null);
  const needsHighlighter = useMemo(() => hasCodeBlock(source), [source]);

  useEffect(() => {
    if (!needsHighlighter || highlight) return;
    let alive = true;
    void import("../../lib/markdown/highlight").then((m) => {
      if (alive) setHighlight(() => m.highlightCode);
    });
    return () => {
      alive = false;
    };
  }, [needsHighlighter, highlight]);

  const html = useMemo(() => renderMarkdown(source, highlight ?? undefined), [source, highlight]);

  return (
    <div
      className={cn("markdown-body", className)}
      data-testid="markdown-body"
      // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized by DOMPurify in renderMarkdown
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
