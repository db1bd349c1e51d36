import { AlertCircle, CheckCircle2, Info, X } from "lucide-react";
import { useEffect, useSyncExternalStore } from "react";
import { useTranslation } from "../../i18n";
import { cn } from "../../lib/cn";
import { dismissToast, notices, type ToastItem } from "../../lib/notices";
import { useOfflineQueue } from "../../lib/offline/queue-status";
import { useUpdateAvailable } from "../../lib/pwa";

// Posting a notice is lib/'s job; the app's screens import it from here as well.
export { dismissToast, type ToastEdge, type ToastMessage, type ToastTone, toast } from "../../lib/notices";

function ToastView({ item }: { item: ToastItem }) {
  const { t } = useTranslation();
  useEffect(() => {
    const timer = setTimeout(() => dismissToast(item.id), item.durationMs);
    return () => clearTimeout(timer);
  }, [item.id, item.durationMs]);
  const text = typeof item.message === "function" ? item.message() : item.message;
  const Icon = item.tone === "error" ? AlertCircle : item.tone === "success" ? CheckCircle2 : Info;
  return (
    <div
      className={cn(
        "pointer-events-auto flex w-full items-start gap-2.5 rounded-xl border px-4 py-3 text-sm shadow-lg",
        "border-slate-200 bg-white text-slate-800 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100",
      )}
    >
      <Icon
        aria-hidden
        className={cn(
          "mt-0.5 h-4 w-4 shrink-0",
          item.tone === "error" && "text-red-500",
          item.tone === "success" && "text-emerald-500",
          item.tone === "info" && "text-sky-500",
        )}
      />
      <p className="min-w-0 flex-1 break-words">{text}</p>
      <button
        type="button"
        onClick={() => dismissToast(item.id)}
        aria-label={t("common.dismiss")}
        title={t("common.dismiss")}
        className="rounded p-0.5 text-slate-400 hover:text-slate-700 dark:hover:text-slate-200"
      >
        <X className="h-3.5 w-3.5" aria-hidden />
      </button>
    </div>
  );
}

export function Toaster() {
  const current = useSyncExternalStore(notices.subscribe, notices.getSnapshot, notices.getSnapshot);
  // All toasts stand together, at the edge the newest one chose (the top one clears the header bar).
  const edge = current[current.length - 1]?.edge ?? "bottom";
  // On a phone bottom notices span the width: they stand above the offline queue's pill and the
  // update bar (bottom left) instead of covering them.
  const queued = useOfflineQueue().length > 0;
  const updating = useUpdateAvailable();
  const lift =
    edge !== "bottom"
      ? null
      : queued
        ? updating
          ? "max-sm:bottom-36"
          : "max-sm:bottom-14"
        : updating
          ? "max-sm:bottom-24"
          : null;
  return (
    <div
      role="status"
      aria-live="polite"
      data-edge={edge}
      className={cn(
        "pointer-events-none fixed inset-x-0 z-[60] flex flex-col items-center gap-2 p-4 sm:items-end",
        // A bar floating at the bottom (the explorer's selection actions) publishes its height.
        edge === "top" ? "top-14" : "bottom-[var(--bottom-bar-height,0px)]",
        lift,
      )}
    >
      <div className="flex w-full max-w-sm flex-col gap-2">
        {current.map((item) => (
          <ToastView key={item.id} item={item} />
        ))}
      </div>
    </div>
  );
}
