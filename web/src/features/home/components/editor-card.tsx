import { PASTE_MAX_BYTES } from "@clipshare/shared";
import { Columns2, Eye, FileUp, PenLine } from "lucide-react";
import { type ChangeEvent, useDeferredValue, useRef, useState } from "react";
import { CodeEditor } from "../../../components/code-editor/code-editor";
import { Segmented } from "../../../components/segmented";
import { FormatSwitch } from "../../../components/text-view/format-switch";
import { PasteContent } from "../../../components/text-view/paste-content";
import { Button } from "../../../components/ui/button";
import { toast } from "../../../components/ui/toast";
import { useTranslation } from "../../../i18n";
import { cn } from "../../../lib/cn";
import type { TextFormat } from "../../../lib/markdown/detect";
import type { SaveResult } from "../draft-storage";
import { formatForFileName, IMPORT_ACCEPT, looksBinary } from "../import-file";

type Pane = "write" | "preview" | "split";

export interface EditorCardProps {
  content: string;
  onContentChange: (content: string) => void;
  format: TextFormat;
  onFormatChange: (format: TextFormat) => void;
  draftStatus: SaveResult | null;
  error?: string | null;
}

function formatSize(chars: number, bytes: number, language: string): string {
  const fmt = new Intl.NumberFormat(language === "zh" ? "zh-CN" : "en");
  if (bytes < 1024) return fmt.format(chars);
  return `${fmt.format(chars)} · ${fmt.format(Math.round((bytes / 1024) * 10) / 10)} KB`;
}

/** The Home editor: text or Markdown, with a live preview for Markdown and file import. */
export function EditorCard({
  content,
  onContentChange,
  format,
  onFormatChange,
  draftStatus,
  error,
}: EditorCardProps) {
  const { t, i18n } = useTranslation();
  const fileRef = useRef<HTMLInputElement>(null);
  const [pane, setPane] = useState<Pane>(() =>
    typeof matchMedia === "function" && matchMedia("(min-width: 1024px)").matches ? "split" : "write",
  );
  // Typing stays responsive on long texts: the preview follows when the browser is idle.
  const previewSource = useDeferredValue(content);
  const markdown = format === "markdown";
  const showEditor = !markdown || pane !== "preview";
  const showPreview = markdown && pane !== "write";
  // Estimated: exact UTF-8 counting of a 10 MB text on every key press is wasteful.
  const approxBytes = content.length < 200_000 ? new TextEncoder().encode(content).length : content.length;

  async function importFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    if (file.size > PASTE_MAX_BYTES) {
      toast(t("home.editor.importTooLarge", { name: file.name }), "error");
      return;
    }
    try {
      const text = await file.text();
      if (looksBinary(text)) {
        toast(t("home.editor.importNotText", { name: file.name }), "error");
        return;
      }
      onContentChange(text);
      onFormatChange(formatForFileName(file.name));
      toast(t("home.editor.imported", { name: file.name }), "success");
    } catch {
      toast(t("home.editor.importFailed", { name: file.name }), "error");
    }
  }

  const draftText =
    draftStatus === "saved"
      ? t("home.editor.draftSaved")
      : draftStatus === "tooLarge"
        ? t("home.editor.draftTooLarge")
        : draftStatus === "failed"
          ? t("home.editor.draftFailed")
          : "";

  return (
    <section
      aria-label={t("home.editor.region")}
      className="rounded-2xl border border-slate-200 bg-white shadow-xs dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex flex-wrap items-center gap-2 border-b border-slate-200 px-3 py-2.5 sm:px-4 dark:border-slate-800">
        <FormatSwitch value={format} onChange={onFormatChange} />
        {markdown ? (
          <Segmented<Pane>
            label={t("home.editor.panes")}
            value={pane}
            onChange={setPane}
            options={[
              {
                value: "write",
                label: t("home.editor.write"),
                icon: <PenLine className="h-3.5 w-3.5" aria-hidden />,
              },
              {
                value: "preview",
                label: t("home.editor.preview"),
                icon: <Eye className="h-3.5 w-3.5" aria-hidden />,
              },
              {
                value: "split",
                label: t("home.editor.split"),
                icon: <Columns2 className="h-3.5 w-3.5" aria-hidden />,
                display: "hidden lg:inline-flex",
              },
            ]}
          />
        ) : null}
        <div className="ml-auto flex items-center gap-2">
          <input
            ref={fileRef}
            type="file"
            accept={IMPORT_ACCEPT}
            className="sr-only"
            tabIndex={-1}
            aria-hidden
            data-testid="import-file-input"
            onChange={(e) => void importFile(e)}
          />
          <Button variant="outline" size="sm" onClick={() => fileRef.current?.click()}>
            <FileUp className="h-4 w-4" aria-hidden />
            {t("home.editor.import")}
          </Button>
        </div>
      </div>

      <div className={cn("grid gap-0", showEditor && showPreview && "lg:grid-cols-2")}>
        {showEditor ? (
          <div className="p-3 sm:p-4">
            <CodeEditor
              className="h-[22rem] sm:h-[28rem]"
              value={content}
              onChange={onContentChange}
              format={format}
              label={t("home.editor.label")}
              placeholder={
                markdown ? t("home.editor.placeholderMarkdown") : t("home.editor.placeholderPlain")
              }
            />
          </div>
        ) : null}
        {showPreview ? (
          <div
            className={cn(
              "p-3 sm:p-4",
              // Side by side only where there is room; a phone in "split" shows the editor.
              showEditor && "hidden border-slate-200 lg:block lg:border-l dark:border-slate-800",
            )}
          >
            <section
              aria-label={t("home.editor.previewRegion")}
              className="h-[22rem] overflow-auto rounded-xl border border-slate-200 bg-slate-50/50 px-4 py-3 sm:h-[28rem] dark:border-slate-800 dark:bg-slate-950/40"
            >
              {previewSource.trim() ? (
                <PasteContent content={previewSource} format="markdown" />
              ) : (
                <p className="text-sm text-slate-500 dark:text-slate-400">{t("home.editor.previewEmpty")}</p>
              )}
            </section>
          </div>
        ) : null}
      </div>

      <div className="flex flex-wrap items-center justify-between gap-2 border-t border-slate-200 px-4 py-2 text-xs text-slate-500 dark:border-slate-800 dark:text-slate-400">
        <span>{t("home.editor.size", { size: formatSize(content.length, approxBytes, i18n.language) })}</span>
        {/* Tab indents inside the editor; CodeMirror lets Esc, then Tab, move focus on. */}
        {showEditor ? <span data-testid="editor-tab-hint">{t("home.editor.tabHint")}</span> : null}
        <span aria-live="polite" className={cn(draftStatus !== "saved" && draftText && "text-amber-600")}>
          {draftText}
        </span>
      </div>
      {error ? (
        <p role="alert" className="px-4 pb-3 text-sm font-medium text-red-600 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </section>
  );
}
