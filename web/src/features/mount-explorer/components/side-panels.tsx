import type { FsTask } from "@clipshare/shared";
import { AlertTriangle, CheckCircle2, Download, Loader2, Pause, Trash2, X, XCircle } from "lucide-react";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { ProgressBar } from "../../../components/ui/progress-bar";
import { toast } from "../../../components/ui/toast";
import {
  UploadItemActions,
  UploadProgressBar,
  useFailureText,
  useProgressText,
} from "../../../components/upload-progress";
import { useTranslation } from "../../../i18n";
import { formatBytes } from "../../../lib/file-size";
import { formatDateTime } from "../../../lib/format";
import type { UploadItem } from "../../../lib/upload-engine/upload-queue";
import type { useUploadQueue } from "../../../lib/upload-engine/use-upload-queue";
import { useErrorText } from "../../../lib/use-error-text";
import { fsApi, saveZip } from "../api/fs";
import type { FsUploadResult } from "../api/fs-upload-target";
import { useBasket } from "../hooks/use-explorer-state";
import { isTaskFinished, useTasks } from "../hooks/use-fs";
import { BASKET_WARN_BYTES, basketTotals, basketZipName } from "../model/basket";
import { stoppedTaskNote } from "../model/copy-outcome";
import { taskSubject } from "../model/task-subject";

/** The explorer's names for the queue's states (its tests and styles use them). */
const ROW_STATUS: Record<UploadItem["status"], string> = {
  pending: "queued",
  uploading: "uploading",
  paused: "paused",
  success: "done",
  error: "failed",
};

function Panel({
  title,
  onClose,
  children,
  testId,
}: {
  title: string;
  onClose: () => void;
  children: React.ReactNode;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <section
      aria-label={title}
      data-testid={testId}
      className="rounded-xl border border-slate-200 bg-white p-3 shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="mb-2 flex items-center justify-between">
        <h2 className="text-sm font-semibold text-slate-900 dark:text-slate-100">{title}</h2>
        <Button size="icon" variant="ghost" onClick={onClose} aria-label={t("common.close")}>
          <X className="h-4 w-4" aria-hidden />
        </Button>
      </div>
      {children}
    </section>
  );
}

