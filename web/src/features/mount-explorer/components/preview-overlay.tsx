import { ChevronLeft, ChevronRight, Download, ExternalLink, X } from "lucide-react";
import { lazy, Suspense, useCallback, useEffect } from "react";
import { ArchivePreview } from "../../../components/file-preview/archive-preview";
import { PhotoDetails } from "../../../components/photo-details";
import { dataFormat, StructuredPreview } from "../../../components/structured-preview";
import { Alert } from "../../../components/ui/alert";
import { Button, buttonClasses } from "../../../components/ui/button";
import { Spinner } from "../../../components/ui/spinner";
import { useTranslation } from "../../../i18n";
import { formatBytes } from "../../../lib/file-size";
import { backendUrl } from "../../../lib/share-links";
import { useErrorText } from "../../../lib/use-error-text";
import { explorerArchive, type FsEntry, fsApi } from "../api/fs";
import { useFileInfo, useFileText } from "../hooks/use-fs";
import { fileKind, showsAsThumbnail } from "../model/paths";
import { EntryThumbnail } from "./entry-thumbnail";

const MarkdownView = lazy(() => import("../../../components/text-view/markdown-view"));
const EpubReader = lazy(() => import("../../../components/file-preview/epub-reader"));

/** Office viewers: they fetch the file from a public URL, so they only work for links the internet can reach. */
export function officeViewerUrl(provider: "microsoft" | "google", fileUrl: string): string {
  return provider === "microsoft"
    ? `https://view.officeapps.live.com/op/view.aspx?src=${encodeURIComponent(fileUrl)}`
    : `https://docs.google.com/viewer?url=${encodeURIComponent(fileUrl)}&embedded=true`;
}

/**
 * The preview panel (`?preview=`): images as a gallery of the folder's images
 * (←/→ move, Esc closes), video, audio, PDF, text, Markdown and the Office
 * viewer chooser. Its own chunk.
 */
