import type { LucideIcon } from "lucide-react";
import { type HTMLAttributes, type ReactNode, useId } from "react";
import { cn } from "../lib/cn";

/**
 * The one card for a page that ends on a state instead of its content: a
 * share that is missing, expired or used up, or could not be loaded. Neutral
 * tone for "not there", warning tone for "was there, no longer available".
 */
export function StatusCard({
  icon: Icon,
  tone = "neutral",
  title,
  description,
  actions,
  ...rest
}: {
  icon: LucideIcon;
  tone?: "neutral" | "warning";
  title: string;
  description: ReactNode;
  actions?: ReactNode;
} & Omit<HTMLAttributes<HTMLElement>, "title">) {
  const titleId = useId();
  return (
    <section
      aria-labelledby={titleId}
      className="mx-auto flex max-w-xl flex-col items-center rounded-2xl border border-slate-200 bg-white px-6 py-14 text-center shadow-xs dark:border-slate-800 dark:bg-slate-900"
      {...rest}
    >
      <div
        className={cn(
          "mb-4 rounded-2xl p-4",
          tone === "neutral" ? "bg-slate-100 dark:bg-slate-800" : "bg-amber-50 dark:bg-amber-950/50",
        )}
      >
        <Icon
          className={cn(
            "h-8 w-8",
            tone === "neutral" ? "text-slate-500 dark:text-slate-400" : "text-amber-600 dark:text-amber-400",
          )}
          aria-hidden
        />
      </div>
      <h1 id={titleId} className="text-2xl font-semibold tracking-tight">
        {title}
      </h1>
      <p className="mt-2 max-w-md text-sm text-slate-600 dark:text-slate-400">{description}</p>
      {actions ? <div className="mt-6 flex flex-wrap justify-center gap-2">{actions}</div> : null}
    </section>
  );
}