export function UploadPanel({
  queue,
  onClose,
}: {
  queue: ReturnType<typeof useUploadQueue<FsUploadResult>>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const failureText = useFailureText();
  const progressText = useProgressText();
  const rows = queue.state.items;
  const done = rows.filter((r) => r.status === "success").length;
  return (
    <Panel
      title={t("explorer.uploads", { done, total: rows.length })}
      onClose={onClose}
      testId="upload-panel"
    >
      <ul className="max-h-64 space-y-2 overflow-auto">
        {rows.map((r) => (
          <li key={r.id} className="text-xs" data-upload={r.name} data-status={ROW_STATUS[r.status]}>
            <div className="flex items-center gap-2">
              {r.status === "success" ? (
                <CheckCircle2 className="h-3.5 w-3.5 text-emerald-500" aria-hidden />
              ) : r.status === "error" ? (
                <XCircle className="h-3.5 w-3.5 text-red-500" aria-hidden />
              ) : r.status === "paused" ? (
                <Pause className="h-3.5 w-3.5 text-slate-400" aria-hidden />
              ) : (
                <Loader2 className="h-3.5 w-3.5 animate-spin text-slate-400" aria-hidden />
              )}
              <span className="min-w-0 flex-1 truncate font-mono">{r.name}</span>
              <span className="text-slate-500 dark:text-slate-400 tabular-nums">{`${formatBytes(r.status === "success" ? r.size : r.loaded)} / ${formatBytes(r.size)}`}</span>
              <UploadItemActions
                item={r}
                onPause={queue.pause}
                onResume={queue.resume}
                onCancel={queue.cancel}
                onRetry={queue.retry}
              />
            </div>
            <UploadProgressBar item={r} label={r.name} />
            {progressText(r) ? <p className="text-slate-500 dark:text-slate-400">{progressText(r)}</p> : null}
            {r.status === "error" && r.error ? (
              <p className="text-red-600 dark:text-red-400">{failureText(r.error)}</p>
            ) : null}
          </li>
        ))}
      </ul>
    </Panel>
  );
}

/** What a task works on and when it ran: a list of "Copy 2/2" rows says nothing on its own. */
function TaskDetails({ task }: { task: FsTask }) {
  const { t, i18n } = useTranslation();
  const { first, more, target } = taskSubject(task);
  const finishedAt = task.completed_at;
  return (
    <div className="text-slate-600 dark:text-slate-400" data-testid="task-details">
      {first ? (
        <p className="truncate font-mono" title={first}>
          {more > 0 ? t("explorer.taskWhatMore", { name: first, count: more }) : first}
          {target ? ` → ${target}` : ""}
        </p>
      ) : null}
      <p>
        {finishedAt
          ? t("explorer.taskFinishedAt", { time: formatDateTime(finishedAt, i18n.language) })
          : t("explorer.taskCreatedAt", { time: formatDateTime(task.created_at, i18n.language) })}
      </p>
    </div>
  );
}

export function TaskPanel({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const tasks = useTasks(true);
  const list = tasks.data?.tasks ?? [];
  return (
    <Panel title={t("explorer.tasks")} onClose={onClose} testId="task-panel">
      {tasks.isError ? <Alert>{errorText(tasks.error)}</Alert> : null}
      {list.length === 0 && !tasks.isLoading ? (
        <p className="text-xs text-slate-500 dark:text-slate-400">{t("explorer.noTasks")}</p>
      ) : null}
      <ul className="max-h-80 space-y-3 overflow-auto">
        {list.map((task) => {
          const finished = isTaskFinished(task.status);
          return (
            <li key={task.id} className="text-xs" data-task-type={task.type} data-task-status={task.status}>
              <div className="flex items-center gap-2">
                <span className="font-medium text-slate-800 dark:text-slate-100">
                  {t(`explorer.taskType.${task.type}`)}
                </span>
                <span
                  className="rounded bg-slate-100 px-1.5 py-0.5 dark:bg-slate-800"
                  data-testid="task-status"
                >
                  {t(`explorer.taskStatus.${task.status}`)}
                </span>
                <span className="ml-auto text-slate-500 dark:text-slate-400 tabular-nums">
                  {t("explorer.taskCounts", {
                    done: task.processed_items,
                    total: task.total_items,
                    failed: task.failed_items,
                  })}
                </span>
                {finished ? (
                  <Button
                    size="icon"
                    variant="ghost"
                    aria-label={t("explorer.removeTask")}
                    onClick={() => void fsApi.deleteTask(task.id).then(() => tasks.refetch())}
                  >
                    <Trash2 className="h-3.5 w-3.5" aria-hidden />
                  </Button>
                ) : (
                  <Button
                    size="sm"
                    variant="outline"
                    disabled={task.cancel_requested}
                    onClick={() => void fsApi.cancelTask(task.id).then(() => tasks.refetch())}
                  >
                    {t("common.cancel")}
                  </Button>
                )}
              </div>
              <TaskDetails task={task} />
              <ProgressBar percent={task.progress} label={t(`explorer.taskType.${task.type}`)} />
              {task.current_file && !finished ? (
                <p className="truncate font-mono text-slate-500 dark:text-slate-400">{task.current_file}</p>
              ) : null}
              {stoppedTaskNote(task) ? <p className="text-slate-500">{t(stoppedTaskNote(task)!)}</p> : null}
              {task.error ? <p className="text-red-600 dark:text-red-400">{task.error}</p> : null}
              {task.notice ? <p className="text-amber-600 dark:text-amber-400">{task.notice}</p> : null}
            </li>
          );
        })}
      </ul>
    </Panel>
  );
}

export function BasketPanel({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const basket = useBasket();
  const totals = basketTotals(basket.items);
  const downloadAll = async () => {
    try {
      await saveZip(
        basket.items.map((i) => i.path),
        basketZipName(new Date()),
      );
    } catch (err) {
      toast(errorText(err), "error");
    }
  };
  return (
    <Panel title={t("explorer.basket")} onClose={onClose} testId="basket-panel">
      <p className="mb-2 text-xs text-slate-600 dark:text-slate-300" data-testid="basket-totals">
        {t("explorer.basketTotals", { count: totals.count, size: formatBytes(totals.bytes) })}
      </p>
      {totals.warn ? (
        <p className="mb-2 flex items-center gap-1 text-xs text-amber-600 dark:text-amber-400" role="status">
          <AlertTriangle className="h-3.5 w-3.5" aria-hidden />
          {t("explorer.basketWarn", { size: formatBytes(BASKET_WARN_BYTES) })}
        </p>
      ) : null}
      <ul className="mb-2 max-h-48 space-y-1 overflow-auto">
        {basket.items.map((i) => (
          <li key={i.path} className="flex items-center gap-2 text-xs">
            <span className="min-w-0 flex-1 truncate font-mono" title={i.path}>
              {i.path}
            </span>
            <span className="text-slate-500 dark:text-slate-400">{formatBytes(i.size)}</span>
            <Button
              size="icon"
              variant="ghost"
              aria-label={t("explorer.basketRemove", { name: i.name })}
              onClick={() => basket.remove([i.path])}
            >
              <X className="h-3.5 w-3.5" aria-hidden />
            </Button>
          </li>
        ))}
      </ul>
      <div className="flex gap-2">
        <Button size="sm" disabled={totals.count === 0} onClick={() => void downloadAll()}>
          <Download className="h-4 w-4" aria-hidden />
          {t("explorer.basketDownload")}
        </Button>
        <Button size="sm" variant="outline" disabled={totals.count === 0} onClick={basket.clear}>
          {t("explorer.basketClear")}
        </Button>
      </div>
    </Panel>
  );
}
