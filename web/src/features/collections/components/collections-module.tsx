import { collectionPagePath } from "@clipshare/shared";
import { Copy, Layers, Lock, Pencil, Trash2 } from "lucide-react";
import { useMemo, useState } from "react";
import { Link } from "react-router";
import { ConfirmDialog } from "../../../components/list/confirm-dialog";
import type { ListColumn, RowAction } from "../../../components/list/data-list";
import { ListPager, ListRows } from "../../../components/list/list-frame";
import { ListToolbar } from "../../../components/list/list-toolbar";
import { useConfirm, useListState, usePageInRange } from "../../../components/list/use-list-state";
import { NotificationRuleDialog } from "../../../components/notifications/notification-rule-dialog";
import { useNotificationsAction } from "../../../components/notifications/row-action";
import { Badge } from "../../../components/ui/badge";
import { Card, CardHeader } from "../../../components/ui/card";
import { CheckboxField } from "../../../components/ui/checkbox";
import { RefreshButton } from "../../../components/ui/refresh-button";
import { toast } from "../../../components/ui/toast";
import { useTranslation } from "../../../i18n";
import { useCapabilities } from "../../../lib/auth-store";
import { copyText } from "../../../lib/clipboard";
import { formatDateTime } from "../../../lib/format";
import { useErrorText } from "../../../lib/use-error-text";
import type { Collection } from "../api/collections";
import { useCollections, useDeleteCollections } from "../hooks/use-collections";
import { CollectionEditDialog } from "./collection-edit-dialog";

const PAGE_SIZE = 20;

function useColumns(): ListColumn<Collection>[] {
  const { t, i18n } = useTranslation();
  const caps = useCapabilities();
  return [
    {
      id: "name",
      header: t("collections.columns.name"),
      primary: true,
      className: "max-w-72",
      cell: (c) => (
        <>
          <Link
            to={collectionPagePath(c.slug)}
            className="block font-medium break-all text-slate-900 hover:text-indigo-600 dark:text-slate-100 dark:hover:text-indigo-400"
          >
            {c.title || t("collections.untitled")}
          </Link>
          <span className="block font-mono text-xs break-all text-slate-500 dark:text-slate-400">
            {collectionPagePath(c.slug)}
          </span>
          {c.remark ? (
            <span className="block text-xs break-words text-slate-600 dark:text-slate-300">{c.remark}</span>
          ) : null}
          <span className="mt-1 flex flex-wrap gap-1">
            {c.has_password ? (
              <Badge tone="accent">
                <Lock className="mr-1 h-3 w-3" aria-hidden />
                {t("fileManagement.badges.password")}
              </Badge>
            ) : null}
            {c.state === "expired" ? <Badge tone="danger">{t("fileManagement.badges.expired")}</Badge> : null}
            {c.state === "view_limit" ? (
              <Badge tone="danger">{t("fileManagement.badges.usedUp")}</Badge>
            ) : null}
          </span>
        </>
      ),
    },
    {
      id: "items",
      header: t("collections.columns.items"),
      className: "whitespace-nowrap",
      cell: (c) => t("collections.itemCount", { count: c.item_count }),
    },
    {
      id: "views",
      header: t("fileManagement.columns.views"),
      className: "whitespace-nowrap",
      cell: (c) => (c.max_views ? `${c.views} / ${c.max_views}` : `${c.views} / ∞`),
    },
    {
      id: "expires",
      header: t("fileManagement.columns.expires"),
      className: "whitespace-nowrap text-slate-600 dark:text-slate-300",
      cell: (c) => (c.expires_at ? formatDateTime(c.expires_at, i18n.language) : t("fileView.meta.never")),
    },
    {
      id: "created",
      header: t("fileManagement.columns.created"),
      className: "whitespace-nowrap text-slate-600 dark:text-slate-300",
      cell: (c) => (
        <>
          <span className="block">{formatDateTime(c.created_at, i18n.language)}</span>
          {caps.isAdmin && c.key_name ? (
            <span className="block text-xs text-slate-500 dark:text-slate-400">
              {t("fileManagement.byKey", { name: c.key_name })}
            </span>
          ) : null}
        </>
      ),
    },
  ];
}

