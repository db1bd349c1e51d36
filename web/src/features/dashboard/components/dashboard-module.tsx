import { RefreshCw } from "lucide-react";
import { AccessSummaryCard } from "../../../components/access-log/access-summary-card";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { Spinner } from "../../../components/ui/spinner";
import { toast } from "../../../components/ui/toast";
import { useTranslation } from "../../../i18n";
import { useErrorText } from "../../../lib/use-error-text";
import { useCacheStats, useClearCache, useDashboardStats } from "../hooks/use-dashboard";
import { ActivityCard } from "./activity-card";
import { CacheCard } from "./cache-card";
import { CountTiles, GettingStarted } from "./overview";
import { RecentSharesCard } from "./recent-shares-card";
import { StorageCard } from "./storage-card";

/** The admin panel's default module: totals, first steps, activity, storage and caches at a glance. */
export function DashboardModule() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const stats = useDashboardStats();
  const cache = useCacheStats();
  const clear = useClearCache();

  const clearCache = (storageConfigId?: string) =>
    clear.mutate(storageConfigId, {
      onSuccess: (result) =>
        toast(() => t("dashboard.cache.cleared", { count: result.clearedCount }), "success"),
      onError: (error) => toast(errorText(error), "error"),
    });
  const refresh = () => {
    void stats.refetch();
    void cache.refetch();
  };

  return (
    <div className="flex min-w-0 flex-col gap-4">
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 className="text-xl font-semibold tracking-tight text-slate-900 dark:text-slate-50">
            {t("admin.modules.dashboard")}
          </h2>
          <p className="mt-0.5 text-sm text-slate-600 dark:text-slate-400">{t("dashboard.subtitle")}</p>
        </div>
        <Button variant="outline" size="sm" onClick={refresh} disabled={stats.isFetching}>
          <RefreshCw className={stats.isFetching ? "h-4 w-4 animate-spin" : "h-4 w-4"} aria-hidden />
          {t("dashboard.refresh")}
        </Button>
      </header>

      {stats.isPending ? (
        <Spinner />
      ) : stats.isError ? (
        <Alert>{errorText(stats.error)}</Alert>
      ) : (
        <>
          <CountTiles stats={stats.data} />
          <GettingStarted stats={stats.data} />
          {/* Two columns that fill from the top, each card under the one before: a grid's rows
              would leave a hole beside the shorter card of each row. */}
          <div
            data-testid="dashboard-cards"
            className="gap-4 lg:columns-2 [&>*]:mb-4 [&>*]:break-inside-avoid"
          >
            <ActivityCard stats={stats.data} />
            <RecentSharesCard shares={stats.data.recentShares} />
            <StorageCard stats={stats.data} onClearCache={clearCache} clearing={clear.isPending} />
            <CacheCard onClearAll={() => clearCache()} clearing={clear.isPending} />
            <AccessSummaryCard />
          </div>
        </>
      )}
    </div>
  );
}
