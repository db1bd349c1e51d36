import { ExternalLink, FileIcon, Trash2 } from "lucide-react";
import { Link } from "react-router";
import { CopyLinkButton } from "../../../components/copy-link-button";
import { ShareQrButton } from "../../../components/share-qr-code";
import { Button } from "../../../components/ui/button";
import {
  UploadItemActions,
  UploadProgressBar,
  UploadStatusBadge,
  useFailureText,
  useProgressText,
} from "../../../components/upload-progress";
import { useTranslation } from "../../../i18n";
import { formatBytes } from "../../../lib/file-size";
import { fileShareUrl } from "../../../lib/share-links";
import type { UploadItem } from "../../../lib/upload-engine/upload-queue";
import type { UploadResult } from "../api/upload-file";

type ShareItem = UploadItem<UploadResult>;

interface ItemHandlers {
  onPause: (id: string) => void;
  onResume: (id: string) => void;
  onCancel: (id: string) => void;
  onRetry: (id: string) => void;
  onRemove: (id: string) => void;
}

function UploadRow({ item, handlers }: { item: ShareItem; handlers: ItemHandlers }) {
  const { t } = useTranslation();
  const failureText = useFailureText();
  const progressText = useProgressText();
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
            <UploadStatusBadge item={item} />
          </div>
          <p className="mt-0.5 text-xs text-slate-500 dark:text-slate-400">
            {formatBytes(item.size)}
            {progressText(item) ? ` · ${progressText(item)}` : ""}
            {item.status === "success" && item.result?.method === "server"
              ? ` · ${t("upload.viaServer")}`
              : ""}
          </p>
          {item.status === "uploading" ||
          item.status === "paused" ||
          item.status === "success" ||
          (item.status === "error" && item.loaded > 0) ? (
            <div className="mt-2">
              <UploadProgressBar item={item} label={t("upload.progressOf", { name: item.name })} />
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
              <CopyLinkButton link={link} label={t("upload.copyLinkOf", { name: item.name })} />
              <ShareQrButton url={link} name={item.name} variant="ghost" iconOnly />
            </>
          ) : null}
          <UploadItemActions
            item={item}
            onPause={handlers.onPause}
            onResume={handlers.onResume}
            onCancel={handlers.onCancel}
            onRetry={handlers.onRetry}
          />
          {item.status !== "uploading" ? (
            <Button
              variant="ghost"
              size="icon"
              className="text-slate-500 hover:text-red-600 dark:hover:text-red-400"
              aria-label={t("upload.removeOf", { name: item.name })}
              title={t("upload.remove")}
              onClick={() => handlers.onRemove(item.id)}
            >
              <Trash2 className="h-4 w-4" aria-hidden />
            </Button>
          ) : null}
        </div>
      </div>
    </li>
  );
}

export function UploadList({ items, ...handlers }: { items: ShareItem[] } & ItemHandlers) {
  const { t } = useTranslation();
  if (items.length === 0) return null;
  return (
    <ul className="space-y-2" aria-label={t("upload.listLabel")}>
      {items.map((item) => (
        <UploadRow key={item.id} item={item} handlers={handlers} />
      ))}
    </ul>
  );
}
