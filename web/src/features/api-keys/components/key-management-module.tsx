import { KeyRound, Pencil, Plus, Trash2 } from "lucide-react";
import { useState } from "react";
import { PermissionBadges } from "../../../components/accounts/permission-badges";
import { ConfirmDialog } from "../../../components/list/confirm-dialog";
import type { ListColumn, RowAction } from "../../../components/list/data-list";
import { ListRows } from "../../../components/list/list-frame";
import { useConfirm } from "../../../components/list/use-list-state";
import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import { Card, CardHeader } from "../../../components/ui/card";
import { RefreshButton } from "../../../components/ui/refresh-button";
import { toast } from "../../../components/ui/toast";
import { useTranslation } from "../../../i18n";
import { useCapabilities } from "../../../lib/auth-store";
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
  const caps = useCapabilities();
  const errorText = useErrorText();
  const keys = useApiKeys();
  const createKey = useCreateApiKey();
  const updateKey = useUpdateApiKey();
  const deleteKey = useDeleteApiKey();
  const expiryText = useExpiryText();

  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<ApiKeyRow | null>(null);
  const deleting = useConfirm<ApiKeyRow>();
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);

  const rows = keys.data ?? [];
  const isGuest = (row: ApiKeyRow) => row.is_guest === 1 || row.is_guest === true;

  const actions = (row: ApiKeyRow): RowAction[] => [
    {
      id: "edit",
      label: t("apiKeys.editNamed", { name: row.name }),
      title: t("common.edit"),
      icon: Pencil,
      onClick: () => setEditing(row),
    },
    {
      id: "delete",
      label: t("apiKeys.deleteNamed", { name: row.name }),
      title: t("common.delete"),
      icon: Trash2,
      danger: true,
      onClick: () => deleting.ask(row),
    },
  ];

  const columns: ListColumn<ApiKeyRow>[] = [
    {
      id: "name",
      header: t("apiKeys.columns.name"),
      primary: true,
      className: "font-medium text-slate-900 dark:text-slate-100",
      cell: (row) => row.name,
    },
    {
      id: "key",
      header: t("apiKeys.columns.key"),
      className: "text-xs text-slate-600 dark:text-slate-300",
      cell: (row) => (
        // A masked secret, not words: translators and language checks leave it alone.
        <span className="font-mono" translate="no">
          {row.key_masked}
        </span>
      ),
    },
    {
      id: "permissions",
      header: t("apiKeys.columns.permissions"),
      className: "max-w-64",
      cell: (row) => <PermissionBadges mask={row.permissions} />,
    },
    ...(caps.isAdmin
      ? [
          {
            id: "owner",
            header: t("apiKeys.columns.owner"),
            className: "text-slate-600 dark:text-slate-300",
            cell: (row: ApiKeyRow) => row.owner ?? "",
          },
        ]
      : []),
    {
      id: "basePath",
      header: t("apiKeys.columns.basePath"),
      className: "text-xs",
      cell: (row) => <span className="font-mono">{row.basic_path}</span>,
    },
    { id: "status", header: t("apiKeys.columns.status"), cell: (row) => status(row) },
    {
      id: "expires",
      header: t("apiKeys.columns.expires"),
      className: "whitespace-nowrap text-slate-600 dark:text-slate-300",
      cell: expiryText,
    },
    {
      id: "lastUsed",
      header: t("apiKeys.columns.lastUsed"),
      className: "whitespace-nowrap text-slate-600 dark:text-slate-300",
      cell: (row) => formatDateTime(row.last_used, i18n.language) || t("apiKeys.neverUsed"),
    },
  ];

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
            <RefreshButton busy={keys.isFetching} onClick={() => void keys.refetch()} />
            <Button onClick={() => setCreating(true)}>
              <Plus className="h-4 w-4" aria-hidden />
              {t("apiKeys.create")}
            </Button>
          </>
        }
      />

      <div className="p-5">
        <ListRows
          query={keys}
          icon={KeyRound}
          emptyText={t("apiKeys.empty")}
          rows={rows}
          columns={columns}
          actions={actions}
          caption={t("apiKeys.tableCaption")}
        />
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

      <ConfirmDialog
        state={deleting}
        busy={deleteKey.isPending}
        onConfirm={async () => {
          if (!deleting.target) return;
          try {
            await deleteKey.mutateAsync(deleting.target.id);
            deleting.close();
            toast(t("apiKeys.deleted"), "success");
          } catch (err) {
            deleting.setError(errorText(err));
          }
        }}
        title={t("apiKeys.deleteTitle", { name: deleting.target?.name ?? "" })}
        description={t("apiKeys.deleteDescription")}
      >
        {deleting.error ? null : <p className="text-sm">{t("apiKeys.deleteConfirm")}</p>}
      </ConfirmDialog>
    </Card>
  );
}
