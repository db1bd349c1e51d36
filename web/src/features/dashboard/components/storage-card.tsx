import { Eraser, HardDrive } from "lucide-react";
import { Link } from "react-router";
import { Badge } from "../../../components/ui/badge";
import { Button, buttonClasses } from "../../../components/ui/button";
import { Card, CardHeader } from "../../../components/ui/card";
import { UsageMeter } from "../../../components/ui/usage-meter";
import { useTranslation } from "../../../i18n";
import { formatBytes } from "../../../lib/file-size";
import { useStorageName } from "../../../lib/storage-name";
import type { BucketUsage, DashboardStats } from "../api/dashboard";
import { quotaPercent } from "../dashboard-model";

function BucketRow({
  bucket,
  totalUsed,
  onClearCache,
  clearing,
}: {
  bucket: BucketUsage;
  totalUsed: number;
  onClearCache: () => void;
  clearing: boolean;
}) {
  const { t } = useTranslation();
  const storageName = useStorageName();
  const percent = quotaPercent(bucket);
  const isLocal = (bucket.storage_type ?? bucket.providerType) === "LOCAL";
  const share = totalUsed > 0 ? Math.round((bucket.usedStorage / totalUsed) * 100) : 0;
  return (
    <li aria-label={storageName(bucket.name)} className="py-3 first:pt-0 last:pb-0" data-testid="storage-row">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="flex flex-wrap items-center gap-1.5 font-medium break-words text-slate-900 dark:text-slate-100">
            {storageName(bucket.name)}
            {bucket.is_default ? <Badge tone="accent">{t("dashboard.storage.default")}</Badge> : null}
          </p>
          <p className="text-xs break-all text-slate-500 dark:text-slate-400">
            {isLocal || !bucket.bucket_name
              ? t("dashboard.storage.local")
              : [bucket.providerType, t("dashboard.storage.bucket", { bucket: bucket.bucket_name })]
                  .filter(Boolean)
                  .join(" · ")}
          </p>
        </div>
        <Button
          variant="ghost"
          size="sm"
          onClick={onClearCache}
          disabled={clearing}
          aria-label={t("dashboard.storage.clearCacheOf", { name: storageName(bucket.name) })}
          title={t("dashboard.storage.clearCacheOf", { name: storageName(bucket.name) })}
        >
          <Eraser className="h-4 w-4" aria-hidden />
          {t("dashboard.storage.clearCache")}
        </Button>
      </div>
      <p className="mt-1 text-sm text-slate-700 dark:text-slate-300" data-testid="storage-usage">
        {t("dashboard.storage.usage", { count: bucket.fileCount, size: formatBytes(bucket.usedStorage) })}
        {" · "}
        {percent === null
          ? `${t("dashboard.storage.noQuota")} · ${t("dashboard.storage.shareOfAll", { percent: share })}`
          : t("dashboard.storage.ofQuota", { percent, quota: formatBytes(bucket.totalStorage) })}
      </p>
      {percent === null ? null : (
        <UsageMeter
          percent={percent}
          label={t("dashboard.storage.quotaLabel", { name: storageName(bucket.name) })}
        />
      )}
    </li>
  );
}

/** Storage used per config, with its quota as a bar, and a way to clear the caches of its mounts. */
export function StorageCard({
  stats,
  onClearCache,
  clearing,
}: {
  stats: DashboardStats;
  onClearCache: (storageConfigId: string) => void;
  clearing: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Card aria-labelledby="dashboard-storage-title" className="min-w-0">
      <CardHeader
        headingLevel={3}
        titleId="dashboard-storage-title"
        title={t("dashboard.storage.title")}
        description={t("dashboard.storage.total", { size: formatBytes(stats.totalStorageUsed) })}
      />
      <div className="px-5 py-4">
        {stats.s3Buckets.length === 0 ? (
          <div className="flex flex-col items-start gap-3 text-sm text-slate-600 dark:text-slate-300">
            <p>{t("dashboard.storage.empty")}</p>
            <Link to="/admin/storage-config" className={buttonClasses("primary", "sm")}>
              <HardDrive className="h-4 w-4" aria-hidden />
              {t("dashboard.storage.add")}
            </Link>
          </div>
        ) : (
          <ul className="divide-y divide-slate-200 dark:divide-slate-800">
            {stats.s3Buckets.map((b) => (
              <BucketRow
                key={b.id}
                bucket={b}
                totalUsed={stats.totalStorageUsed}
                onClearCache={() => onClearCache(b.id)}
                clearing={clearing}
              />
            ))}
          </ul>
        )}
      </div>
    </Card>
  );
}
