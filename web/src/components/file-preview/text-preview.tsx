import { useMemo } from "react";
import { useTranslation } from "../../i18n";
import { highlightCode } from "../../lib/highlight-code";
import { codeLanguage, shouldHighlight } from "../../lib/preview-kind";
import { dataFormat, StructuredPreview } from "../structured-preview";
import { Alert } from "../ui/alert";
import { Spinner } from "../ui/spinner";
import "./preview-content.css";
import { TruncatedNote, useTextContent } from "./text-content";

/** Text and code, highlighted with highlight.js when small enough. */
export default function TextPreview({
  previewUrl,
  size,
  filename,
  mimetype,
}: {
  previewUrl: string;
  size: number;
  filename: string;
  mimetype: string;
}) {
  const { t } = useTranslation();
  const content = useTextContent(previewUrl, size);
  const language = codeLanguage(mimetype, filename);
  const html = useMemo(() => {
    if (content.data === undefined) return null;
    const bytes = new TextEncoder().encode(content.data).length;
    return shouldHighlight(language, bytes) ? highlightCode(content.data, language!) : null;
  }, [content.data, language]);

  if (content.isPending) return <Spinner />;
  if (content.isError) return <Alert>{t("fileView.preview.loadFailed")}</Alert>;
  const format = content.truncated ? null : dataFormat(filename, mimetype);
  const plain = (
    <pre
      className="cs-code max-h-[70vh] overflow-auto rounded-xl border border-slate-200 bg-slate-50 p-4 font-mono text-[13px] leading-relaxed text-slate-800 dark:border-slate-800 dark:bg-slate-950 dark:text-slate-200"
      data-language={language ?? "plaintext"}
      aria-label={t("fileView.preview.textLabel", { name: filename })}
    >
      {html !== null ? (
        // biome-ignore lint/security/noDangerouslySetInnerHtml: highlight.js output, the text is escaped by it
        <code dangerouslySetInnerHTML={{ __html: html }} />
      ) : (
        <code>{content.data}</code>
      )}
    </pre>
  );
  return (
    <div>
      <TruncatedNote truncated={content.truncated} />
      {format ? <StructuredPreview text={content.data} format={format} plain={plain} /> : plain}
    </div>
  );
}
