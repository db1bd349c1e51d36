import { useTranslation } from "../../../i18n";
import { formatBytes } from "../../../lib/file-size";
import { useStorageName } from "../../../lib/storage-name";
import type { StorageUsage } from "../api/file-shares";

/** Files and bytes per storage config, with a bar where the config has a capacity. */
export function UsageStrip({ configs }: { configs: StorageUsage[] }) {
  const { t } = useTranslation();
  const storageName = useStorageName();
  if (configs.length === 0) return null;
  return (
    <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3" aria-label={t("fileManagement.usage.title")}>
      {configs.map((config) => {
        const usage = config.usage ?? { file_count: 0, total_size: 0 };
        const quota = config.total_storage_bytes;
        const percent = quota ? Math.min(100, Math.round((usage.total_size / quota) * 100)) : null;
        return (
          <li
            key={config.id}
            aria-label={storageName(config.name)}
            className="rounded-xl border border-slate-200 px-3 py-2.5 text-sm dark:border-slate-800"
          >
            <p className="truncate font-medium">
              {storageName(config.name)}
              {config.is_default ? (
                <span className="ml-1.5 text-xs font-normal text-slate-500 dark:text-slate-400">
                  ({t("storageConfig.default")})
                </span>
              ) : null}
            </p>
            <p className="text-xs text-slate-600 dark:text-slate-300">
              {t("storageConfig.usage.summary", {
                count: usage.file_count,
                size: formatBytes(usage.total_size),
              })}
              {quota ? ` · ${t("storageConfig.usage.ofQuota", { quota: formatBytes(quota) })}` : ""}
            </p>
            {percent !== null ? (
              <div className="mt-1.5 h-1 w-full overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800">
                <div className="h-full bg-indigo-500" style={{ width: `${percent}%` }} />
              </div>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
