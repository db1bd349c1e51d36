import { ALL_PERMISSIONS, Permission, type PermissionName, permissionNames } from "@clipshare/shared";
import { KeyRound, Pencil, Plus, RefreshCw, Trash2 } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "../../../components/ui/alert";
import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import { Card, CardHeader } from "../../../components/ui/card";
import { Dialog } from "../../../components/ui/dialog";
import { Spinner } from "../../../components/ui/spinner";
import { toast } from "../../../components/ui/toast";
import { formatDateTime } from "../../../lib/format";
import { useErrorText } from "../../../lib/use-error-text";
import type { ApiKeyRow } from "../api/api-keys";
import { useApiKeys, useCreateApiKey, useDeleteApiKey, useUpdateApiKey } from "../hooks/use-api-keys";
import {
  createBody,
  emptyKeyForm,
  formFromRow,
  isExpired,
  isNeverExpiring,
  updateBody,
} from "../key-form-model";
import { CreatedKeyDialog } from "./created-key-dialog";
import { KeyFormDialog } from "./key-form-dialog";

function PermissionBadges({ mask }: { mask: number }) {
  const { t } = useTranslation();
  if ((mask & ALL_PERMISSIONS) === ALL_PERMISSIONS)
    return <Badge tone="accent">{t("apiKeys.allPermissions")}</Badge>;
  const names = permissionNames(mask);
  if (names.length === 0) return <Badge>{t("apiKeys.noPermissions")}</Badge>;
  return (
    <span className="flex flex-wrap gap-1">
      {names.map((name: PermissionName) => (
        <Badge key={name} tone={Permission[name] >= Permission.WEBDAV_READ ? "warning" : "accent"}>
          {t(`permissions.${name}`)}
        </Badge>
      ))}
    </span>
  );
}

function useExpiryText() {
  const { t, i18n } = useTranslation();
  return (row: ApiKeyRow) =>
    isNeverExpiring(row.expires_at)
      ? t("apiKeys.expiry.never")
      : formatDateTime(row.expires_at, i18n.language);
}

