import { useEffect, useState } from "react";
import { cn } from "../../../lib/cn";

/** Plain text, wrapped or scrolling sideways; coloured when it clearly is code. */
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
    let alive = true;
    void import("../markdown/highlight").then((m) => {
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
