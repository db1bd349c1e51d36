import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { Dialog } from "../../../components/ui/dialog";
import { Spinner } from "../../../components/ui/spinner";
import { useTranslation } from "../../../i18n";
import { formatBytes } from "../../../lib/file-size";
import { formatDateTime } from "../../../lib/format";
import { useErrorText } from "../../../lib/use-error-text";
import type { FsEntry } from "../api/fs";
import { useFolderContents } from "../hooks/use-folder-contents";
import { useFileInfo } from "../hooks/use-fs";

/**
 * The details of one entry, fetched anew (GET /fs/get): where it is, its kind, size and date;
 * for a folder the bytes, files and folders below it, which the mount's search index knows.
 */
export function DetailsDialog({ path, name, onClose }: { path: string; name: string; onClose: () => void }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const info = useFileInfo(path);
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t("explorer.details.title")}
      description={name}
      footer={
        <Button variant="outline" onClick={onClose}>
          {t("common.close")}
        </Button>
      }
    >
      {info.isPending ? (
        <Spinner />
      ) : info.isError ? (
        <Alert>{errorText(info.error)}</Alert>
      ) : (
        <EntryDetails entry={info.data} />
      )}
    </Dialog>
  );
}

function EntryDetails({ entry }: { entry: FsEntry }) {
  const { t, i18n } = useTranslation();
  const contents = useFolderContents();
  const sized = entry.isDirectory && entry.folderSize !== undefined;
  const rows: Array<{ id: string; label: string; value: string }> = [
    { id: "location", label: t("explorer.details.location"), value: entry.path },
    {
      id: "kind",
      label: t("explorer.details.kind"),
      value: entry.isDirectory
        ? t(entry.isMount ? "explorer.details.mount" : "explorer.details.folder")
        : (entry.contentType ?? entry.mimetype ?? t("explorer.details.file")),
    },
  ];
  if (!entry.isDirectory)
    rows.push({ id: "size", label: t("explorer.details.size"), value: formatBytes(entry.size) });
  if (sized) {
    rows.push(
      { id: "size", label: t("explorer.details.size"), value: formatBytes(entry.folderSize) },
      { id: "contents", label: t("explorer.details.contentsLabel"), value: contents(entry) },
    );
  }
  if (entry.modified)
    rows.push({
      id: "modified",
      label: t("explorer.details.modified"),
      value: formatDateTime(entry.modified, i18n.language),
    });
  if (entry.storage_type)
    rows.push({ id: "storage", label: t("explorer.details.storage"), value: entry.storage_type });
  return (
    <div className="grid gap-3">
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-2 text-sm">
        {rows.map((row) => (
          <div key={row.id} className="contents">
            <dt className="text-slate-600 dark:text-slate-300">{row.label}</dt>
            <dd
              className="break-words text-slate-900 tabular-nums dark:text-slate-50 [overflow-wrap:anywhere]"
              data-detail={row.id}
            >
              {row.value}
            </dd>
          </div>
        ))}
      </dl>
      {entry.isDirectory ? (
        <p className="text-xs text-slate-600 dark:text-slate-300">
          {sized ? t("explorer.details.fromIndex") : t("explorer.details.noIndex")}
        </p>
      ) : null}
    </div>
  );
}
