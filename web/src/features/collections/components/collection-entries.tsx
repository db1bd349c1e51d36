import { Download, Eye, File, Folder, Image } from "lucide-react";
import { Button, buttonClasses } from "../../../components/ui/button";
import { useTranslation } from "../../../i18n";
import { formatBytes } from "../../../lib/file-size";
import { backendUrl } from "../../../lib/share-links";
import type { CollectionEntry } from "../api/collections";

export type EntryLayout = "list" | "gallery";

/** Every file shown is an image: the gallery suits it best. */
export const looksLikeGallery = (entries: CollectionEntry[]) => {
  const files = entries.filter((e) => !e.is_directory);
  return files.length > 0 && files.every((e) => e.thumbnail_url && e.mimetype?.startsWith("image/"));
};

interface EntryHandlers {
  onOpenFolder: (entry: CollectionEntry) => void;
  onPreview: (entry: CollectionEntry) => void;
}

type EntryProps = { entry: CollectionEntry } & EntryHandlers;

function DownloadLink({ entry, compact }: { entry: CollectionEntry; compact?: boolean }) {
  const { t } = useTranslation();
  if (!entry.download_url) return null;
  return (
    <a
      href={backendUrl(entry.download_url)}
      download={entry.name}
      aria-label={t("collectionView.downloadNamed", { name: entry.name })}
      title={t("fileView.download")}
      className={buttonClasses("ghost", compact ? "icon" : "sm")}
    >
      <Download className="h-4 w-4" aria-hidden />
    </a>
  );
}

/** A row: name, size, preview and download. A folder opens in place. */
function EntryRow({ entry, onOpenFolder, onPreview }: EntryProps) {
  const { t } = useTranslation();
  const Icon = entry.is_directory ? Folder : entry.mimetype?.startsWith("image/") ? Image : File;
  return (
    <li className="flex items-center gap-3 px-3 py-2.5 sm:px-4">
      <Icon className="h-5 w-5 shrink-0 text-slate-400" aria-hidden />
      <button
        type="button"
        className="min-w-0 flex-1 text-left text-sm font-medium break-all text-slate-900 hover:text-indigo-600 dark:text-slate-100 dark:hover:text-indigo-400"
        onClick={() => (entry.is_directory ? onOpenFolder(entry) : onPreview(entry))}
      >
        {entry.name}
      </button>
      <span className="shrink-0 text-xs whitespace-nowrap text-slate-500 dark:text-slate-400">
        {entry.is_directory ? t("collectionView.folder") : formatBytes(entry.size)}
      </span>
      {entry.is_directory ? null : (
        <span className="flex shrink-0">
          <Button
            variant="ghost"
            size="icon"
            aria-label={t("collectionView.previewNamed", { name: entry.name })}
            title={t("fileView.preview.title")}
            onClick={() => onPreview(entry)}
          >
            <Eye className="h-4 w-4" aria-hidden />
          </Button>
          <DownloadLink entry={entry} compact />
        </span>
      )}
    </li>
  );
}

/** A tile with its thumbnail (images and videos); others show their icon. */
function EntryTile({ entry, onOpenFolder, onPreview }: EntryProps) {
  const { t } = useTranslation();
  return (
    <li className="overflow-hidden rounded-xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
      <button
        type="button"
        aria-label={
          entry.is_directory
            ? t("collectionView.openFolderNamed", { name: entry.name })
            : t("collectionView.previewNamed", { name: entry.name })
        }
        className="flex aspect-square w-full items-center justify-center bg-slate-100 dark:bg-slate-950"
        onClick={() => (entry.is_directory ? onOpenFolder(entry) : onPreview(entry))}
      >
        {entry.thumbnail_url ? (
          <img
            src={backendUrl(entry.thumbnail_url)}
            alt=""
            loading="lazy"
            className="h-full w-full object-cover"
          />
        ) : entry.is_directory ? (
          <Folder className="h-10 w-10 text-slate-400" aria-hidden />
        ) : (
          <File className="h-10 w-10 text-slate-400" aria-hidden />
        )}
      </button>
      <div className="flex items-center gap-1 px-2 py-1.5">
        <span className="min-w-0 flex-1">
          <span className="block truncate text-xs font-medium text-slate-900 dark:text-slate-100">
            {entry.name}
          </span>
          <span className="block text-xs text-slate-500 dark:text-slate-400">
            {entry.is_directory ? t("collectionView.folder") : formatBytes(entry.size)}
          </span>
        </span>
        <DownloadLink entry={entry} compact />
      </div>
    </li>
  );
}

const LAYOUTS = {
  list: {
    Entry: EntryRow,
    className: "divide-y divide-slate-200 dark:divide-slate-800",
    testId: "collection-entries",
  },
  gallery: {
    Entry: EntryTile,
    className: "grid grid-cols-2 gap-3 p-3 sm:grid-cols-3 lg:grid-cols-4",
    testId: "collection-gallery",
  },
} as const;

/** The entries as rows or as tiles. */
export function CollectionEntries({
  layout,
  entries,
  ...handlers
}: { layout: EntryLayout; entries: CollectionEntry[] } & EntryHandlers) {
  const { Entry, className, testId } = LAYOUTS[layout];
  return (
    <ul className={className} data-testid={testId}>
      {entries.map((entry) => (
        <Entry key={`${entry.item_id}/${entry.path}`} entry={entry} {...handlers} />
      ))}
    </ul>
  );
}
