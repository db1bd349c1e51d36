import { cn } from "../../lib/cn";

/**
 * A thin labelled bar (0-100); `barClassName` colours the filled part. A progress bar by
 * default; `role="meter"` for a level that is not work in progress (a quota in use).
 */
export function ProgressBar({
  percent,
  label,
  barClassName = "bg-indigo-500",
  role = "progressbar",
}: {
  percent: number;
  label: string;
  barClassName?: string;
  role?: "progressbar" | "meter";
}) {
  const value = Math.min(100, Math.max(0, Math.round(percent)));
  return (
    <div
      role={role}
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={value}
      className="h-1.5 w-full overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800"
    >
      <div
        className={cn("h-full rounded-full transition-[width] duration-200", barClassName)}
        style={{ width: `${value}%` }}
      />
    </div>
  );
}
