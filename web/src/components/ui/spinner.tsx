import { LoaderCircle } from "lucide-react";
import { useTranslation } from "../../i18n";
import { cn } from "../../lib/cn";

export function Spinner({ className, label }: { className?: string; label?: string }) {
  const { t } = useTranslation();
  return (
    <span
      role="status"
      className={cn("inline-flex items-center gap-2 text-sm text-slate-500 dark:text-slate-400", className)}
    >
      <LoaderCircle className="h-4 w-4 animate-spin" aria-hidden />
      <span className="sr-only">{label ?? t("common.loading")}</span>
    </span>
  );
}

export function PageSpinner() {
  return (
    <div className="flex min-h-[40vh] items-center justify-center">
      <Spinner className="[&>svg]:h-6 [&>svg]:w-6" />
    </div>
  );
}
