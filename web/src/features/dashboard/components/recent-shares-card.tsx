import type { RecentShare } from "@clipshare/shared";
import { Files, FileText, Lock, Upload } from "lucide-react";
import { Link } from "react-router";
import { Badge } from "../../../components/ui/badge";
import { buttonClasses } from "../../../components/ui/button";
import { Card, CardHeader } from "../../../components/ui/card";
import { useTranslation } from "../../../i18n";
import { formatBytes } from "../../../lib/file-size";
import { formatDateTime } from "../../../lib/format";

function ShareRow({ share }: { share: RecentShare }) {
  const { t, i18n } = useTranslation();
  const isPaste = share.type === "paste";
  const Icon = isPaste ? FileText : Files;
  const name = share.title?.trim() || (isPaste ? t("dashboard.recent.untitled") : share.slug);
  const to = `/${isPaste ? "paste" : "file"}/${encodeURIComponent(share.slug)}`;
  return (
    <li className="flex items-start gap-3 py-2.5 first:pt-0 last:pb-0" data-testid="recent-share">
      <Icon className="mt-0.5 h-4 w-4 shrink-0 text-slate-400" aria-hidden />
      <div className="min-w-0 flex-1">
        <Link
          to={to}
          className="font-medium break-words text-slate-900 hover:text-indigo-700 hover:underline dark:text-slate-100 dark:hover:text-indigo-300"
        >
          {name}
        </Link>
        <p className="mt-0.5 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-slate-500 dark:text-slate-400">
          <Badge tone={isPaste ? "accent" : "success"}>
            {isPaste ? t("dashboard.recent.paste") : t("dashboard.recent.file")}
          </Badge>
          {share.has_password ? (
            <Badge tone="warning">
              <Lock className="mr-1 h-3 w-3" aria-hidden />
              {t("dashboard.recent.protected")}
            </Badge>
          ) : null}
          <span className="font-mono break-all">{share.slug}</span>
          {share.size !== null ? <span>{formatBytes(share.size)}</span> : null}
          <time dateTime={share.created_at}>{formatDateTime(share.created_at, i18n.language)}</time>
        </p>
      </div>
    </li>
  );
}

/** The newest pastes and file shares; on a fresh install, where to create the first ones. */
export function RecentSharesCard({ shares }: { shares: RecentShare[] | undefined }) {
  const { t } = useTranslation();
  const list = shares ?? [];
  return (
    <Card aria-labelledby="dashboard-recent-title" className="min-w-0">
      <CardHeader
        headingLevel={3}
        titleId="dashboard-recent-title"
        title={t("dashboard.recent.title")}
        actions={
          list.length > 0 ? (
            <div className="flex flex-wrap gap-x-3 text-sm">
              <Link
                to="/admin/text-management"
                className="text-indigo-700 hover:underline dark:text-indigo-300"
              >
                {t("dashboard.recent.viewAll")}
              </Link>
              <Link
                to="/admin/file-management"
                className="text-indigo-700 hover:underline dark:text-indigo-300"
              >
                {t("dashboard.recent.viewAllFiles")}
              </Link>
            </div>
          ) : undefined
        }
      />
      <div className="px-5 py-4">
        {list.length === 0 ? (
          <div className="flex flex-col items-start gap-3 text-sm text-slate-600 dark:text-slate-300">
            <p>{t("dashboard.recent.empty")}</p>
            <div className="flex flex-wrap gap-2">
              <Link to="/" className={buttonClasses("primary", "sm")}>
                <FileText className="h-4 w-4" aria-hidden />
                {t("dashboard.recent.createPaste")}
              </Link>
              <Link to="/upload" className={buttonClasses("outline", "sm")}>
                <Upload className="h-4 w-4" aria-hidden />
                {t("dashboard.recent.uploadFile")}
              </Link>
            </div>
          </div>
        ) : (
          <ul className="divide-y divide-slate-200 dark:divide-slate-800">
            {list.map((s) => (
              <ShareRow key={`${s.type}-${s.id}`} share={s} />
            ))}
          </ul>
        )}
      </div>
    </Card>
  );
}
