import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { FigureList } from "../../../components/figure-list";
import { Alert } from "../../../components/ui/alert";
import { Dialog } from "../../../components/ui/dialog";
import { Spinner } from "../../../components/ui/spinner";
import { useTranslation } from "../../../i18n";
import { formatBytes } from "../../../lib/file-size";
import { formatCount } from "../../../lib/format";
import { useErrorText } from "../../../lib/use-error-text";
import { explorerHref } from "../../mount-explorer";
import { indexesApi } from "../api/indexes";

/** Where a mount's bytes are, from its index: the totals, the largest folders and files. */
export function UsageDialog({
  mount,
  onClose,
}: {
  mount: { id: string; name: string; path: string } | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={mount !== null}
      onOpenChange={(open) => !open && onClose()}
      title={t("indexes.usage.title", { name: mount?.name ?? "" })}
      description={t("indexes.usage.description")}
      size="lg"
    >
      {mount ? <UsageBody mount={mount} /> : null}
    </Dialog>
  );
}

function UsageBody({ mount }: { mount: { id: string; path: string } }) {
  const { t, i18n } = useTranslation();
  const errorText = useErrorText();
  const usage = useQuery({
    queryKey: ["admin", "indexes", mount.id, "usage"],
    queryFn: ({ signal }) => indexesApi.usage(mount.id, signal),
  });
  if (usage.isPending) return <Spinner />;
  if (usage.isError) return <Alert>{errorText(usage.error)}</Alert>;
  const { total, largestFolders, largestFiles } = usage.data;
  // Index paths are relative to the mount; the explorer and the reader want the full path.
  const full = (path: string) => `${mount.path.replace(/\/$/, "")}/${path}`;
  const parentOf = (path: string) => full(path).slice(0, full(path).lastIndexOf("/")) || "/";
  return (
    <div className="grid gap-5">
      <FigureList
        className="grid grid-cols-3 gap-2"
        figures={[
          { id: "size", label: t("indexes.usage.size"), value: formatBytes(total.size) },
          { id: "files", label: t("indexes.usage.files"), value: formatCount(total.files, i18n.language) },
          {
            id: "folders",
            label: t("indexes.usage.folders"),
            value: formatCount(total.folders, i18n.language),
          },
        ]}
      />
      <UsageList
        title={t("indexes.usage.largestFolders")}
        empty={t("indexes.usage.noFolders")}
        total={total.size}
        rows={largestFolders.map((f) => ({
          path: full(f.path),
          href: explorerHref(full(f.path)),
          size: f.size,
          detail: t("indexes.usage.filesCount", {
            count: f.files,
            formatted: formatCount(f.files, i18n.language),
          }),
        }))}
      />
      <UsageList
        title={t("indexes.usage.largestFiles")}
        empty={t("indexes.usage.noFiles")}
        total={total.size}
        rows={largestFiles.map((f) => ({
          path: full(f.path),
          href: explorerHref(parentOf(f.path)),
          size: f.size,
        }))}
      />
    </div>
  );
}

type UsageRow = { path: string; href: string; size: number; detail?: string };

function UsageList({
  title,
  empty,
  total,
  rows,
}: {
  title: string;
  empty: string;
  total: number;
  rows: UsageRow[];
}) {
  const { t } = useTranslation();
  return (
    <section aria-label={title}>
      <h3 className="mb-2 text-sm font-semibold text-slate-900 dark:text-slate-100">{title}</h3>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">{empty}</p>
      ) : (
        <ol className="grid gap-1.5">
          {rows.map((row) => {
            const share = total > 0 ? Math.round((row.size / total) * 100) : 0;
            return (
              <li key={row.path} className="grid gap-1" data-testid="usage-row">
                <div className="flex items-baseline justify-between gap-3 text-sm">
                  <Link
                    to={row.href}
                    className="min-w-0 truncate font-mono text-indigo-700 hover:underline dark:text-indigo-300"
                    title={row.path}
                  >
                    {row.path}
                  </Link>
                  <span className="shrink-0 tabular-nums text-slate-700 dark:text-slate-200">
                    {formatBytes(row.size)}
                    {row.detail ? (
                      <span className="text-slate-500 dark:text-slate-400"> · {row.detail}</span>
                    ) : null}
                  </span>
                </div>
                {/* The bar is decoration: the figure beside it says the same. */}
                <div aria-hidden className="h-1.5 rounded-full bg-slate-100 dark:bg-slate-800">
                  <div
                    className="h-1.5 rounded-full bg-indigo-500"
                    style={{ width: `${Math.max(share, row.size > 0 ? 1 : 0)}%` }}
                    title={t("indexes.usage.share", { percent: share })}
                  />
                </div>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
