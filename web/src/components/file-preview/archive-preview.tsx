import type { FsArchiveListing } from "@clipshare/shared";
import { useQuery } from "@tanstack/react-query";
import { Download, Eye, ShieldAlert, X } from "lucide-react";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "../../i18n";
import { formatBytes } from "../../lib/file-size";
import { previewKind } from "../../lib/preview-kind";
import { useErrorText } from "../../lib/use-error-text";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { Spinner } from "../ui/spinner";

type ArchiveEntry = FsArchiveListing["entries"][number];

/** Where an archive is read from: an explorer file or a file share (each reads with its own credentials). */
export interface ArchiveSource {
  /** Identifies the archive for the query cache. */
  key: readonly unknown[];
  list(signal?: AbortSignal): Promise<FsArchiveListing>;
  read(entry: string, signal?: AbortSignal): Promise<Blob>;
}

/** An entry opened in place: its text, or an object URL of its image. */
type Opened = { entry: ArchiveEntry; text?: string; imageUrl?: string; error?: unknown };

/** Entries shown as text or image in the panel; everything else is a download. */
const OPEN_MAX_BYTES = 2 * 1024 * 1024;

const kindOf = (entry: ArchiveEntry) => previewKind(null, entry.path);

const openable = (entry: ArchiveEntry) => {
  const kind = kindOf(entry);
  return (
    !entry.unsafe &&
    !entry.encrypted &&
    entry.size <= OPEN_MAX_BYTES &&
    (kind === "text" || kind === "markdown" || kind === "image")
  );
};

