import { explorerShareRemark } from "@clipshare/shared";
import { Copy, Eye, Lock, Pencil, Trash2 } from "lucide-react";
import { Link } from "react-router";
import { useAccessLogAction } from "../../../components/access-log/row-action";
import type { ListColumn, RowAction } from "../../../components/list/data-list";
import { useNotificationsAction } from "../../../components/notifications/row-action";
import { Badge } from "../../../components/ui/badge";
import { toast } from "../../../components/ui/toast";
import { useTranslation } from "../../../i18n";
import { useCapabilities } from "../../../lib/auth-store";
import { copyText } from "../../../lib/clipboard";
import { formatBytes } from "../../../lib/file-size";
import { formatDateTime } from "../../../lib/format";
import { fileShareUrl } from "../../../lib/share-links";
import { useStorageName } from "../../../lib/storage-name";
import type { FileShare } from "../api/file-shares";

function StatusBadges({ file }: { file: FileShare }) {
  const { t, i18n } = useTranslation();
  return (
    <span className="flex flex-wrap gap-1">
      {file.upload_state ? (
        <span
          title={
            file.upload_state === "uploading"
              ? t("uploadReservation.uploadingHint", {
                  time: formatDateTime(file.upload_expires_at ?? file.created_at, i18n.language),
                })
              : t("uploadReservation.incompleteHint")
          }
        >
          <Badge tone="warning">{t(`uploadReservation.${file.upload_state}`)}</Badge>
        </span>
      ) : null}
      {file.has_password ? (
        <Badge tone="accent">
          <Lock className="mr-1 h-3 w-3" aria-hidden />
          {t("fileManagement.badges.password")}
        </Badge>
      ) : null}
      {file.state === "expired" ? <Badge tone="danger">{t("fileManagement.badges.expired")}</Badge> : null}
      {file.state === "view_limit" ? <Badge tone="danger">{t("fileManagement.badges.usedUp")}</Badge> : null}
      {!file.use_proxy ? <Badge tone="warning">{t("fileManagement.badges.direct")}</Badge> : null}
    </span>
  );
}

/** The columns of the file share list: name (link, remark, badges), size, storage, views, expiry, created. */
export function useFileColumns(): ListColumn<FileShare>[] {
  const { t, i18n } = useTranslation();
  const caps = useCapabilities();
  const storageName = useStorageName();
  const creator = (file: FileShare) => {
    const owner = file.owner_name ? t("fileManagement.ownedBy", { name: file.owner_name }) : null;
    const key =
      file.created_by?.startsWith("apikey:") || file.key_name
        ? t("fileManagement.byKey", { name: file.key_name ?? file.created_by?.replace(/^apikey:/, "") ?? "" })
        : null;
    return [owner, key].filter(Boolean).join(" · ") || t("fileManagement.byAdmin");
  };
  return [
    {
      id: "name",
      header: t("fileManagement.columns.name"),
      primary: true,
      className: "max-w-72",
      cell: (file) => (
        <>
          <Link
            to={`/file/${encodeURIComponent(file.slug)}`}
            className="block font-medium break-all text-slate-900 hover:text-indigo-600 dark:text-slate-100 dark:hover:text-indigo-400"
          >
            {file.filename}
          </Link>
          <span className="block font-mono text-xs break-all text-slate-500 dark:text-slate-400">
            /file/{file.slug}
          </span>
          {file.remark ? (
            <span className="block text-xs break-words text-slate-600 dark:text-slate-300">
              {file.file_path && file.remark === explorerShareRemark(file.file_path)
                ? t("fileManagement.fromFileSystem", { path: file.file_path })
                : file.remark}
            </span>
          ) : null}
          {file.encrypted_meta ? (
            // The real name, the content and the key exist only in the link that was handed out.
            <span className="block text-xs text-emerald-700 dark:text-emerald-300">
              {t("e2e.fileListHint")}
            </span>
          ) : null}
          <span className="mt-1 block">
            <StatusBadges file={file} />
          </span>
        </>
      ),
    },
    {
      id: "size",
      header: t("fileManagement.columns.size"),
      className: "whitespace-nowrap",
      cell: (file) => formatBytes(file.size),
    },
    {
      id: "storage",
      header: t("fileManagement.columns.storage"),
      cell: (file) => (
        <>
          <span className="block">
            {file.storage_config_name ? storageName(file.storage_config_name) : "—"}
          </span>
          {caps.isAdmin ? (
            <span className="block text-xs text-slate-500 dark:text-slate-400">{creator(file)}</span>
          ) : null}
        </>
      ),
    },
    {
      id: "views",
      header: t("fileManagement.columns.views"),
      className: "whitespace-nowrap",
      cell: (file) => (file.max_views ? `${file.views} / ${file.max_views}` : `${file.views} / ∞`),
    },
    {
      id: "expires",
      header: t("fileManagement.columns.expires"),
      className: "whitespace-nowrap text-slate-600 dark:text-slate-300",
      cell: (file) =>
        file.expires_at ? formatDateTime(file.expires_at, i18n.language) : t("fileView.meta.never"),
    },
    {
      id: "created",
      header: t("fileManagement.columns.created"),
      className: "whitespace-nowrap text-slate-600 dark:text-slate-300",
      cell: (file) => formatDateTime(file.created_at, i18n.language),
    },
  ];
}

/** Preview, copy link, edit, access log and delete, each named after the file it acts on. */
export function useFileActions(handlers: {
  preview: (file: FileShare) => void;
  edit: (file: FileShare) => void;
  accessLog: (file: FileShare) => void;
  notifications: (file: FileShare) => void;
  remove: (file: FileShare) => void;
}): (file: FileShare) => RowAction[] {
  const { t } = useTranslation();
  const accessLogAction = useAccessLogAction();
  const notificationsAction = useNotificationsAction();
  const copyLink = async (file: FileShare) => {
    const ok = await copyText(fileShareUrl(file.slug));
    toast(ok ? t("fileShare.linkCopied") : t("common.copyFailed"), ok ? "success" : "error");
  };
  // A reserved upload that never finished has nothing to preview or share yet; delete releases it.
  return (file) => [
    {
      id: "preview",
      label: t("fileManagement.previewNamed", { name: file.filename }),
      title: t("fileManagement.preview"),
      icon: Eye,
      disabled: Boolean(file.upload_state),
      onClick: () => handlers.preview(file),
    },
    {
      id: "copy",
      label: t("upload.copyLinkOf", { name: file.filename }),
      title: t("fileShare.copyLink"),
      icon: Copy,
      disabled: Boolean(file.upload_state),
      onClick: () => void copyLink(file),
    },
    {
      id: "edit",
      label: t("fileManagement.editNamed", { name: file.filename }),
      title: t("common.edit"),
      icon: Pencil,
      onClick: () => handlers.edit(file),
    },
    accessLogAction(file.filename, () => handlers.accessLog(file), Boolean(file.upload_state)),
    notificationsAction(file.filename, () => handlers.notifications(file), Boolean(file.upload_state)),
    {
      id: "delete",
      label: t("fileManagement.deleteNamed", { name: file.filename }),
      title: t("common.delete"),
      icon: Trash2,
      danger: true,
      onClick: () => handlers.remove(file),
    },
  ];
}
