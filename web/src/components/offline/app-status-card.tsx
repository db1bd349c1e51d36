import { useTranslation } from "../../i18n";
import { useOfflineQueue } from "../../lib/offline/queue-status";
import { useWorkerState } from "../../lib/pwa";
import { Badge } from "../ui/badge";
import { Card, CardHeader } from "../ui/card";

/** For admins: the service worker's state and what waits in this browser's offline queue. */
export function AppStatusCard() {
  const { t } = useTranslation();
  const state = useWorkerState();
  const queue = useOfflineQueue();
  return (
    <Card aria-labelledby="app-status-title">
      <CardHeader titleId="app-status-title" title={t("offlineApp.status.title")} />
      <dl className="grid gap-3 px-5 py-4 text-sm sm:grid-cols-2">
        <div>
          <dt className="text-slate-500 dark:text-slate-400">{t("offlineApp.status.worker")}</dt>
          <dd className="mt-1" data-testid="sw-state">
            <Badge tone={state === "active" ? "success" : state === "redundant" ? "danger" : "neutral"}>
              {t(`offlineApp.status.states.${state}`)}
            </Badge>
          </dd>
        </div>
        <div>
          <dt className="text-slate-500 dark:text-slate-400">{t("offlineApp.status.queue")}</dt>
          <dd className="mt-1">{t("offlineApp.queue.waiting", { count: queue.length })}</dd>
        </div>
      </dl>
    </Card>
  );
}
