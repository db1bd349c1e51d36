import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import { Dialog } from "../../../components/ui/dialog";
import { toast } from "../../../components/ui/toast";
import { useTranslation } from "../../../i18n";
import { useCapabilities } from "../../../lib/auth-store";
import { formatDateTime } from "../../../lib/format";
import { discardQueued, retryQueued, syncOfflineQueue } from "../../../lib/offline/offline-sync";
import type { QueueItem } from "../../../lib/offline/queue-status";

/** The offline queue: what waits, what failed and why; retry or discard each entry. */
export function QueuePanel({
  open,
  onOpenChange,
  items,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  items: QueueItem[];
}) {
  const { t, i18n } = useTranslation();
  const caps = useCapabilities();

  const retry = async (item: QueueItem) => {
    if (!(await retryQueued(item.id))) toast(t("offlineApp.queue.signInFirst"), "error");
  };

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={t("offlineApp.queue.title")}
      description={t("offlineApp.queue.description")}
      size="lg"
      footer={
        <Button variant="outline" onClick={() => void syncOfflineQueue()} disabled={items.length === 0}>
          {t("offlineApp.queue.sendNow")}
        </Button>
      }
    >
      {items.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">{t("offlineApp.queue.empty")}</p>
      ) : (
        <ul
          className="divide-y divide-slate-200 dark:divide-slate-800"
          aria-label={t("offlineApp.queue.title")}
        >
          {items.map((item) => (
            <li key={item.id} className="flex flex-wrap items-center gap-3 py-3" data-testid="queue-entry">
              <div className="min-w-0 flex-1">
                <p className="text-sm font-medium">{t(`offlineApp.queue.types.${item.type}`)}</p>
                <p className="text-xs text-slate-500 dark:text-slate-400">
                  {formatDateTime(item.timestamp, i18n.language)}
                </p>
                {item.error ? (
                  <p className="mt-1 text-xs break-words text-red-700 dark:text-red-300">
                    {item.httpStatus ? `${item.httpStatus}: ` : ""}
                    {item.error}
                  </p>
                ) : null}
              </div>
              <Badge
                tone={item.status === "pending" ? "neutral" : item.status === "failed" ? "danger" : "warning"}
              >
                {t(`offlineApp.queue.status.${item.status}`)}
              </Badge>
              {item.status !== "pending" ? (
                <Button
                  size="sm"
                  variant="outline"
                  onClick={() => void retry(item)}
                  disabled={item.status === "auth_required" && !caps.isAuthenticated}
                >
                  {t("offlineApp.queue.retry")}
                </Button>
              ) : null}
              <Button size="sm" variant="ghost" onClick={() => void discardQueued(item.id)}>
                {t("offlineApp.queue.discard")}
              </Button>
            </li>
          ))}
        </ul>
      )}
      {items.some((i) => i.status === "auth_required") && !caps.isAuthenticated ? (
        <p className="mt-3 text-sm text-amber-800 dark:text-amber-200">{t("offlineApp.queue.signInFirst")}</p>
      ) : null}
    </Dialog>
  );
}
