import { ChevronRight, LayoutGrid, List } from "lucide-react";
import { useState } from "react";
import { Segmented } from "../../../components/segmented";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { Spinner } from "../../../components/ui/spinner";
import { useTranslation } from "../../../i18n";
import { useErrorText } from "../../../lib/use-error-text";
import type { CollectionEntry, PublicCollection } from "../api/collections";
import { useCollectionFolder } from "../hooks/use-collection-visit";
import { CollectionEntries, type EntryLayout, looksLikeGallery } from "./collection-entries";
import { EntryPreviewDialog } from "./entry-preview-dialog";

/** Where the visitor is: the collection's top, or a folder inside one of its folder items. */
type Place = { item: CollectionEntry; path: string } | null;

/** The items, a folder's contents page by page, list or gallery, and the preview of one file. */
export function CollectionBrowser({ collection }: { collection: PublicCollection }) {
  const { t } = useTranslation();
  const [place, setPlace] = useState<Place>(null);
  const [layout, setLayout] = useState<EntryLayout | null>(null);
  const [previewing, setPreviewing] = useState<CollectionEntry | null>(null);
  const openFolder = (entry: CollectionEntry) =>
    setPlace({ item: place?.item ?? entry, path: place ? entry.path : "" });

  return (
    <section
      aria-labelledby="collection-items-title"
      className="rounded-2xl border border-slate-200 bg-white shadow-xs dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 px-3 py-2.5 sm:px-4 dark:border-slate-800">
        <h2 id="collection-items-title" className="sr-only">
          {t("collectionView.items")}
        </h2>
        <div className="min-w-0">
          <Breadcrumb place={place} onGo={setPlace} />
        </div>
        <Segmented
          label={t("collectionView.layout")}
          value={layout ?? (looksLikeGallery(collection.items) ? "gallery" : "list")}
          onChange={setLayout}
          options={[
            {
              value: "list",
              label: t("collectionView.list"),
              icon: <List className="h-4 w-4" aria-hidden />,
            },
            {
              value: "gallery",
              label: t("collectionView.gallery"),
              icon: <LayoutGrid className="h-4 w-4" aria-hidden />,
            },
          ]}
        />
      </div>
      {place ? (
        <FolderContents
          slug={collection.slug}
          token={collection.access_token}
          place={place}
          layout={layout ?? "list"}
          onOpenFolder={openFolder}
          onPreview={setPreviewing}
        />
      ) : (
        <Entries
          entries={collection.items}
          layout={layout ?? (looksLikeGallery(collection.items) ? "gallery" : "list")}
          onOpenFolder={openFolder}
          onPreview={setPreviewing}
        />
      )}
      <EntryPreviewDialog slug={collection.slug} entry={previewing} onClose={() => setPreviewing(null)} />
    </section>
  );
}

function Entries({
  entries,
  layout,
  onOpenFolder,
  onPreview,
}: {
  entries: CollectionEntry[];
  layout: EntryLayout;
  onOpenFolder: (entry: CollectionEntry) => void;
  onPreview: (entry: CollectionEntry) => void;
}) {
  const { t } = useTranslation();
  if (entries.length === 0)
    return (
      <p className="px-4 py-8 text-center text-sm text-slate-500 dark:text-slate-400">
        {t("collectionView.empty")}
      </p>
    );
  return (
    <CollectionEntries layout={layout} entries={entries} onOpenFolder={onOpenFolder} onPreview={onPreview} />
  );
}

function FolderContents({
  slug,
  token,
  place,
  layout,
  onOpenFolder,
  onPreview,
}: {
  slug: string;
  token: string | null;
  place: NonNullable<Place>;
  layout: EntryLayout;
  onOpenFolder: (entry: CollectionEntry) => void;
  onPreview: (entry: CollectionEntry) => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const folder = useCollectionFolder(slug, place.item.item_id, place.path, token);
  if (folder.isPending) return <Spinner className="m-6" />;
  if (folder.isError) return <Alert className="m-4">{errorText(folder.error)}</Alert>;
  const entries = folder.data.pages.flatMap((p) => p.entries);
  return (
    <>
      <Entries entries={entries} layout={layout} onOpenFolder={onOpenFolder} onPreview={onPreview} />
      {folder.hasNextPage ? (
        <div className="flex justify-center border-t border-slate-200 p-3 dark:border-slate-800">
          <Button
            variant="outline"
            disabled={folder.isFetchingNextPage}
            onClick={() => void folder.fetchNextPage()}
          >
            {t("collectionView.more")}
          </Button>
        </div>
      ) : null}
    </>
  );
}

/** "All items › photos › 2024": each step but the last goes back up. */
function Breadcrumb({ place, onGo }: { place: Place; onGo: (place: Place) => void }) {
  const { t } = useTranslation();
  const link =
    "rounded text-sm font-medium text-indigo-600 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-indigo-400";
  if (!place) return <span className="text-sm font-semibold">{t("collectionView.items")}</span>;
  const parts = place.path ? place.path.split("/") : [];
  return (
    <nav aria-label={t("collectionView.whereLabel")} className="flex flex-wrap items-center gap-1 text-sm">
      <button type="button" className={link} onClick={() => onGo(null)}>
        {t("collectionView.items")}
      </button>
      <ChevronRight className="h-4 w-4 text-slate-400" aria-hidden />
      {parts.length === 0 ? (
        <span className="font-semibold break-all" aria-current="location">
          {place.item.name}
        </span>
      ) : (
        <button type="button" className={link} onClick={() => onGo({ item: place.item, path: "" })}>
          {place.item.name}
        </button>
      )}
      {parts.map((part, i) => (
        // The path up to this step names it uniquely.
        <span key={parts.slice(0, i + 1).join("/")} className="flex items-center gap-1">
          <ChevronRight className="h-4 w-4 text-slate-400" aria-hidden />
          {i === parts.length - 1 ? (
            <span className="font-semibold break-all" aria-current="location">
              {part}
            </span>
          ) : (
            <button
              type="button"
              className={link}
              onClick={() => onGo({ item: place.item, path: parts.slice(0, i + 1).join("/") })}
            >
              {part}
            </button>
          )}
        </span>
      ))}
    </nav>
  );
}
