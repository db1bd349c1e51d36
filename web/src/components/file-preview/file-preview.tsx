import { FileX2 } from "lucide-react";
import { lazy, Suspense, useCallback, useMemo, useState } from "react";
import { useTranslation } from "../../i18n";
import { type PreviewKind, previewKind } from "../../lib/preview-kind";
import { fetchArchiveEntry, publicFilesApi, thumbnailUrl, tokenOf } from "../../lib/public-files";
import { backendUrl } from "../../lib/share-links";
import { Spinner } from "../ui/spinner";
import { ArchivePreview, type ArchiveSource } from "./archive-preview";
import { ImagePreview } from "./image-preview";
import { OfficePreview } from "./office-preview";

const TextPreview = lazy(() => import("./text-preview"));
const MarkdownPreview = lazy(() => import("./markdown-preview"));
const EpubReader = lazy(() => import("./epub-reader"));

export interface PreviewableFile {
  slug: string;
  filename: string;
  mimetype: string;
  size: number;
  is_office?: boolean;
  /** Relative URL with an access token, from the server. */
  previewUrl: string;
  /** A WebP frame of the image or video under the same access (default: the file share's thumbnail route). */
  thumbnailUrl?: string | null;
  /** Office documents open in an online viewer through the file-share route; false: no preview. */
  officeViewer?: boolean;
}

function NoPreview({ reason }: { reason: "type" | "failed" }) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col items-center rounded-xl border border-dashed border-slate-300 px-6 py-10 text-center text-sm text-slate-500 dark:border-slate-700 dark:text-slate-400">
      <FileX2 className="mb-2 h-8 w-8" aria-hidden />
      {reason === "type" ? t("fileView.preview.unsupported") : t("fileView.preview.loadFailed")}
    </div>
  );
}

/** The viewer for a file's type (image, video, audio, PDF, text/code, Markdown, Office, archive, EPUB). */
export function FilePreview({ file }: { file: PreviewableFile }) {
  const { t } = useTranslation();
  const kind: PreviewKind = previewKind(file.mimetype, file.filename, file.is_office);
  const src = backendUrl(file.previewUrl);
  const [mediaFailed, setMediaFailed] = useState(false);
  const { slug, previewUrl } = file;
  // Both read under the access of the preview URL (its token), as every other preview does.
  const archive = useMemo<ArchiveSource>(
    () => ({
      key: ["public-file", slug],
      list: (signal) => publicFilesApi.archive(slug, tokenOf(previewUrl), signal),
      read: (entry, signal) => fetchArchiveEntry(slug, previewUrl, entry, signal),
    }),
    [slug, previewUrl],
  );
  const loadBook = useCallback(
    async (signal: AbortSignal) => {
      const res = await fetch(backendUrl(previewUrl), { signal });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      return res.blob();
    },
    [previewUrl],
  );

  if (mediaFailed) return <NoPreview reason="failed" />;
  switch (kind) {
    case "image":
      return <ImagePreview file={file} src={src} onFailed={() => setMediaFailed(true)} />;
    case "video":
      return (
        <video
          src={src}
          poster={
            file.thumbnailUrl ? backendUrl(file.thumbnailUrl) : thumbnailUrl(file.slug, file.previewUrl)
          }
          controls
          preload="metadata"
          className="max-h-[75vh] w-full rounded-xl bg-black"
          aria-label={file.filename}
          onError={() => setMediaFailed(true)}
        />
      );
    case "audio":
      return <audio src={src} controls preload="metadata" className="w-full" aria-label={file.filename} />;
    case "pdf":
      return (
        <iframe
          src={src}
          title={t("fileView.preview.pdfTitle", { name: file.filename })}
          className="h-[75vh] w-full rounded-xl border border-slate-200 bg-white dark:border-slate-800"
        />
      );
    case "markdown":
      return (
        <Suspense fallback={<Spinner />}>
          <MarkdownPreview previewUrl={file.previewUrl} size={file.size} filename={file.filename} />
        </Suspense>
      );
    case "text":
      return (
        <Suspense fallback={<Spinner />}>
          <TextPreview
            previewUrl={file.previewUrl}
            size={file.size}
            filename={file.filename}
            mimetype={file.mimetype}
          />
        </Suspense>
      );
    case "office":
      if (file.officeViewer === false) return <NoPreview reason="type" />;
      return <OfficePreview slug={file.slug} token={tokenOf(file.previewUrl)} filename={file.filename} />;
    case "archive":
      return <ArchivePreview source={archive} />;
    case "epub":
      return (
        <Suspense fallback={<Spinner />}>
          <EpubReader name={file.filename} load={loadBook} />
        </Suspense>
      );
    case "none":
      return <NoPreview reason="type" />;
  }
}
