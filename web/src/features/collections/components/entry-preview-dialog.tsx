import { lazy, Suspense } from "react";
import { DownloadButton } from "../../../components/share-details";
import { Dialog } from "../../../components/ui/dialog";
import { Spinner } from "../../../components/ui/spinner";
import { useTranslation } from "../../../i18n";
import { formatBytes } from "../../../lib/file-size";
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
      footer={entry?.download_url ? <DownloadButton url={entry.download_url} filename={entry.name} /> : null}
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