export default function PreviewOverlay({
  entry,
  siblings,
  canManage,
  onNavigate,
  onClose,
}: {
  entry: FsEntry;
  /** The folder's images, for gallery navigation. */
  siblings: FsEntry[];
  /** May change the file (so may see where a photo was taken). */
  canManage: boolean;
  onNavigate: (entry: FsEntry) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const kind = fileKind(entry.name, entry.mimetype);
  const info = useFileInfo(entry.path);
  const path = entry.path;
  const loadBook = useCallback((signal: AbortSignal) => fsApi.readBlob(path, signal), [path]);
  const text = useFileText(kind === "text" || kind === "markdown" ? entry.path : null);
  const index = kind === "image" ? siblings.findIndex((s) => s.path === entry.path) : -1;
  const prev = index > 0 ? siblings[index - 1] : undefined;
  const next = index >= 0 && index < siblings.length - 1 ? siblings[index + 1] : undefined;

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") onClose();
      else if (e.key === "ArrowLeft" && prev) onNavigate(prev);
      else if (e.key === "ArrowRight" && next) onNavigate(next);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [prev, next, onNavigate, onClose]);

  const url = info.data?.preview_url ? backendUrl(info.data.preview_url) : null;
  const download = info.data?.download_url ? backendUrl(info.data.download_url) : null;

  let body: React.ReactNode;
  if (info.isError) body = <Alert>{errorText(info.error)}</Alert>;
  else if (!url && !["text", "markdown", "archive", "epub"].includes(kind)) body = <Spinner />;
  else if (kind === "image")
    body = (
      <div className="flex flex-col items-center gap-2">
        {showsAsThumbnail(entry.name) ? (
          <div role="img" aria-label={entry.name} data-testid="preview-image">
            <EntryThumbnail
              entry={entry}
              size={2048}
              className="mx-auto max-h-[70dvh] max-w-full object-contain"
            >
              <Spinner />
            </EntryThumbnail>
          </div>
        ) : (
          <img
            src={url!}
            alt={entry.name}
            className="mx-auto max-h-[70dvh] max-w-full object-contain"
            data-testid="preview-image"
          />
        )}
        <PhotoDetails key={url} src={url!} showLocation={canManage} heif={showsAsThumbnail(entry.name)} />
      </div>
    );
  else if (kind === "video")
    body = (
      <video src={url!} controls className="mx-auto max-h-[75dvh] max-w-full" data-testid="preview-video" />
    );
  else if (kind === "audio")
    body = <audio src={url!} controls className="mx-auto w-full" data-testid="preview-audio" />;
  else if (kind === "pdf")
    body = <iframe src={url!} title={entry.name} className="h-[75dvh] w-full rounded bg-white" />;
  else if (kind === "markdown" || kind === "text") {
    if (text.isError) body = <Alert>{errorText(text.error)}</Alert>;
    else if (text.data === undefined) body = <Spinner />;
    else if (kind === "markdown")
      body = (
        <Suspense fallback={<Spinner />}>
          <div className="max-h-[75dvh] overflow-auto rounded-lg bg-white p-4 dark:bg-slate-900">
            <MarkdownView source={text.data} />
          </div>
        </Suspense>
      );
    else {
      const plain = (
        <pre
          className="max-h-[75dvh] overflow-auto rounded-lg bg-white p-4 font-mono text-xs text-slate-800 dark:bg-slate-900 dark:text-slate-100"
          data-testid="preview-text"
        >
          {text.data}
        </pre>
      );
      const format = dataFormat(entry.name, entry.mimetype);
      body = format ? (
        <div className="rounded-lg bg-white p-3 dark:bg-slate-900">
          <StructuredPreview text={text.data} format={format} plain={plain} />
        </div>
      ) : (
        plain
      );
    }
  } else if (kind === "archive") body = <ArchivePreview source={explorerArchive(entry.path)} />;
  else if (kind === "epub")
    body = (
      <Suspense fallback={<Spinner />}>
        <EpubReader name={entry.name} load={loadBook} />
      </Suspense>
    );
  else if (kind === "office")
    body = (
      <div className="flex flex-col items-center gap-3 rounded-lg bg-white p-6 text-center dark:bg-slate-900">
        <p className="text-sm text-slate-600 dark:text-slate-300">{t("explorer.officeChoose")}</p>
        <div className="flex flex-wrap justify-center gap-2">
          {(["microsoft", "google"] as const).map((p) => (
            <a
              key={p}
              href={officeViewerUrl(p, url!)}
              target="_blank"
              rel="noreferrer noopener"
              className={buttonClasses("outline")}
            >
              <ExternalLink className="h-4 w-4" aria-hidden />
              {t(`explorer.office.${p}`)}
            </a>
          ))}
        </div>
        <p className="text-xs text-slate-500 dark:text-slate-400">{t("explorer.officeNote")}</p>
      </div>
    );
  else
    body = (
      <div className="rounded-lg bg-white p-6 text-center text-sm text-slate-600 dark:bg-slate-900 dark:text-slate-300">
        {t("explorer.noPreview")}
      </div>
    );

  return (
    <div
      role="dialog"
      aria-modal="true"
      aria-label={t("explorer.previewOf", { name: entry.name })}
      className="fixed inset-0 z-40 flex flex-col bg-slate-950/85 p-3 backdrop-blur-sm sm:p-6"
    >
      <div className="mb-3 flex items-center gap-2 text-white">
        <p className="min-w-0 flex-1 truncate text-sm font-medium" data-testid="preview-name">
          {entry.name}
          <span className="ml-2 text-xs text-slate-300">{formatBytes(entry.size)}</span>
          {index >= 0 ? (
            <span className="ml-2 text-xs text-slate-300">{`${index + 1} / ${siblings.length}`}</span>
          ) : null}
        </p>
        {download ? (
          <a href={download} className={buttonClasses("secondary", "sm")} download={entry.name}>
            <Download className="h-4 w-4" aria-hidden />
            {t("explorer.download")}
          </a>
        ) : null}
        <Button variant="secondary" size="icon" onClick={onClose} aria-label={t("common.close")}>
          <X className="h-4 w-4" aria-hidden />
        </Button>
      </div>
      <div className="relative flex min-h-0 flex-1 items-center justify-center">
        {prev ? (
          <Button
            variant="secondary"
            size="icon"
            className="absolute left-0 z-10"
            onClick={() => onNavigate(prev)}
            aria-label={t("explorer.previous")}
          >
            <ChevronLeft className="h-5 w-5" aria-hidden />
          </Button>
        ) : null}
        <div className="w-full max-w-5xl">{body}</div>
        {next ? (
          <Button
            variant="secondary"
            size="icon"
            className="absolute right-0 z-10"
            onClick={() => onNavigate(next)}
            aria-label={t("explorer.next")}
          >
            <ChevronRight className="h-5 w-5" aria-hidden />
          </Button>
        ) : null}
      </div>
    </div>
  );
}
