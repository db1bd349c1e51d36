import { lazy, Suspense } from "react";
import type { TextFormat } from "../../lib/markdown/detect";
import { ContentSkeleton } from "../content-skeleton";
import { PlainTextView } from "./plain-text-view";

const MarkdownView = lazy(() => import("./markdown-view"));

/** A paste's text as rendered Markdown or as plain text. */
export function PasteContent({
  content,
  format,
  wrap = true,
  className,
}: {
  content: string;
  format: TextFormat;
  wrap?: boolean;
  className?: string;
}) {
  if (format === "plain") return <PlainTextView text={content} wrap={wrap} className={className} />;
  return (
    <Suspense fallback={<ContentSkeleton />}>
      <MarkdownView source={content} className={className} />
    </Suspense>
  );
}
