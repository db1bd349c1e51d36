import type { LucideIcon } from "lucide-react";
import { cn } from "../../lib/cn";
import { Button } from "./button";

/** A small floating offer with a "later" and an "accept" button (update, install). */
export function PromptBar({
  id,
  icon: Icon,
  text,
  laterLabel,
  acceptLabel,
  onLater,
  onAccept,
  role = "dialog",
  className,
}: {
  id: string;
  icon: LucideIcon;
  text: string;
  laterLabel: string;
  acceptLabel: string;
  onLater: () => void;
  onAccept: () => void;
  role?: "dialog" | "alertdialog";
  /** Where it floats. */
  className: string;
}) {
  return (
    <div
      role={role}
      aria-labelledby={id}
      className={cn(
        "fixed z-50 flex max-w-sm items-center gap-3 rounded-xl border border-slate-200 bg-white px-4 py-3 text-sm shadow-lg dark:border-slate-700 dark:bg-slate-900",
        className,
      )}
    >
      <Icon className="h-4 w-4 shrink-0 text-indigo-500" aria-hidden />
      <p id={id} className="flex-1">
        {text}
      </p>
      <Button size="sm" variant="ghost" onClick={onLater}>
        {laterLabel}
      </Button>
      <Button size="sm" onClick={onAccept}>
        {acceptLabel}
      </Button>
    </div>
  );
}
