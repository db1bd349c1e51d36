import { Download } from "lucide-react";
import { lazy, Suspense } from "react";
import { buttonClasses } from "../../../components/ui/button";
import { Dialog } from "../../../components/ui/dialog";
import { Spinner } from "../../../components/ui/spinner";
import { useTranslation } from "../../../i18n";
import { formatBytes } from "../../../lib/file-size";
import { backendUrl } from "../../../lib/share-links";
import type { CollectionEntry } from "../api/collections";

// The file page's viewers, loaded when a preview opens.
const FilePreview = lazy(() =>
  import("../../../components/file-preview/file-preview").then((m) => ({ default: m.FilePreview })),
);

/** One file of a collection in the file page's viewer, under the visit's token (uses no view). */
export function EntryPreviewDialog({
  slug,
  entry,
  onClose,
}: {
  slug: string;
  entry: CollectionEntry | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={entry !== null}
      onOpenChange={(open) => !open && onClose()}
      size="lg"
      title={entry?.name ?? ""}
      description={entry ? `${formatBytes(entry.size)} · ${entry.mimetype ?? ""}` : undefined}
      footer={
        entry?.download_url ? (
          <a href={backendUrl(entry.download_url)} download={entry.name} className={buttonClasses("primary")}>
            <Download className="h-4 w-4" aria-hidden />
            {t("fileView.download")}
          </a>
        ) : null
      }
    >
      {entry?.view_url ? (
        <Suspense fallback={<Spinner />}>
          <FilePreview
            file={{
              slug,
              filename: entry.name,
              mimetype: entry.mimetype ?? "application/octet-stream",
              size: entry.size ?? 0,
              previewUrl: entry.view_url,
              thumbnailUrl: entry.thumbnail_url,
              officeViewer: false,
            }}
          />
        </Suspense>
      ) : null}
    </Dialog>
  );
}
