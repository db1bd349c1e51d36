import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Eraser, FolderOpen, History, Pencil, Plus, Power, Trash2 } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { AccessLogDialog } from "../../../components/access-log/access-log-dialog";
import { Alert } from "../../../components/ui/alert";
import { Badge } from "../../../components/ui/badge";
import { Button, buttonClasses } from "../../../components/ui/button";
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
          <div className="overflow-x-auto">
            <table className="w-full text-sm">
              <thead className="text-left text-xs text-slate-500 dark:text-slate-400">
                <tr>
                  <th className="py-2 pr-3 font-medium">{t("mounts.fields.name")}</th>
                  <th className="py-2 pr-3 font-medium">{t("mounts.fields.path")}</th>
                  <th className="py-2 pr-3 font-medium">{t("mounts.fields.storage")}</th>
                  <th className="py-2 pr-3 font-medium">{t("mounts.fields.cacheTtl")}</th>
                  <th className="py-2 pr-3 font-medium">{t("mounts.fields.status")}</th>
                  <th className="py-2 font-medium">
                    <span className="sr-only">{t("common.actions")}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.data.map((row) => (
                  <tr
                    key={row.id}
                    className="border-t border-slate-100 dark:border-slate-800"
                    data-mount={row.mount_path}
                  >
                    <td className="py-2 pr-3 font-medium">{row.name}</td>
                    <td className="py-2 pr-3 font-mono text-xs">{row.mount_path}</td>
                    <td className="py-2 pr-3 text-xs">
                      <Badge>{row.storage_type}</Badge>{" "}
                      {row.storage_config_name ? storageName(row.storage_config_name) : ""}
                      {row.root ? <span className="font-mono"> / {row.root}</span> : null}
                    </td>
                    <td className="py-2 pr-3 text-xs tabular-nums">
                      {t("mounts.seconds", { count: row.cache_ttl })}
                    </td>
                    <td className="py-2 pr-3">
                      <Badge tone={row.is_active ? "success" : "neutral"}>
                        {t(row.is_active ? "mounts.active" : "mounts.inactive")}
                      </Badge>
                      {row.public_browse ? (
                        <>
                          {" "}
                          <Badge tone="accent">{t("mounts.public")}</Badge>
                        </>
                      ) : null}
                    </td>
                    <td className="py-2">
                      <div className="flex justify-end gap-1">
                        <Link
                          to={explorerHref(row.mount_path)}
                          className={buttonClasses("ghost", "icon")}
                          aria-label={t("mounts.browse", { name: row.name })}
                          title={t("mounts.browse", { name: row.name })}
                        >
                          <FolderOpen className="h-4 w-4" aria-hidden />
                        </Link>
                        <Button
                          size="icon"
                          variant="ghost"
                          onClick={() => void clearCache(row)}
                          aria-label={t("mounts.clearCache", { name: row.name })}
                          title={t("mounts.clearCache", { name: row.name })}
                        >
                          <Eraser className="h-4 w-4" aria-hidden />
                        </Button>
                        {caps.isAdmin ? (
                          <>
                            <Button
                              size="icon"
                              variant="ghost"
                              onClick={() =>
                                setLogOf({ type: "mount", id: row.id, name: row.name, slug: row.mount_path })
                              }
                              aria-label={t("accessLog.openNamed", { name: row.name })}
                              title={t("mounts.accessLog")}
                            >
                              <History className="h-4 w-4" aria-hidden />
                            </Button>
                            <Button
                              size="icon"
                              variant="ghost"
                              onClick={() => toggle.mutate(row)}
                              aria-label={t(row.is_active ? "mounts.deactivate" : "mounts.activate", {
                                name: row.name,
                              })}
                              title={t(row.is_active ? "mounts.deactivate" : "mounts.activate", {
                                name: row.name,
                              })}
                            >
                              <Power className="h-4 w-4" aria-hidden />
                            </Button>
                            <Button
                              size="icon"
                              variant="ghost"
                              onClick={() => setEditing(row)}
                              aria-label={t("mounts.edit", { name: row.name })}
                              title={t("mounts.edit", { name: row.name })}
                            >
                              <Pencil className="h-4 w-4" aria-hidden />
                            </Button>
                            <Button
                              size="icon"
                              variant="ghost"
                              onClick={() => setDeleting(row)}
                              aria-label={t("mounts.delete", { name: row.name })}
                              title={t("mounts.delete", { name: row.name })}
                            >
                              <Trash2 className="h-4 w-4 text-red-600" aria-hidden />
                            </Button>
                          </>
                        ) : null}
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
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
