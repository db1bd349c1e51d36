import { CloudOff } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { useTranslation } from "../../../i18n";
import { cn } from "../../../lib/cn";
import { useOfflineQueue } from "../../../lib/offline/queue-status";
import { useUpdateAvailable } from "../../../lib/pwa";

const QueuePanel = lazy(() => import("./queue-panel").then((m) => ({ default: m.QueuePanel })));

/** A small button while writes wait in the offline queue; it opens the queue panel. */
export function OfflineQueueIndicator() {
  const { t } = useTranslation();
  const items = useOfflineQueue();
  // The update prompt sits in the same corner: stand above it while it shows.
  const raised = useUpdateAvailable();
  const [open, setOpen] = useState(false);
  if (items.length === 0 && !open) return null;
  const problems = items.filter((i) => i.status !== "pending").length;
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        className={cn(
          "fixed left-4 z-40 inline-flex items-center gap-2 rounded-full border px-3 py-1.5 text-sm shadow-md",
          raised ? "bottom-24" : "bottom-4",
          problems > 0
            ? "border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
            : "border-slate-200 bg-white dark:border-slate-700 dark:bg-slate-900",
        )}
      >
        <CloudOff className="h-4 w-4" aria-hidden />
        {t("offlineApp.queue.waiting", { count: items.length })}
      </button>
      {/* Room below the page's last line, so the pill never sits over a button at the very bottom. */}
      <div aria-hidden className={raised ? "h-32" : "h-14"} data-testid="queue-indicator-room" />
      {open ? (
        <Suspense fallback={null}>
          <QueuePanel open={open} onOpenChange={setOpen} items={items} />
        </Suspense>
      ) : null}
    </>
  );
}
