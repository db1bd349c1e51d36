import { lazy, Suspense, useMemo } from "react";
import { Card, CardHeader } from "../../../components/ui/card";
import { Spinner } from "../../../components/ui/spinner";
import { useTranslation } from "../../../i18n";
import type { DashboardStats } from "../api/dashboard";
import { activityDays, activityTotals, dayLabel } from "../dashboard-model";

const ActivityChart = lazy(() => import("./activity-chart"));

function Legend({ className, label }: { className: string; label: string }) {
  return (
    <span className="inline-flex items-center gap-1.5 text-xs text-slate-600 dark:text-slate-300">
      <span className={`h-2.5 w-2.5 rounded-sm ${className}`} aria-hidden />
      {label}
    </span>
  );
}

/** The week's activity: a chart for the eye and a table with the same figures for screen readers. */
export function ActivityCard({ stats }: { stats: DashboardStats }) {
  const { t, i18n } = useTranslation();
  const days = useMemo(() => activityDays(stats), [stats]);
  const totals = activityTotals(days);
  const summary = t("dashboard.activity.summary", {
    pastes: t("dashboard.activity.pasteCount", { count: totals.pastes }),
    files: t("dashboard.activity.fileCount", { count: totals.files }),
  });

  return (
    <Card aria-labelledby="dashboard-activity-title" className="min-w-0">
      <CardHeader
        headingLevel={3}
        titleId="dashboard-activity-title"
        title={t("dashboard.activity.title")}
        actions={
          <div className="flex items-center gap-3">
            <Legend className="bg-indigo-500 dark:bg-indigo-400" label={t("dashboard.activity.pastes")} />
            <Legend className="bg-emerald-500 dark:bg-emerald-400" label={t("dashboard.activity.files")} />
          </div>
        }
      />
      <div className="px-5 py-4">
        <p className="mb-3 text-sm text-slate-600 dark:text-slate-300" data-testid="activity-summary">
          {totals.pastes + totals.files === 0 ? t("dashboard.activity.empty") : summary}
        </p>
        <Suspense
          fallback={
            <div className="flex h-[200px] items-center justify-center">
              <Spinner label={t("dashboard.activity.loading")} />
            </div>
          }
        >
          <ActivityChart days={days} />
        </Suspense>
        <table className="sr-only" data-testid="activity-table">
          <caption>{t("dashboard.activity.tableCaption")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("dashboard.activity.day")}</th>
              <th scope="col">{t("dashboard.activity.pastes")}</th>
              <th scope="col">{t("dashboard.activity.files")}</th>
            </tr>
          </thead>
          <tbody>
            {days.map((d) => (
              <tr key={d.date} data-date={d.date}>
                <th scope="row">
                  {dayLabel(d.date, i18n.language)} {d.date}
                </th>
                <td>{d.pastes}</td>
                <td>{d.files}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  );
}
