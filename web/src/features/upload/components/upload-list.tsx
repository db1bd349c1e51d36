import {
  CheckCircle2,
  CircleAlert,
  Clock,
  Copy,
  ExternalLink,
  FileIcon,
  LoaderCircle,
  RotateCcw,
  Trash2,
  X,
} from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ShareQrButton } from "../../../components/share-qr-code";
import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import { toast } from "../../../components/ui/toast";
import { copyText } from "../../../lib/clipboard";
import { cn } from "../../../lib/cn";
import { formatBytes, formatSpeed } from "../../../lib/file-size";
import { fileShareUrl } from "../../../lib/share-links";
import { isFinalFailure, itemProgress, type UploadFailure, type UploadItem } from "../upload-queue";

/** Text of a failure in the current language. */
export function useFailureText() {
  const { t } = useTranslation();
  return (failure: UploadFailure) => {
    if (failure.scope === "text") return failure.text;
    if (failure.scope === "upload") return t(`upload.errors.${failure.key}`, failure.values ?? {});
    return t(`errors.${failure.key}` as "errors.unknown", failure.values ?? {});
  };
}

function StatusBadge({ item }: { item: UploadItem }) {
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
    case "success":
      return (
        <Badge tone="success">
          <CheckCircle2 className="mr-1 h-3 w-3" aria-hidden />
          {t("upload.status.success")}
        </Badge>
      );
    case "error":
      return (
        <Badge tone="danger">
          <CircleAlert className="mr-1 h-3 w-3" aria-hidden />
          {t("upload.status.error")}
        </Badge>
      );
  }
}

function ProgressBar({ item, percent }: { item: UploadItem; percent: number }) {
  const { t } = useTranslation();
  return (
    <div
      role="progressbar"
      aria-label={t("upload.progressOf", { name: item.name })}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      className="h-1.5 w-full overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800"
    >
      <div
        className={cn(
          "h-full rounded-full transition-[width] duration-200",
          item.status === "error"
            ? "bg-red-500"
            : item.status === "success"
              ? "bg-emerald-500"
              : "bg-indigo-500",
        )}
        style={{ width: `${percent}%` }}
      />
    </div>
  );
}

function formatRemaining(seconds: number | null): string {
  if (seconds === null) return "";
  if (seconds < 60) return `${seconds}s`;
  const m = Math.floor(seconds / 60);
  if (m < 60) return `${m}m ${seconds % 60}s`;
  return `${Math.floor(m / 60)}h ${m % 60}m`;
}

function UploadRow({
  item,
  onCancel,
  onRetry,
  onRemove,
}: {
  item: UploadItem;
  onCancel: (id: string) => void;
  onRetry: (id: string) => void;
  onRemove: (id: string) => void;
}) {
  const { t } = useTranslation();
  const failureText = useFailureText();
  const { percent, speed, remaining } = itemProgress(item);
  const link = item.result ? fileShareUrl(item.result.slug) : null;

  return (
    <li
      className="rounded-xl border border-slate-200 bg-white p-3 dark:border-slate-800 dark:bg-slate-900"
      aria-label={item.name}
      data-status={item.status}
    >
      <div className="flex items-start gap-3">
        <FileIcon className="mt-0.5 h-5 w-5 shrink-0 text-slate-400" aria-hidden />
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <p className="min-w-0 font-medium break-all text-slate-900 dark:text-slate-100">{item.name}</p>
            <StatusBadge item={item} />
          </div>
          <p className="mt-0.5 text-xs text-slate-500 dark:text-slate-400">
            {formatBytes(item.size)}
            {item.status === "uploading" ? (
              <>
                {" · "}
                <span>{t("upload.percent", { percent })}</span>
                {speed !== null ? ` · ${formatSpeed(speed)}` : ""}
                {remaining !== null ? ` · ${t("upload.timeLeft", { time: formatRemaining(remaining) })}` : ""}
              </>
            ) : null}
            {item.status === "success" && item.result?.method === "server"
              ? ` · ${t("upload.viaServer")}`
              : ""}
          </p>
          {item.status === "uploading" ||
          item.status === "success" ||
          (item.status === "error" && item.loaded > 0) ? (
            <div className="mt-2">
              <ProgressBar item={item} percent={percent} />
            </div>
          ) : null}
          {item.status === "error" && item.error ? (
            <p className="mt-1.5 text-sm text-red-600 dark:text-red-400">{failureText(item.error)}</p>
          ) : null}
          {link && item.result ? (
            <div className="mt-2 flex flex-wrap items-center gap-2">
              <Link
                to={item.result.url}
                className="inline-flex min-w-0 items-center gap-1 text-sm font-medium break-all text-indigo-600 hover:underline dark:text-indigo-400"
              >
                {link}
                <ExternalLink className="h-3.5 w-3.5 shrink-0" aria-hidden />
              </Link>
            </div>
          ) : null}
        </div>
        <div className="flex shrink-0 items-center gap-1">
          {link ? (
            <>
              <Button
                variant="ghost"
                size="icon"
                aria-label={t("upload.copyLinkOf", { name: item.name })}
                title={t("fileShare.copyLink")}
                onClick={async () => {
                  const ok = await copyText(link);
                  toast(ok ? t("fileShare.linkCopied") : t("common.copyFailed"), ok ? "success" : "error");
                }}
              >
                <Copy className="h-4 w-4" aria-hidden />
              </Button>
              <ShareQrButton url={link} name={item.name} variant="ghost" iconOnly />
            </>
          ) : null}
          {item.status === "uploading" || (item.status === "pending" && item.queued) ? (
            <Button
              variant="ghost"
              size="icon"
              aria-label={t("upload.cancelOf", { name: item.name })}
              title={t("upload.cancel")}
              onClick={() => onCancel(item.id)}
            >
              <X className="h-4 w-4" aria-hidden />
            </Button>
          ) : null}
          {item.status === "error" && !isFinalFailure(item.error) ? (
            <Button
              variant="ghost"
              size="icon"
              aria-label={t("upload.retryOf", { name: item.name })}
              title={t("upload.retry")}
              onClick={() => onRetry(item.id)}
            >
              <RotateCcw className="h-4 w-4" aria-hidden />
            </Button>
          ) : null}
          {item.status !== "uploading" ? (
            <Button
              variant="ghost"
              size="icon"
              className="text-slate-500 hover:text-red-600 dark:hover:text-red-400"
              aria-label={t("upload.removeOf", { name: item.name })}
              title={t("upload.remove")}
              onClick={() => onRemove(item.id)}
            >
              <Trash2 className="h-4 w-4" aria-hidden />
            </Button>
          ) : null}
        </div>
      </div>
    </li>
  );
}

export function UploadList({
  items,
  onCancel,
  onRetry,
  onRemove,
}: {
  items: UploadItem[];
  onCancel: (id: string) => void;
  onRetry: (id: string) => void;
  onRemove: (id: string) => void;
}) {
  const { t } = useTranslation();
  if (items.length === 0) return null;
  return (
    <ul className="space-y-2" aria-label={t("upload.listLabel")}>
      {items.map((item) => (
        <UploadRow key={item.id} item={item} onCancel={onCancel} onRetry={onRetry} onRemove={onRemove} />
      ))}
    </ul>
  );
}
