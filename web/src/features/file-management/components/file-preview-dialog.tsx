import { ExternalLink } from "lucide-react";
import { lazy, Suspense } from "react";
import { Link } from "react-router";
import { DownloadButton } from "../../../components/share-details";
import { Alert } from "../../../components/ui/alert";
import { buttonClasses } from "../../../components/ui/button";
import { Dialog } from "../../../components/ui/dialog";
import { Spinner } from "../../../components/ui/spinner";
import { useTranslation } from "../../../i18n";
import { formatBytes } from "../../../lib/file-size";
import { useErrorText } from "../../../lib/use-error-text";
import type { FileShare } from "../api/file-shares";
import { useFileShareDetail } from "../hooks/use-file-shares";

// The visitor page's viewers, loaded when a preview opens.
const FilePreview = lazy(() =>
  import("../../../components/file-preview/file-preview").then((m) => ({ default: m.FilePreview })),
);

/** Preview a share as its owner (no view is counted). */
export function FilePreviewDialog({ file, onClose }: { file: FileShare | null; onClose: () => void }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const detail = useFileShareDetail(file?.id ?? null);

  return (
    <Dialog
      open={file !== null}
      onOpenChange={(open) => !open && onClose()}
      size="lg"
      title={file?.filename ?? ""}
      description={file ? `${formatBytes(file.size)} · ${file.mimetype}` : undefined}
      footer={
        file ? (
          <>
            <Link
              to={`/file/${encodeURIComponent(file.slug)}`}
              target="_blank"
              className={buttonClasses("outline")}
            >
              <ExternalLink className="h-4 w-4" aria-hidden />
              {t("fileManagement.openSharePage")}
            </Link>
            {detail.data ? (
              <DownloadButton url={detail.data.urls.downloadUrl} filename={file.filename} />
            ) : null}
          </>
        ) : null
      }
    >
      {detail.isPending ? (
        <Spinner />
      ) : detail.isError ? (
        <Alert>{errorText(detail.error)}</Alert>
      ) : file && detail.data ? (
        <Suspense fallback={<Spinner />}>
          <FilePreview
            file={{
              slug: detail.data.slug,
              filename: detail.data.filename,
              mimetype: detail.data.mimetype,
              size: detail.data.size,
              previewUrl: detail.data.urls.previewUrl,
            }}
          />
        </Suspense>
      ) : null}
    </Dialog>
  );
}
