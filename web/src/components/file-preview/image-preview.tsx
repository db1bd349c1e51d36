import { useState } from "react";
import { useTranslation } from "../../i18n";
import { formatBytes } from "../../lib/file-size";
import { HEIC_NAME } from "../../lib/photo-types";
import { thumbnailUrl } from "../../lib/public-files";
import { backendUrl } from "../../lib/share-links";
import { PhotoDetails } from "../photo-details";
import { Button } from "../ui/button";

/** Larger images open as the server's 1024 px thumbnail first: a phone need not fetch a 20 MB photo to see it. */
const THUMBNAIL_FIRST_ABOVE = 4 * 1024 * 1024;

/**
 * A shared image: itself, or for a large one its thumbnail with a button for
 * the original. Without a thumbnail (a type the server cannot read) the original shows.
 */
export function ImagePreview({
  file,
  src,
  onFailed,
}: {
  file: { slug: string; filename: string; size: number; previewUrl: string; thumbnailUrl?: string | null };
  src: string;
  onFailed: () => void;
}) {
  const { t } = useTranslation();
  // A HEIC photo only ever shows as the server's (converted) image, at view size: browsers cannot decode it.
  const displayable = !HEIC_NAME.test(file.filename);
  const [original, setOriginal] = useState(displayable && file.size <= THUMBNAIL_FIRST_ABOVE);
  const viewSize = displayable ? 1024 : 2048;
  return (
    <div className="flex flex-col items-center gap-2 rounded-xl bg-slate-100 p-2 dark:bg-slate-950">
      <img
        src={
          original
            ? src
            : file.thumbnailUrl
              ? backendUrl(`${file.thumbnailUrl}&size=${viewSize}`)
              : thumbnailUrl(file.slug, file.previewUrl, viewSize)
        }
        alt={t("fileView.preview.imageAlt", { name: file.filename })}
        className="max-h-[75vh] max-w-full object-contain"
        onError={() => (original || !displayable ? onFailed() : setOriginal(true))}
      />
      {original || !displayable ? null : (
        <Button variant="secondary" size="sm" onClick={() => setOriginal(true)}>
          {t("thumbnails.showOriginal", { size: formatBytes(file.size) })}
        </Button>
      )}
      {/* Visitors of a share see how a photo was taken, never where. */}
      <PhotoDetails src={src} showLocation={false} heif={!displayable} />
    </div>
  );
}
