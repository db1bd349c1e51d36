import { useTranslation } from "../i18n";
import { cn } from "../lib/cn";

/** Grey lines in the place of text that is still loading. */
export function ContentSkeleton({ lines = 8, className }: { lines?: number; className?: string }) {
  const { t } = useTranslation();
  const widths = ["w-11/12", "w-full", "w-4/5", "w-full", "w-2/3", "w-5/6", "w-full", "w-3/5"];
  return (
    <div role="status" aria-busy="true" className={cn("space-y-3", className)}>
      <span className="sr-only">{t("common.loading")}</span>
      {Array.from({ length: lines }, (_, i) => (
        <div
          // biome-ignore lint/suspicious/noArrayIndexKey: fixed decorative lines
          key={i}
          className={cn(
            "h-4 animate-pulse rounded bg-slate-200 dark:bg-slate-800",
            widths[i % widths.length],
          )}
        />
      ))}
    </div>
  );
}