/** Admin (and FILE_SHARE key) module "collections": search, page, copy the link, edit, delete. */
export function CollectionsModule() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const list = useListState({ filters: {}, pageSize: PAGE_SIZE });
  const { limit, offset, search, selection } = list;
  const query = useMemo(() => ({ limit, offset, ...(search ? { search } : {}) }), [limit, offset, search]);
  const collections = useCollections(query);
  const remove = useDeleteCollections();
  const [editing, setEditing] = useState<Collection | null>(null);
  const [notifying, setNotifying] = useState<Collection | null>(null);
  const [deleteFiles, setDeleteFiles] = useState(false);
  const deleting = useConfirm<Collection[]>();
  const rows = collections.data?.collections ?? [];
  const total = collections.data?.pagination.total ?? 0;
  usePageInRange(list, rows.length, collections.data?.pagination.total);
  const columns = useColumns();
  const notificationsAction = useNotificationsAction();

  const actions = (c: Collection): RowAction[] => {
    const name = c.title || c.slug;
    return [
      {
        id: "copy",
        label: t("collections.copyLinkOf", { name }),
        title: t("fileShare.copyLink"),
        icon: Copy,
        onClick: async () => {
          const ok = await copyText(`${window.location.origin}${collectionPagePath(c.slug)}`);
          toast(ok ? t("fileShare.linkCopied") : t("common.copyFailed"), ok ? "success" : "error");
        },
      },
      {
        id: "edit",
        label: t("collections.editNamed", { name }),
        title: t("common.edit"),
        icon: Pencil,
        onClick: () => setEditing(c),
      },
      notificationsAction(name, () => setNotifying(c)),
      {
        id: "delete",
        label: t("collections.deleteNamed", { name }),
        title: t("common.delete"),
        icon: Trash2,
        danger: true,
        onClick: () => {
          setDeleteFiles(false);
          deleting.ask([c]);
        },
      },
    ];
  };

  async function confirmDelete() {
    const targets = deleting.target;
    if (!targets) return;
    try {
      const result = await remove.mutateAsync({ ids: targets.map((c) => c.id), deleteFiles });
      selection.remove(targets.map((c) => c.id));
      deleting.close();
      toast(t("collections.deleted", { count: result.success }), "success");
    } catch (err) {
      deleting.setError(errorText(err));
    }
  }

  const count = deleting.target?.length ?? 0;
  return (
    <Card aria-labelledby="collections-title">
      <CardHeader
        titleId="collections-title"
        title={t("admin.modules.collections")}
        description={t("collections.description")}
        actions={<RefreshButton busy={collections.isFetching} onClick={() => void collections.refetch()} />}
      />
      <div className="space-y-5 p-5">
        <ListToolbar
          list={list}
          searchLabel={t("collections.search")}
          searchPlaceholder={t("collections.searchPlaceholder")}
          onDeleteSelected={() => {
            setDeleteFiles(false);
            deleting.ask(rows.filter((r) => selection.has(r.id)));
          }}
        />
        <ListRows
          query={collections}
          icon={Layers}
          emptyText={list.filtered ? t("collections.noMatches") : t("collections.empty")}
          rows={rows}
          columns={columns}
          actions={actions}
          caption={t("collections.tableCaption")}
          selection={{
            rows: selection,
            rowLabel: (c) => t("collections.selectNamed", { name: c.title || c.slug }),
          }}
        />
        <ListPager list={list} total={total} rowCount={rows.length} busy={collections.isFetching} />
      </div>

      <CollectionEditDialog collection={editing} onClose={() => setEditing(null)} />
      {notifying ? (
        <NotificationRuleDialog
          subject={{ kind: "collection", id: notifying.id, name: notifying.title || notifying.slug }}
          onClose={() => setNotifying(null)}
        />
      ) : null}
      <ConfirmDialog
        state={deleting}
        busy={remove.isPending}
        onConfirm={() => void confirmDelete()}
        title={t("collections.deleteTitle", { count })}
        description={count === 1 ? (deleting.target?.[0]?.title ?? deleting.target?.[0]?.slug) : undefined}
      >
        <CheckboxField
          label={t("collections.deleteFiles")}
          description={t("collections.deleteFilesHint")}
          checked={deleteFiles}
          onCheckedChange={setDeleteFiles}
        />
      </ConfirmDialog>
    </Card>
  );
}
