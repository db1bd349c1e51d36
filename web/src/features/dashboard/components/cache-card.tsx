import { Eraser } from "lucide-react";
import { FigureList } from "../../../components/figure-list";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { Card, CardHeader } from "../../../components/ui/card";
import { Spinner } from "../../../components/ui/spinner";
import { useTranslation } from "../../../i18n";
import { formatCount } from "../../../lib/format";
import { useErrorText } from "../../../lib/use-error-text";
import type { CacheCounters } from "../api/dashboard";
import { hitRatePercent } from "../dashboard-model";
import { useCacheStats } from "../hooks/use-dashboard";

const CACHES = [
  { id: "directory", label: "dashboard.cache.directory" },
  { id: "s3Url", label: "dashboard.cache.s3Url" },
  { id: "search", label: "dashboard.cache.search" },
] as const;

function CacheTile({ label, counters }: { label: string; counters: CacheCounters | undefined }) {
  const { t, i18n } = useTranslation();
  const figures = [
    {
      id: "items",
      label: t("dashboard.cache.items"),
      value: formatCount(counters?.cacheSize ?? 0, i18n.language),
    },
    { id: "hits", label: t("dashboard.cache.hits"), value: formatCount(counters?.hits ?? 0, i18n.language) },
    { id: "hit-rate", label: t("dashboard.cache.hitRate"), value: `${hitRatePercent(counters?.hitRate)}%` },
  ];
  return (
    <li aria-label={label} className="rounded-xl border border-slate-200 p-3 dark:border-slate-800">
      <p className="text-sm font-medium text-slate-900 dark:text-slate-100">{label}</p>
      <FigureList figures={figures} />
    </li>
  );
}

/** The explorer's in-memory caches: size, hits and hit rate of each, and a button that clears them all. */
export function CacheCard({ onClearAll, clearing }: { onClearAll: () => void; clearing: boolean }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const stats = useCacheStats();
  return (
    <Card aria-labelledby="dashboard-cache-title" className="min-w-0">
      <CardHeader
        headingLevel={3}
        titleId="dashboard-cache-title"
        title={t("dashboard.cache.title")}
        description={t("dashboard.cache.description")}
        actions={
          <Button variant="outline" size="sm" onClick={onClearAll} disabled={clearing}>
            <Eraser className="h-4 w-4" aria-hidden />
            {t("dashboard.cache.clearAll")}
          </Button>
        }
      />
      {/* Three tiles side by side only where the card itself is wide enough, whatever the screen. */}
      <div className="@container px-5 py-4">
        {stats.isPending ? (
          <Spinner />
        ) : stats.isError ? (
          <Alert>{t("dashboard.cache.unavailable", { error: errorText(stats.error) })}</Alert>
        ) : (
          <ul className="grid gap-3 @xl:grid-cols-3">
            {CACHES.map((c) => (
              <CacheTile key={c.id} label={t(c.label)} counters={stats.data.cache?.[c.id]} />
            ))}
          </ul>
        )}
      </div>
    </Card>
  );
}
