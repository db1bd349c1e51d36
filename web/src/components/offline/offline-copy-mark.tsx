import { CloudOff } from "lucide-react";
import { useTranslation } from "../../i18n";
import { formatDateTime } from "../../lib/format";

/** Says that what the page shows is a copy kept on this device, and from when. */
export function OfflineCopyMark({ at }: { at: number | undefined }) {
  const { t, i18n } = useTranslation();
  if (at === undefined) return null;
  return (
    <p
      role="status"
      data-testid="offline-copy-mark"
      className="inline-flex items-center gap-2 rounded-lg border border-amber-300 bg-amber-50 px-3 py-1.5 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/50 dark:text-amber-100"
    >
      <CloudOff className="h-4 w-4 shrink-0" aria-hidden />
      {t("offlineApp.copyFrom", { date: formatDateTime(at, i18n.language) })}
    </p>
  );
}
