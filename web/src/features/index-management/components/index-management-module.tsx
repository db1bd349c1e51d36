import type { MountIndexStatus } from "@clipshare/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { HardDrive, Play, Power, RotateCcw, Square } from "lucide-react";
import { useState } from "react";
import { FigureList } from "../../../components/figure-list";
import { Alert } from "../../../components/ui/alert";
import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import { Card, CardHeader } from "../../../components/ui/card";
import { ProgressBar } from "../../../components/ui/progress-bar";
import { Spinner } from "../../../components/ui/spinner";
import { toast } from "../../../components/ui/toast";
import { useTranslation } from "../../../i18n";
import { formatCount, formatDateTime } from "../../../lib/format";
import { useErrorText } from "../../../lib/use-error-text";
import { indexesApi } from "../api/indexes";
import { UsageDialog } from "./usage-dialog";

const queryKey = ["admin", "indexes"] as const;
const isRunning = (s: MountIndexStatus) => s.task !== null && ["pending", "running"].includes(s.task.status);

/** Per mount: whether it is indexed, how many entries, the last crawl; start, rebuild and stop crawls. */
export function IndexManagementModule() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const qc = useQueryClient();
  const [usageOf, setUsageOf] = useState<MountIndexStatus | null>(null);
  const list = useQuery({
    queryKey,
    queryFn: ({ signal }) => indexesApi.list(signal),
    refetchOnMount: "always",
    // While a crawl runs its progress is polled every second; otherwise every few seconds, since
    // crawls also start on schedule or from another admin's screen.
    refetchInterval: (query) => (query.state.data?.some(isRunning) ? 1000 : 5000),
  });
  const action = useMutation({
    mutationFn: async ({
      kind,
      mountId,
    }: {
      kind: "crawl" | "rebuild" | "stop" | "enable";
      mountId: string;
    }) => {
      if (kind === "stop") await indexesApi.stop(mountId);
      else if (kind === "enable") await indexesApi.enable(mountId);
      else await indexesApi.crawl(mountId, kind === "rebuild");
    },
    onError: (error) => toast(errorText(error), "error"),
    onSettled: () => qc.invalidateQueries({ queryKey }),
  });
  return (
    <Card aria-labelledby="indexes-title" className="min-w-0">
      <CardHeader titleId="indexes-title" title={t("indexes.title")} description={t("indexes.description")} />
      <div className="px-5 py-4">
        {list.isPending ? (
          <Spinner />
        ) : list.isError ? (
          <Alert>{errorText(list.error)}</Alert>
        ) : list.data.length === 0 ? (
          <p className="text-sm text-slate-500 dark:text-slate-400">{t("indexes.noMounts")}</p>
        ) : (
          <ul className="grid gap-3">
            {list.data.map((s) => (
              <IndexRow
                key={s.mount_id}
                status={s}
                busy={action.isPending && action.variables?.mountId === s.mount_id}
                onAction={(kind) => action.mutate({ kind, mountId: s.mount_id })}
                onUsage={() => setUsageOf(s)}
              />
            ))}
          </ul>
        )}
      </div>
      <UsageDialog
        mount={usageOf && { id: usageOf.mount_id, name: usageOf.mount_name, path: usageOf.mount_path }}
        onClose={() => setUsageOf(null)}
      />
    </Card>
  );
}

function IndexRow({
  status: s,
  busy,
  onAction,
  onUsage,
}: {
  status: MountIndexStatus;
  busy: boolean;
  onAction: (kind: "crawl" | "rebuild" | "stop" | "enable") => void;
  onUsage: () => void;
}) {
  const { t, i18n } = useTranslation();
  const running = isRunning(s);
  const state = !s.index_enabled
    ? { tone: "neutral" as const, label: t("indexes.state.off") }
    : running
      ? { tone: "accent" as const, label: t("indexes.state.crawling") }
      : s.complete
        ? { tone: "success" as const, label: t("indexes.state.ready") }
        : { tone: "warning" as const, label: t("indexes.state.notBuilt") };
  const figures = [
    { id: "entries", label: t("indexes.entries"), value: formatCount(s.entries, i18n.language) },
    {
      id: "last-crawl",
      label: t("indexes.lastCrawl"),
      value: formatDateTime(s.last_finished, i18n.language) || "—",
    },
    {
      id: "duration",
      label: t("indexes.duration"),
      value:
        s.last_duration_ms === null
          ? "—"
          : t("indexes.seconds", { value: (s.last_duration_ms / 1000).toFixed(1) }),
    },
  ];
  // A re-crawl's progress against the size of the last index; a first crawl only counts.
  const previous = s.complete && s.task ? Math.max(s.entries, 1) : 0;
  const read = s.task?.processed_items ?? 0;
  return (
    <li
      aria-label={s.mount_name}
      data-mount-path={s.mount_path}
      className="min-w-0 rounded-xl border border-slate-200 p-4 dark:border-slate-800"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="min-w-0">
          {/* Wrapped, not cut: the mount's path is what tells two mounts of one name apart. */}
          <p className="break-words font-medium text-slate-900 dark:text-slate-100">
            {s.mount_name}{" "}
            <span className="text-sm font-normal text-slate-500 dark:text-slate-400">{s.mount_path}</span>
          </p>
        </div>
        <Badge tone={state.tone}>{state.label}</Badge>
      </div>
      <FigureList figures={figures} className="mt-3 grid grid-cols-3 gap-2" />
      {running ? (
        <div className="mt-3 grid gap-1" data-testid="crawl-progress">
          <ProgressBar
            percent={previous > 0 ? (read / previous) * 100 : 0}
            label={t("indexes.progress", { count: read })}
          />
          <p className="text-xs text-slate-600 dark:text-slate-300">
            {t("indexes.progress", { count: read, formatted: formatCount(read, i18n.language) })}
            {s.task?.current_file ? ` · ${s.task.current_file}` : ""}
          </p>
        </div>
      ) : null}
      {s.last_error ? (
        <p className="mt-2 text-sm text-red-700 dark:text-red-300">
          {t("indexes.lastError", { error: s.last_error })}
        </p>
      ) : null}
      <div className="mt-3 flex flex-wrap gap-2">
        {!s.index_enabled ? (
          <Button size="sm" variant="outline" disabled={busy} onClick={() => onAction("enable")}>
            <Power className="h-4 w-4" aria-hidden />
            {t("indexes.enable")}
          </Button>
        ) : running ? (
          <Button size="sm" variant="outline" disabled={busy} onClick={() => onAction("stop")}>
            <Square className="h-4 w-4" aria-hidden />
            {t("indexes.stop")}
          </Button>
        ) : (
          <>
            <Button size="sm" disabled={busy} onClick={() => onAction("crawl")}>
              <Play className="h-4 w-4" aria-hidden />
              {t("indexes.crawl")}
            </Button>
            <Button size="sm" variant="outline" disabled={busy} onClick={() => onAction("rebuild")}>
              <RotateCcw className="h-4 w-4" aria-hidden />
              {t("indexes.rebuild")}
            </Button>
            {s.complete ? (
              <Button size="sm" variant="outline" onClick={onUsage}>
                <HardDrive className="h-4 w-4" aria-hidden />
                {t("indexes.usage.open")}
              </Button>
            ) : null}
          </>
        )}
      </div>
    </li>
  );
}
