import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Eraser, FolderOpen, History, Pencil, Plus, Power, Trash2 } from "lucide-react";
import { useState } from "react";
import { AccessLogDialog } from "../../../components/access-log/access-log-dialog";
import { DataList, type ListColumn, type RowAction } from "../../../components/list/data-list";
import { Alert } from "../../../components/ui/alert";
import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import { Card, CardHeader } from "../../../components/ui/card";
import { Dialog } from "../../../components/ui/dialog";
import { Spinner } from "../../../components/ui/spinner";
import { toast } from "../../../components/ui/toast";
import { useTranslation } from "../../../i18n";
import type { LoggedShare } from "../../../lib/access-log";
import { useCapabilities } from "../../../lib/auth-store";
import { useStorageName } from "../../../lib/storage-name";
import { useErrorText } from "../../../lib/use-error-text";
import { explorerHref } from "../../mount-explorer";
import { type MountRow, mountsApi } from "../api/mounts";
import { MountFormDialog } from "./mount-form-dialog";

const mountsKey = ["mounts"] as const;
/** Admin module "mount management": every mount for the admin, read-only for a key. */
export function MountManagementModule() {
  const { t } = useTranslation();
  const storageName = useStorageName();
  const caps = useCapabilities();
  const errorText = useErrorText();
  const qc = useQueryClient();
  const list = useQuery({
    queryKey: [...mountsKey, caps.isAdmin],
    queryFn: ({ signal }) => mountsApi.list(caps.isAdmin, signal),
  });
  const [editing, setEditing] = useState<MountRow | "new" | null>(null);
  const [deleting, setDeleting] = useState<MountRow | null>(null);
  const [logOf, setLogOf] = useState<LoggedShare | null>(null);
  const invalidate = () => qc.invalidateQueries({ queryKey: mountsKey });
  const toggle = useMutation({
    mutationFn: (row: MountRow) => mountsApi.update(row.id, { is_active: !row.is_active }),
    onSuccess: (row) => {
      toast(t(row.is_active ? "mounts.activated" : "mounts.deactivated", { name: row.name }), "success");
      void invalidate();
    },
    onError: (err) => toast(errorText(err), "error"),
  });
  const clearCache = async (row?: MountRow) => {
    try {
      const result = await mountsApi.clearCache(caps.isAdmin, row?.id);
      toast(t("mounts.cacheCleared", { count: result.clearedCount }), "success");
    } catch (err) {
      toast(errorText(err), "error");
    }
  };

  const columns: ListColumn<MountRow>[] = [
    {
      id: "name",
      header: t("mounts.fields.name"),
      primary: true,
      cell: (row) => <span className="font-medium">{row.name}</span>,
    },
    {
      id: "path",
      header: t("mounts.fields.path"),
      cell: (row) => <span className="font-mono text-xs">{row.mount_path}</span>,
    },
    {
      id: "storage",
      header: t("mounts.fields.storage"),
      className: "text-xs",
      cell: (row) => (
        <>
          <Badge>{row.storage_type}</Badge>{" "}
          {row.storage_config_name ? storageName(row.storage_config_name) : ""}
          {row.root ? <span className="font-mono"> / {row.root}</span> : null}
        </>
      ),
    },
    {
      id: "ttl",
      header: t("mounts.fields.cacheTtl"),
      className: "whitespace-nowrap text-xs tabular-nums",
      cell: (row) => t("mounts.seconds", { count: row.cache_ttl }),
    },
    {
      id: "status",
      header: t("mounts.fields.status"),
      cell: (row) => (
        <span className="flex flex-wrap gap-1">
          <Badge tone={row.is_active ? "success" : "neutral"}>
            {t(row.is_active ? "mounts.active" : "mounts.inactive")}
          </Badge>
          {row.public_browse ? <Badge tone="accent">{t("mounts.public")}</Badge> : null}
        </span>
      ),
    },
  ];
  const actions = (row: MountRow): RowAction[] => [
    {
      id: "browse",
      label: t("mounts.browse", { name: row.name }),
      title: t("mounts.browse", { name: row.name }),
      icon: FolderOpen,
      to: explorerHref(row.mount_path),
    },
    {
      id: "cache",
      label: t("mounts.clearCache", { name: row.name }),
      title: t("mounts.clearCache", { name: row.name }),
      icon: Eraser,
      onClick: () => void clearCache(row),
    },
    ...(caps.isAdmin
      ? [
          {
            id: "log",
            label: t("accessLog.openNamed", { name: row.name }),
            title: t("mounts.accessLog"),
            icon: History,
            onClick: () => setLogOf({ type: "mount", id: row.id, name: row.name, slug: row.mount_path }),
          },
          {
            id: "toggle",
            label: t(row.is_active ? "mounts.deactivate" : "mounts.activate", { name: row.name }),
            title: t(row.is_active ? "mounts.deactivate" : "mounts.activate", { name: row.name }),
            icon: Power,
            onClick: () => toggle.mutate(row),
          },
          {
            id: "edit",
            label: t("mounts.edit", { name: row.name }),
            title: t("mounts.edit", { name: row.name }),
            icon: Pencil,
            onClick: () => setEditing(row),
          },
          {
            id: "delete",
            label: t("mounts.delete", { name: row.name }),
            title: t("mounts.delete", { name: row.name }),
            icon: Trash2,
            onClick: () => setDeleting(row),
            danger: true,
          },
        ]
      : []),
  ];

  return (
    <Card>
      <CardHeader
        title={t("admin.modules.mountManagement")}
        description={t("mounts.description")}
        actions={
          <div className="flex gap-2">
            <Button variant="outline" size="sm" onClick={() => void clearCache()}>
              <Eraser className="h-4 w-4" aria-hidden />
              {t("mounts.clearAllCaches")}
            </Button>
            {caps.isAdmin ? (
              <Button size="sm" onClick={() => setEditing("new")}>
                <Plus className="h-4 w-4" aria-hidden />
                {t("mounts.create")}
              </Button>
            ) : null}
          </div>
        }
      />
      <div className="p-4">
        {list.isError ? <Alert>{errorText(list.error)}</Alert> : null}
        {list.isLoading ? <Spinner /> : null}
        {list.data && list.data.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">{t("mounts.empty")}</p>
        ) : null}
        {list.data && list.data.length > 0 ? (
          // Cards below 900 px: six row actions do not fit a tablet's table row.
          <DataList
            rows={list.data}
            caption={t("admin.modules.mountManagement")}
            rowData={(row) => row.mount_path}
            columns={columns}
            actions={actions}
          />
        ) : null}
      </div>
      <AccessLogDialog share={logOf} onClose={() => setLogOf(null)} />
      {editing ? (
        <MountFormDialog
          row={editing === "new" ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => void invalidate()}
        />
      ) : null}
      {deleting ? (
        <Dialog
          open
          role="alertdialog"
          onOpenChange={(open) => !open && setDeleting(null)}
          title={t("mounts.deleteTitle")}
          description={t("mounts.deleteWarning", { name: deleting.name, path: deleting.mount_path })}
          footer={
            <>
              <Button variant="outline" onClick={() => setDeleting(null)}>
                {t("common.cancel")}
              </Button>
              <Button
                variant="danger"
                onClick={async () => {
                  try {
                    await mountsApi.remove(deleting.id);
                    toast(t("mounts.deleted", { name: deleting.name }), "success");
                    setDeleting(null);
                    void invalidate();
                  } catch (err) {
                    toast(errorText(err), "error");
                  }
                }}
              >
                {t("common.delete")}
              </Button>
            </>
          }
        >
          <p className="text-sm">{t("mounts.deleteNote")}</p>
        </Dialog>
      ) : null}
    </Card>
  );
}
