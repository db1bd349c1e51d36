import { Eye, LockKeyhole, Pencil, Trash2 } from "lucide-react";
import { useAccessLogAction } from "../../../components/access-log/row-action";
import type { ListColumn, RowAction } from "../../../components/list/data-list";
import { useNotificationsAction } from "../../../components/notifications/row-action";
import { Badge } from "../../../components/ui/badge";
import { useTranslation } from "../../../i18n";
import { formatDateTime } from "../../../lib/format";
import type { PasteRow } from "../../../lib/pastes/api";
import { pasteLink } from "../../../lib/share-links";
import { creatorOf, viewsText } from "../list-model";

/** The columns of the paste list: link (with lock and remark), text, views, expiry, creator, created. */
export function usePasteColumns(): ListColumn<PasteRow>[] {
  const { t, i18n } = useTranslation();
  return [
    {
      id: "link",
      header: t("textManagement.columns.link"),
      primary: true,
      className: "max-w-56",
      cell: (row) => (
        <div className="min-w-0">
          <a
            href={pasteLink(row.slug)}
            target="_blank"
            rel="noopener"
            className="font-mono text-sm font-medium break-all text-indigo-600 hover:underline dark:text-indigo-400"
          >
            {row.slug}
          </a>
          {row.has_password ? (
            <LockKeyhole
              className="ml-1.5 inline h-3.5 w-3.5 text-amber-600 dark:text-amber-400"
              aria-label={t("pastes.passwordProtected")}
              role="img"
            />
          ) : null}
          {row.remark ? (
            <p className="truncate text-xs text-slate-500 dark:text-slate-400">{row.remark}</p>
          ) : null}
        </div>
      ),
    },
    {
      id: "content",
      header: t("textManagement.columns.content"),
      className: "max-w-72",
      cell: (row) => (
        <p className="line-clamp-2 text-xs break-words text-slate-600 dark:text-slate-300">
          {row.encrypted ? t("e2e.listHint") : row.content_preview}
        </p>
      ),
    },
    {
      id: "views",
      header: t("textManagement.columns.views"),
      className: "whitespace-nowrap tabular-nums",
      cell: viewsText,
    },
    {
      id: "expires",
      header: t("textManagement.columns.expires"),
      className: "whitespace-nowrap text-slate-600 dark:text-slate-300",
      cell: (row) => (
        <span className="flex flex-wrap items-start gap-1 min-[900px]:flex-col">
          {row.expires_at ? formatDateTime(row.expires_at, i18n.language) : t("pastes.never")}
          {row.state === "expired" ? (
            <Badge tone="danger">{t("pastes.state.expired")}</Badge>
          ) : row.state === "view_limit" ? (
            <Badge tone="warning">{t("pastes.state.viewLimit")}</Badge>
          ) : null}
        </span>
      ),
    },
    {
      id: "creator",
      header: t("textManagement.columns.creator"),
      className: "max-w-40 text-slate-600 dark:text-slate-300",
      cell: (row) => {
        const c = creatorOf(row);
        return (
          <span className="flex max-w-full flex-col gap-1">
            <span className="truncate">{c.owner ?? t("textManagement.creatorAdmin")}</span>
            {c.key ? (
              <span className="inline-flex max-w-full items-center gap-1.5 text-xs">
                <Badge tone="accent">{t("textManagement.apiKey")}</Badge>
                <span className="truncate">{c.key.name ?? t("textManagement.deletedKey")}</span>
              </span>
            ) : null}
          </span>
        );
      },
    },
    {
      id: "created",
      header: t("textManagement.columns.created"),
      className: "whitespace-nowrap text-slate-600 dark:text-slate-300",
      cell: (row) => formatDateTime(row.created_at, i18n.language),
    },
  ];
}

/** Preview, edit, access log, notifications and delete, each named after the paste it acts on. */
export function usePasteActions(handlers: {
  preview: (row: PasteRow) => void;
  edit: (row: PasteRow) => void;
  accessLog: (row: PasteRow) => void;
  notifications: (row: PasteRow) => void;
  remove: (row: PasteRow) => void;
}): (row: PasteRow) => RowAction[] {
  const { t } = useTranslation();
  const accessLogAction = useAccessLogAction();
  const notificationsAction = useNotificationsAction();
  return (row) => [
    {
      id: "preview",
      label: t("textManagement.previewNamed", { slug: row.slug }),
      title: t("textManagement.preview"),
      icon: Eye,
      onClick: () => handlers.preview(row),
    },
    {
      id: "edit",
      label: t("textManagement.editNamed", { slug: row.slug }),
      title: t("common.edit"),
      icon: Pencil,
      onClick: () => handlers.edit(row),
    },
    accessLogAction(row.slug, () => handlers.accessLog(row)),
    notificationsAction(row.slug, () => handlers.notifications(row)),
    {
      id: "delete",
      label: t("textManagement.deleteNamed", { slug: row.slug }),
      title: t("common.delete"),
      icon: Trash2,
      danger: true,
      onClick: () => handlers.remove(row),
    },
  ];
}