/** Admin module "key management": list, create (full key shown once), edit, delete. */
export function KeyManagementModule() {
  const { t, i18n } = useTranslation();
  const errorText = useErrorText();
  const keys = useApiKeys();
  const createKey = useCreateApiKey();
  const updateKey = useUpdateApiKey();
  const deleteKey = useDeleteApiKey();
  const expiryText = useExpiryText();

  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<ApiKeyRow | null>(null);
  const [deleting, setDeleting] = useState<ApiKeyRow | null>(null);
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);

  const rows = keys.data ?? [];
  const isGuest = (row: ApiKeyRow) => row.is_guest === 1 || row.is_guest === true;

  const actions = (row: ApiKeyRow) => (
    <div className="flex justify-end gap-1">
      <Button
        variant="ghost"
        size="icon"
        aria-label={t("apiKeys.editNamed", { name: row.name })}
        title={t("common.edit")}
        onClick={() => setEditing(row)}
      >
        <Pencil className="h-4 w-4" aria-hidden />
      </Button>
      <Button
        variant="ghost"
        size="icon"
        className="text-red-600 hover:bg-red-50 dark:text-red-400 dark:hover:bg-red-950/40"
        aria-label={t("apiKeys.deleteNamed", { name: row.name })}
        title={t("common.delete")}
        onClick={() => {
          setDeleteError(null);
          setDeleting(row);
        }}
      >
        <Trash2 className="h-4 w-4" aria-hidden />
      </Button>
    </div>
  );

  const status = (row: ApiKeyRow) => (
    <span className="flex flex-wrap gap-1">
      <Badge>{t(`apiKeys.roles.${row.role as "GENERAL"}`, { defaultValue: row.role })}</Badge>
      {isGuest(row) ? <Badge tone="warning">{t("apiKeys.guest")}</Badge> : null}
      {row.is_expired || isExpired(row.expires_at) ? (
        <Badge tone="danger">{t("apiKeys.expired")}</Badge>
      ) : null}
    </span>
  );

  return (
    <Card aria-labelledby="key-management-title">
      <CardHeader
        titleId="key-management-title"
        title={t("admin.modules.keyManagement")}
        description={t("apiKeys.description")}
        actions={
          <>
            <Button
              variant="outline"
              size="icon"
              aria-label={t("common.refresh")}
              title={t("common.refresh")}
              onClick={() => void keys.refetch()}
            >
              <RefreshCw className={keys.isFetching ? "h-4 w-4 animate-spin" : "h-4 w-4"} aria-hidden />
            </Button>
            <Button onClick={() => setCreating(true)}>
              <Plus className="h-4 w-4" aria-hidden />
              {t("apiKeys.create")}
            </Button>
          </>
        }
      />

      <div className="p-5">
        {keys.isPending ? (
          <Spinner />
        ) : keys.isError ? (
          <Alert>{errorText(keys.error)}</Alert>
        ) : rows.length === 0 ? (
          <div className="flex flex-col items-center py-10 text-center text-sm text-slate-500 dark:text-slate-400">
            <KeyRound className="mb-2 h-8 w-8" aria-hidden />
            {t("apiKeys.empty")}
          </div>
        ) : (
          <>
            <div className="hidden overflow-x-auto md:block">
              <table className="w-full text-left text-sm">
                <caption className="sr-only">{t("apiKeys.tableCaption")}</caption>
                <thead className="text-xs text-slate-500 dark:text-slate-400">
                  <tr className="border-b border-slate-200 dark:border-slate-800">
                    <th scope="col" className="py-2 pr-3 font-medium">
                      {t("apiKeys.columns.name")}
                    </th>
                    <th scope="col" className="py-2 pr-3 font-medium">
                      {t("apiKeys.columns.key")}
                    </th>
                    <th scope="col" className="py-2 pr-3 font-medium">
                      {t("apiKeys.columns.permissions")}
                    </th>
                    <th scope="col" className="py-2 pr-3 font-medium">
                      {t("apiKeys.columns.basePath")}
                    </th>
                    <th scope="col" className="py-2 pr-3 font-medium">
                      {t("apiKeys.columns.status")}
                    </th>
                    <th scope="col" className="py-2 pr-3 font-medium">
                      {t("apiKeys.columns.expires")}
                    </th>
                    <th scope="col" className="py-2 pr-3 font-medium">
                      {t("apiKeys.columns.lastUsed")}
                    </th>
                    <th scope="col" className="py-2 text-right font-medium">
                      <span className="sr-only">{t("common.actions")}</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((row) => (
                    <tr
                      key={row.id}
                      className="border-b border-slate-100 align-top last:border-0 dark:border-slate-800/70"
                    >
                      <th scope="row" className="py-3 pr-3 font-medium text-slate-900 dark:text-slate-100">
                        {row.name}
                      </th>
                      <td className="py-3 pr-3 font-mono text-xs text-slate-600 dark:text-slate-300">
                        {row.key_masked}
                      </td>
                      <td className="max-w-64 py-3 pr-3">
                        <PermissionBadges mask={row.permissions} />
                      </td>
                      <td className="py-3 pr-3 font-mono text-xs">{row.basic_path}</td>
                      <td className="py-3 pr-3">{status(row)}</td>
                      <td className="py-3 pr-3 whitespace-nowrap text-slate-600 dark:text-slate-300">
                        {expiryText(row)}
                      </td>
                      <td className="py-3 pr-3 whitespace-nowrap text-slate-600 dark:text-slate-300">
                        {formatDateTime(row.last_used, i18n.language) || t("apiKeys.neverUsed")}
                      </td>
                      <td className="py-2">{actions(row)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>

            <ul className="space-y-3 md:hidden" aria-label={t("apiKeys.tableCaption")}>
              {rows.map((row) => (
                <li key={row.id} className="rounded-xl border border-slate-200 p-4 dark:border-slate-800">
                  <div className="flex items-start justify-between gap-2">
                    <div className="min-w-0">
                      <p className="truncate font-medium">{row.name}</p>
                      <p className="font-mono text-xs text-slate-500">{row.key_masked}</p>
                    </div>
                    {actions(row)}
                  </div>
                  <div className="mt-3 space-y-2 text-xs text-slate-600 dark:text-slate-300">
                    <PermissionBadges mask={row.permissions} />
                    {status(row)}
                    <p>
                      {t("apiKeys.columns.basePath")}: <span className="font-mono">{row.basic_path}</span>
                    </p>
                    <p>
                      {t("apiKeys.columns.expires")}: {expiryText(row)}
                    </p>
                  </div>
                </li>
              ))}
            </ul>
          </>
        )}
      </div>

      <KeyFormDialog
        mode="create"
        open={creating}
        initial={emptyKeyForm()}
        onOpenChange={setCreating}
        onSubmit={async (values) => {
          try {
            const result = await createKey.mutateAsync(createBody(values));
            setCreating(false);
            setCreated({ name: result.name ?? values.name, key: result.key });
          } catch (err) {
            throw new Error(errorText(err));
          }
        }}
      />

      <KeyFormDialog
        mode="edit"
        open={editing !== null}
        initial={editing ? formFromRow(editing) : emptyKeyForm()}
        currentExpiry={editing ? expiryText(editing) : undefined}
        onOpenChange={(open) => !open && setEditing(null)}
        onSubmit={async (values) => {
          if (!editing) return;
          try {
            await updateKey.mutateAsync({ id: editing.id, body: updateBody(values) });
            setEditing(null);
            toast(t("apiKeys.updated"), "success");
          } catch (err) {
            throw new Error(errorText(err));
          }
        }}
      />

      <CreatedKeyDialog created={created} onClose={() => setCreated(null)} />

      <Dialog
        role="alertdialog"
        open={deleting !== null}
        onOpenChange={(open) => !open && !deleteKey.isPending && setDeleting(null)}
        title={t("apiKeys.deleteTitle", { name: deleting?.name ?? "" })}
        description={t("apiKeys.deleteDescription")}
        footer={
          <>
            <Button variant="outline" onClick={() => setDeleting(null)} disabled={deleteKey.isPending}>
              {t("common.cancel")}
            </Button>
            <Button
              variant="danger"
              disabled={deleteKey.isPending}
              onClick={async () => {
                if (!deleting) return;
                try {
                  await deleteKey.mutateAsync(deleting.id);
                  setDeleting(null);
                  toast(t("apiKeys.deleted"), "success");
                } catch (err) {
                  setDeleteError(errorText(err));
                }
              }}
            >
              {t("common.delete")}
            </Button>
          </>
        }
      >
        {deleteError ? <Alert>{deleteError}</Alert> : <p className="text-sm">{t("apiKeys.deleteConfirm")}</p>}
      </Dialog>
    </Card>
  );
}
