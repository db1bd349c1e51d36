import { FILES_DEFAULT_LIMIT } from "@clipshare/shared";
import { Files } from "lucide-react";
import { useMemo, useState } from "react";
import { Link } from "react-router";
import { AccessLogDialog } from "../../../components/access-log/access-log-dialog";
import { OwnerFilter } from "../../../components/accounts/owner-filter";
import { ListPager, ListRows } from "../../../components/list/list-frame";
import { ListToolbar } from "../../../components/list/list-toolbar";
import { useConfirm, useListState, usePageInRange } from "../../../components/list/use-list-state";
import { NotificationRuleDialog } from "../../../components/notifications/notification-rule-dialog";
import { Alert } from "../../../components/ui/alert";
import { buttonClasses } from "../../../components/ui/button";
import { Card, CardHeader } from "../../../components/ui/card";
import { Select } from "../../../components/ui/form";
import { RefreshButton } from "../../../components/ui/refresh-button";
import { toast } from "../../../components/ui/toast";
import { useTranslation } from "../../../i18n";
import type { LoggedShare } from "../../../lib/access-log";
import { useCapabilities } from "../../../lib/auth-store";
import { useStorageName } from "../../../lib/storage-name";
import { useErrorText } from "../../../lib/use-error-text";
import type { DeleteMode, FileShare } from "../api/file-shares";
import { fileShareUpdateBody } from "../file-share-form-model";
import {
  useDeleteFileShares,
  useFileShares,
  useStorageUsage,
  useUpdateFileShare,
} from "../hooks/use-file-shares";
import { DeleteFilesDialog } from "./delete-files-dialog";
import { useFileActions, useFileColumns } from "./file-columns";
import { FileEditDialog } from "./file-edit-dialog";
import { FilePreviewDialog } from "./file-preview-dialog";
import { UsageStrip } from "./usage-strip";

