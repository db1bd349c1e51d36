import { CheckCircle2, CircleAlert, Clock, LoaderCircle, Pause, Play, RotateCcw, X } from "lucide-react";
import { useTranslation } from "../i18n";
import { formatSpeed } from "../lib/file-size";
import { itemProgress, type UploadFailure, type UploadItem } from "../lib/upload-engine/upload-queue";
import { Badge } from "./ui/badge";
import { Button } from "./ui/button";
import { ProgressBar } from "./ui/progress-bar";

/**
 * The pieces every upload list shows (/upload, the explorer's panel): status,
 * progress bar, percent · speed · time left, and pause / resume / cancel /
 * retry, so both behave and read the same.
 */

/** Text of a failure in the current language. */
export function useFailureText() {
  const { t } = useTranslation();
  return (failure: UploadFailure) => {
    if (failure.scope === "text") return failure.text;
    if (failure.scope === "upload") return t(`upload.errors.${failure.key}`, failure.values ?? {});
    if (failure.scope === "engine") return t(`uploadEngine.errors.${failure.key}`, failure.values ?? {});
    return t(`errors.${failure.key}` as "errors.unknown", failure.values ?? {});
  };
}

/** Stopped by the user: not a failure, and not shown as one. */
const wasCancelled = (item: UploadItem) =>
  item.status === "error" && item.error?.scope === "upload" && item.error.key === "cancelled";

export function UploadStatusBadge({ item }: { item: UploadItem }) {
  const { t } = useTranslation();
  switch (item.status) {
    case "pending":
      return (
        <Badge tone={item.queued ? "accent" : "neutral"}>
          <Clock className="mr-1 h-3 w-3" aria-hidden />
          {item.queued ? t("upload.status.queued") : t("upload.status.pending")}
        </Badge>
      );
    case "uploading":
      return (
        <Badge tone="accent">
          <LoaderCircle className="mr-1 h-3 w-3 animate-spin" aria-hidden />
          {t("upload.status.uploading")}
        </Badge>
      );
    case "paused":
      return (
        <Badge tone="neutral">
          <Pause className="mr-1 h-3 w-3" aria-hidden />
          {t("uploadEngine.paused")}
        </Badge>
      );
    case "success":
      return (
        <Badge tone="success">
          <CheckCircle2 className="mr-1 h-3 w-3" aria-hidden />
          {t("upload.status.success")}
        </Badge>
      );
    case "error":
      if (wasCancelled(item))
        return (
          <Badge tone="neutral">
            <X className="mr-1 h-3 w-3" aria-hidden />
            {t("upload.status.cancelled")}
          </Badge>
        );
      return (
        <Badge tone="danger">
          <CircleAlert className="mr-1 h-3 w-3" aria-hidden />
          {t("upload.status.error")}
        </Badge>
      );
  }
}

export function UploadProgressBar({ item, label }: { item: UploadItem; label: string }) {
  const tone = wasCancelled(item)
    ? "bg-slate-400"
    : item.status === "error"
      ? "bg-red-500"
      : item.status === "success"
        ? "bg-emerald-500"
        : item.status === "paused"
          ? "bg-slate-400"
          : "bg-indigo-500";
  return <ProgressBar percent={itemProgress(item).percent} label={label} barClassName={tone} />;
}

function formatRemaining(seconds: number | null): string {
  if (seconds === null) return "";
  if (seconds < 60) return `${seconds}s`;
  const m = Math.floor(seconds / 60);
  if (m < 60) return `${m}m ${seconds % 60}s`;
  return `${Math.floor(m / 60)}h ${m % 60}m`;
}

/** "42% · 12 MB/s · 20s left" while uploading, "42%" while paused; empty otherwise. */
export function useProgressText() {
  const { t } = useTranslation();
  return (item: UploadItem) => {
    if (item.status !== "uploading" && item.status !== "paused") return "";
    const { percent, speed, remaining } = itemProgress(item);
    let text = t("upload.percent", { percent });
    if (speed !== null) text += ` · ${formatSpeed(speed)}`;
    if (remaining !== null) text += ` · ${t("upload.timeLeft", { time: formatRemaining(remaining) })}`;
    if (item.resumedParts > 0) text += ` · ${t("uploadEngine.resumed", { count: item.resumedParts })}`;
    return text;
  };
}

/** Pause, resume, cancel and retry buttons for one item, as its state allows. */
export function UploadItemActions({
  item,
  onPause,
  onResume,
  onCancel,
  onRetry,
}: {
  item: UploadItem;
  onPause: (id: string) => void;
  onResume: (id: string) => void;
  onCancel: (id: string) => void;
  onRetry: (id: string) => void;
}) {
  const { t } = useTranslation();
  const button = (label: string, title: string, icon: React.ReactNode, onClick: () => void) => (
    <Button variant="ghost" size="icon" aria-label={label} title={title} onClick={onClick}>
      {icon}
    </Button>
  );
  return (
    <>
      {item.status === "uploading"
        ? button(
            t("uploadEngine.pauseOf", { name: item.name }),
            t("uploadEngine.pause"),
            <Pause className="h-4 w-4" aria-hidden />,
            () => onPause(item.id),
          )
        : null}
      {item.status === "paused"
        ? button(
            t("uploadEngine.resumeOf", { name: item.name }),
            t("uploadEngine.resume"),
            <Play className="h-4 w-4" aria-hidden />,
            () => onResume(item.id),
          )
        : null}
      {item.status === "uploading" || item.status === "paused" || (item.status === "pending" && item.queued)
        ? button(
            t("upload.cancelOf", { name: item.name }),
            t("upload.cancel"),
            <X className="h-4 w-4" aria-hidden />,
            () => onCancel(item.id),
          )
        : null}
      {/* Every failure may be retried: even a file over the limit, once an administrator raises it. */}
      {item.status === "error"
        ? button(
            t("upload.retryOf", { name: item.name }),
            t("upload.retry"),
            <RotateCcw className="h-4 w-4" aria-hidden />,
            () => onRetry(item.id),
          )
        : null}
    </>
  );
}