/** Saves a blob under `name` through a temporary link. */
function saveBlob(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * The inside of a ZIP, TAR or TAR.GZ file: its entries with sizes, a filter, and each
 * safe entry opened in place (text, images) or downloaded on its own. Names that would
 * leave their folder are marked and cannot be opened (the server refuses them too).
 */
export function ArchivePreview({ source }: { source: ArchiveSource }) {
  const { t, i18n } = useTranslation();
  const errorText = useErrorText();
  const archive = useQuery({
    queryKey: [...source.key, "archive"],
    queryFn: ({ signal }) => source.list(signal),
    retry: false,
  });
  const [filter, setFilter] = useState("");
  const [opened, setOpened] = useState<Opened | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  useEffect(
    () => () => {
      if (opened?.imageUrl) URL.revokeObjectURL(opened.imageUrl);
    },
    [opened],
  );

  const entries = useMemo(() => {
    const all = archive.data?.entries.filter((e) => !e.is_directory) ?? [];
    const needle = filter.trim().toLowerCase();
    return needle ? all.filter((e) => e.path.toLowerCase().includes(needle)) : all;
  }, [archive.data, filter]);

  if (archive.isError) return <Alert>{errorText(archive.error)}</Alert>;
  if (!archive.data) return <Spinner />;
  const data = archive.data;
  const fileCount = data.entries.filter((e) => !e.is_directory).length;

  const fetchEntry = async (entry: ArchiveEntry) => {
    setBusy(entry.path);
    try {
      return await source.read(entry.path);
    } finally {
      setBusy(null);
    }
  };
  const open = async (entry: ArchiveEntry) => {
    try {
      const blob = await fetchEntry(entry);
      if (kindOf(entry) === "image") setOpened({ entry, imageUrl: URL.createObjectURL(blob) });
      else setOpened({ entry, text: await blob.text() });
    } catch (error) {
      setOpened({ entry, error });
    }
  };
  const download = async (entry: ArchiveEntry) => {
    try {
      saveBlob(await fetchEntry(entry), entry.path.split("/").pop() || "entry");
    } catch (error) {
      setOpened({ entry, error });
    }
  };

  return (
    <div
      className="flex max-h-[75dvh] flex-col gap-3 overflow-hidden rounded-lg bg-white p-4 text-slate-800 dark:bg-slate-900 dark:text-slate-100"
      data-testid="archive-preview"
    >
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <p className="text-slate-600 dark:text-slate-300" data-testid="archive-summary">
          {t("archive.entries", { count: fileCount, size: formatBytes(data.total_size) })}
        </p>
        <input
          type="search"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          placeholder={t("archive.filter")}
          aria-label={t("archive.filter")}
          className="ml-auto min-w-0 rounded-md border border-slate-300 bg-transparent px-2 py-1 text-sm dark:border-slate-700"
        />
      </div>
      {data.truncated ? <Alert>{t("archive.truncated")}</Alert> : null}
      {opened ? (
        <div
          className="rounded-md border border-slate-200 p-2 dark:border-slate-700"
          data-testid="archive-opened"
        >
          <div className="mb-2 flex items-center gap-2">
            <p className="min-w-0 flex-1 truncate font-mono text-xs">{opened.entry.path}</p>
            <Button variant="ghost" size="sm" onClick={() => setOpened(null)} aria-label={t("archive.close")}>
              <X className="h-4 w-4" aria-hidden />
            </Button>
          </div>
          {opened.error ? (
            <Alert>{errorText(opened.error)}</Alert>
          ) : opened.imageUrl ? (
            <img src={opened.imageUrl} alt={opened.entry.path} className="mx-auto max-h-64 object-contain" />
          ) : (
            <pre className="max-h-64 overflow-auto whitespace-pre-wrap break-words font-mono text-xs">
              {opened.text}
            </pre>
          )}
        </div>
      ) : null}
      {fileCount === 0 ? (
        <p className="text-sm text-slate-500 dark:text-slate-400">{t("archive.empty")}</p>
      ) : (
        <div className="min-h-0 overflow-auto">
          <table className="w-full text-left text-sm">
            <thead className="sticky top-0 bg-white text-xs text-slate-500 dark:bg-slate-900 dark:text-slate-400">
              <tr>
                <th className="py-1 pr-2 font-medium">{t("archive.path")}</th>
                <th className="py-1 pr-2 text-right font-medium">{t("archive.size")}</th>
                <th className="hidden py-1 pr-2 font-medium sm:table-cell">{t("archive.modified")}</th>
                <th className="py-1" />
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.path} className="border-t border-slate-100 dark:border-slate-800">
                  <td className="max-w-0 py-1 pr-2">
                    <span className="block truncate font-mono text-xs" title={entry.path}>
                      {entry.path}
                    </span>
                    {entry.unsafe ? (
                      <span
                        className="inline-flex items-center gap-1 text-xs text-red-700 dark:text-red-300"
                        title={t("archive.unsafeHint")}
                      >
                        <ShieldAlert className="h-3 w-3" aria-hidden />
                        {t("archive.unsafe")}
                      </span>
                    ) : null}
                    {entry.encrypted ? (
                      <span className="text-xs text-slate-500 dark:text-slate-400">
                        {t("archive.encrypted")}
                      </span>
                    ) : null}
                  </td>
                  <td className="whitespace-nowrap py-1 pr-2 text-right tabular-nums">
                    {formatBytes(entry.size)}
                  </td>
                  <td className="hidden whitespace-nowrap py-1 pr-2 text-xs text-slate-500 sm:table-cell dark:text-slate-400">
                    {entry.modified ? new Date(entry.modified).toLocaleString(i18n.language) : ""}
                  </td>
                  <td className="whitespace-nowrap py-1 text-right">
                    {busy === entry.path ? <Spinner /> : null}
                    {openable(entry) ? (
                      <Button
                        variant="ghost"
                        size="sm"
                        onClick={() => open(entry)}
                        aria-label={`${t("archive.open")} ${entry.path}`}
                      >
                        <Eye className="h-4 w-4" aria-hidden />
                      </Button>
                    ) : null}
                    {!entry.unsafe && !entry.encrypted ? (
                      <Button
                        variant="ghost"
                        size="sm"
                        onClick={() => download(entry)}
                        aria-label={`${t("archive.download")} ${entry.path}`}
                      >
                        <Download className="h-4 w-4" aria-hidden />
                      </Button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