/** Admin (and FILE_SHARE key) module "file management": search, preview, edit, batch delete, usage. */
export function FileManagementModule() {
  const { t } = useTranslation();
  const storageName = useStorageName();
  const errorText = useErrorText();
  const caps = useCapabilities();

  const list = useListState({ filters: { storageId: "", owner: "" }, pageSize: FILES_DEFAULT_LIMIT });
  const { limit, offset, search, filters, selection } = list;
  const query = useMemo(
    () => ({
      limit,
      offset,
      ...(search ? { search } : {}),
      ...(filters.storageId ? { storage_config_id: filters.storageId } : {}),
      ...(filters.owner ? { owner_id: filters.owner } : {}),
    }),
    [limit, offset, search, filters.storageId, filters.owner],
  );
  const files = useFileShares(query);
  const usage = useStorageUsage();
  const update = useUpdateFileShare();
  const remove = useDeleteFileShares();

  const [previewing, setPreviewing] = useState<FileShare | null>(null);
  const [editing, setEditing] = useState<FileShare | null>(null);
  const [logOf, setLogOf] = useState<LoggedShare | null>(null);
  const [notifyOf, setNotifyOf] = useState<{ kind: "file"; id: string; name: string } | null>(null);
  const deleting = useConfirm<FileShare[]>();

  const rows = files.data?.files ?? [];
  const total = files.data?.pagination.total ?? 0;
  usePageInRange(list, rows.length, files.data?.pagination.total);
  const columns = useFileColumns();
  const actions = useFileActions({
    preview: setPreviewing,
    edit: setEditing,
    accessLog: (file) => setLogOf({ type: "file", id: file.id, name: file.filename, slug: file.slug }),
    notifications: (file) => setNotifyOf({ kind: "file", id: file.id, name: file.filename }),
    remove: (file) => deleting.ask([file]),
  });

  async function confirmDelete(mode: DeleteMode) {
    const targets = deleting.target;
    if (!targets) return;
    try {
      const result = await remove.mutateAsync({ ids: targets.map((f) => f.id), mode });
      selection.remove(targets.map((f) => f.id));
      if (result.failed.length > 0) {
        deleting.setError(
          t("fileManagement.delete.partial", {
            success: result.success,
            failed: result.failed.length,
            reason: result.failed[0]?.error ?? "",
          }),
        );
        return;
      }
      deleting.close();
      toast(t("fileManagement.delete.done", { count: result.success }), "success");
    } catch (err) {
      deleting.setError(errorText(err));
    }
  }

  return (
    <Card aria-labelledby="file-management-title">
      <CardHeader
        titleId="file-management-title"
        title={t("admin.modules.fileManagement")}
        description={caps.isAdmin ? t("fileManagement.description") : t("fileManagement.descriptionKey")}
        actions={
          <>
            <RefreshButton
              busy={files.isFetching}
              onClick={() => {
                void files.refetch();
                void usage.refetch();
              }}
            />
            <Link to="/upload" className={buttonClasses("primary")}>
              {t("fileManagement.upload")}
            </Link>
          </>
        }
      />
      <div className="space-y-5 p-5">
        <section aria-labelledby="file-usage-title" className="space-y-2">
          <h3 id="file-usage-title" className="text-sm font-medium text-slate-700 dark:text-slate-200">
            {t("fileManagement.usage.title")}
          </h3>
          {usage.isError ? (
            <Alert>{errorText(usage.error)}</Alert>
          ) : (
            <UsageStrip configs={usage.data ?? []} />
          )}
        </section>

        <ListToolbar
          list={list}
          searchLabel={t("fileManagement.search")}
          searchPlaceholder={t("fileManagement.searchPlaceholder")}
          onDeleteSelected={() => deleting.ask(rows.filter((r) => selection.has(r.id)))}
          filters={
            <>
              <Select
                aria-label={t("fileManagement.storageFilter")}
                value={filters.storageId}
                className="w-full sm:w-56"
                onChange={(e) => list.setFilter("storageId", e.target.value)}
              >
                <option value="">{t("fileManagement.allStorage")}</option>
                {(usage.data ?? []).map((config) => (
                  <option key={config.id} value={config.id}>
                    {storageName(config.name)}
                  </option>
                ))}
              </Select>
              <OwnerFilter value={filters.owner} onChange={(owner) => list.setFilter("owner", owner)} />
            </>
          }
        />

        <ListRows
          query={files}
          icon={Files}
          emptyText={list.filtered ? t("fileManagement.noMatches") : t("fileManagement.empty")}
          rows={rows}
          columns={columns}
          actions={actions}
          caption={t("fileManagement.tableCaption")}
          selection={{
            rows: selection,
            rowLabel: (file) => t("fileManagement.selectNamed", { name: file.filename }),
          }}
        />

        <ListPager list={list} total={total} rowCount={rows.length} busy={files.isFetching} />
      </div>

      <FilePreviewDialog file={previewing} onClose={() => setPreviewing(null)} />
      <AccessLogDialog share={logOf} onClose={() => setLogOf(null)} />
      {notifyOf ? <NotificationRuleDialog subject={notifyOf} onClose={() => setNotifyOf(null)} /> : null}

      <FileEditDialog
        file={editing}
        onClose={() => setEditing(null)}
        onSubmit={async (values, initial) => {
          if (!editing) return;
          const body = fileShareUpdateBody(values, initial);
          if (Object.keys(body).length === 0) {
            setEditing(null);
            return;
          }
          try {
            await update.mutateAsync({ id: editing.id, body });
            setEditing(null);
            toast(t("fileManagement.updated"), "success");
          } catch (err) {
            throw new Error(errorText(err));
          }
        }}
      />

      <DeleteFilesDialog
        names={deleting.target ? deleting.target.map((f) => f.filename) : null}
        busy={remove.isPending}
        error={deleting.error}
        onCancel={deleting.close}
        onConfirm={(mode) => void confirmDelete(mode)}
      />
    </Card>
  );
}
