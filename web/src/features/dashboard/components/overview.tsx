import type { LucideIcon } from "lucide-react";
import { ArrowRight, Files, FileText, FolderCog, HardDrive, KeyRound, Upload } from "lucide-react";
import { Link } from "react-router";
import { Card, CardHeader } from "../../../components/ui/card";
import { useTranslation } from "../../../i18n";
import { formatCount } from "../../../lib/format";
import type { DashboardStats } from "../api/dashboard";

/** The four totals, each a link to the module that manages them. */
export function CountTiles({ stats }: { stats: DashboardStats }) {
  const { t, i18n } = useTranslation();
  const tiles: { id: string; label: string; value: number; icon: LucideIcon; to: string }[] = [
    {
      id: "pastes",
      label: t("dashboard.counts.pastes"),
      value: stats.totalPastes,
      icon: FileText,
      to: "/admin/text-management",
    },
    {
      id: "files",
      label: t("dashboard.counts.files"),
      value: stats.totalFiles,
      icon: Files,
      to: "/admin/file-management",
    },
    {
      id: "api-keys",
      label: t("dashboard.counts.apiKeys"),
      value: stats.totalApiKeys,
      icon: KeyRound,
      to: "/admin/key-management",
    },
    {
      id: "storage-configs",
      label: t("dashboard.counts.storageConfigs"),
      value: stats.totalS3Configs,
      icon: HardDrive,
      to: "/admin/storage-config",
    },
  ];
  return (
    <ul aria-label={t("dashboard.counts.label")} className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      {tiles.map(({ id, label, value, icon: Icon, to }) => (
        <li key={id}>
          <Link
            to={to}
            data-testid={`count-${id}`}
            className="flex h-full min-w-0 items-center gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-xs transition-colors hover:border-indigo-300 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-slate-800 dark:bg-slate-900 dark:hover:border-indigo-700"
          >
            <span className="hidden rounded-xl bg-indigo-50 p-2.5 sm:block dark:bg-indigo-950/50" aria-hidden>
              <Icon className="h-5 w-5 text-indigo-600 dark:text-indigo-400" />
            </span>
            <span className="flex min-w-0 flex-col">
              <span
                className="text-2xl font-semibold tabular-nums text-slate-900 dark:text-slate-50"
                data-value
              >
                {formatCount(value, i18n.language)}
              </span>
              <span className="text-sm break-words text-slate-600 dark:text-slate-300">{label}</span>
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** The first steps a fresh install still lacks, each linking to where it is done; nothing once all are done. */
export function GettingStarted({ stats }: { stats: DashboardStats }) {
  const { t } = useTranslation();
  const steps: { id: string; done: boolean; label: string; to: string; icon: LucideIcon }[] = [
    {
      id: "storage",
      done: stats.totalS3Configs > 0,
      label: t("dashboard.gettingStarted.storage"),
      to: "/admin/storage-config",
      icon: HardDrive,
    },
    // A 0.7.3 server does not count mounts; then the step is not offered.
    {
      id: "mount",
      done: (stats.totalMounts ?? 1) > 0,
      label: t("dashboard.gettingStarted.mount"),
      to: "/admin/mount-management",
      icon: FolderCog,
    },
    {
      id: "upload",
      done: stats.totalFiles > 0,
      label: t("dashboard.gettingStarted.upload"),
      to: "/upload",
      icon: Upload,
    },
    {
      id: "paste",
      done: stats.totalPastes > 0,
      label: t("dashboard.gettingStarted.paste"),
      to: "/",
      icon: FileText,
    },
  ];
  const open = steps.filter((s) => !s.done);
  if (open.length === 0) return null;
  return (
    <Card aria-labelledby="dashboard-start-title">
      <CardHeader
        headingLevel={3}
        titleId="dashboard-start-title"
        title={t("dashboard.gettingStarted.title")}
        description={t("dashboard.gettingStarted.description")}
      />
      <div className="@container px-5 py-4">
        <ul className="grid gap-2 @xl:grid-cols-2">
          {open.map(({ id, label, to, icon: Icon }) => (
            <li key={id}>
              <Link
                to={to}
                data-testid={`start-${id}`}
                className="flex items-center gap-3 rounded-xl border border-dashed border-slate-300 px-3 py-2.5 text-sm text-slate-700 hover:border-indigo-400 hover:text-indigo-700 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-slate-700 dark:text-slate-200 dark:hover:text-indigo-300"
              >
                <Icon className="h-4 w-4 shrink-0 text-indigo-600 dark:text-indigo-400" aria-hidden />
                <span className="min-w-0 flex-1">{label}</span>
                <ArrowRight className="h-4 w-4 shrink-0" aria-hidden />
              </Link>
            </li>
          ))}
        </ul>
      </div>
    </Card>
  );
}
