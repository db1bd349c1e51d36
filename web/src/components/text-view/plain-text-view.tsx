import { useEffect, useState } from "react";
import { cn } from "../../lib/cn";
import { mayBeCode } from "../../lib/markdown/detect";

/**
 * Plain text, wrapped or scrolling sideways; coloured when it clearly is code. The
 * highlighter loads only for a text that may be code, so prose never fetches it.
 */
export function PlainTextView({
  text,
  wrap,
  className,
}: {
  text: string;
  wrap: boolean;
  className?: string;
}) {
  const [highlighted, setHighlighted] = useState<{ text: string; html: string } | null>(null);

  useEffect(() => {
    if (!mayBeCode(text)) return;
    let alive = true;
    void import("../../lib/markdown/highlight").then((m) => {
      const result = m.highlightPlainText(text);
      if (alive && result) setHighlighted({ text, html: result.html });
    });
    return () => {
      alive = false;
    };
  }, [text]);

  const html = highlighted?.text === text ? highlighted.html : null;
  return (
    <pre
      data-testid="plain-text"
      className={cn(
        "font-mono text-sm leading-relaxed text-slate-800 dark:text-slate-100",
        wrap ? "break-words whitespace-pre-wrap" : "overflow-x-auto whitespace-pre",
        className,
      )}
    >
      {html !== null ? (
        // biome-ignore lint/security/noDangerouslySetInnerHtml: highlight.js output; it escapes the text
        <code className="hljs" dangerouslySetInnerHTML={{ __html: html }} />
      ) : (
        <code>{text}</code>
      )}
    </pre>
  );
}
