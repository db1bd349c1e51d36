import { useMemo } from "react";
import { useTranslation } from "../../i18n";
import { renderMarkdown } from "../../lib/markdown/render-preview";
import { Alert } from "../ui/alert";
import { Spinner } from "../ui/spinner";
import { TruncatedNote, useTextContent } from "./text-content";
import "./preview-content.css";

/** Markdown rendered with marked and sanitized with DOMPurify. */
export default function MarkdownPreview({
  previewUrl,
  size,
  filename,
}: {
  previewUrl: string;
  size: number;
  filename: string;
}) {
  const { t } = useTranslation();
  const content = useTextContent(previewUrl, size);
  const html = useMemo(
    () => (content.data === undefined ? null : renderMarkdown(content.data)),
    [content.data],
  );

  if (content.isPending) return <Spinner />;
  if (content.isError || html === null) return <Alert>{t("fileView.preview.loadFailed")}</Alert>;
  return (
    <div>
      <TruncatedNote truncated={content.truncated} />
      <article
        className="cs-markdown rounded-xl border border-slate-200 bg-white p-5 text-slate-800 sm:p-6 dark:border-slate-800 dark:bg-slate-950 dark:text-slate-200"
        aria-label={t("fileView.preview.markdownLabel", { name: filename })}
        // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized by DOMPurify in renderMarkdown
        dangerouslySetInnerHTML={{ __html: html }}
      />
    </div>
  );
}
