import { isRemoteStorageType } from "@clipshare/shared";
import { FlaskConical, HardDrive, Pencil, Plus, Star, Trash2 } from "lucide-react";
import { useState } from "react";
import { ListBody } from "../../../components/list/list-frame";
import { Alert } from "../../../components/ui/alert";
import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import { Card, CardHeader } from "../../../components/ui/card";
import { Dialog } from "../../../components/ui/dialog";
import { RefreshButton } from "../../../components/ui/refresh-button";
import { toast } from "../../../components/ui/toast";
import { UsageMeter } from "../../../components/ui/usage-meter";
import { useTranslation } from "../../../i18n";
import { formatBytes } from "../../../lib/file-size";
import { formatDateTime } from "../../../lib/format";
import { useStorageName } from "../../../lib/storage-name";
import { useErrorText } from "../../../lib/use-error-text";
import type { StorageConfig } from "../api/storage-configs";
import {
  useCreateStorageConfig,
  useDeleteStorageConfig,
  useSetDefaultStorageConfig,
  useStorageConfigs,
  useUpdateStorageConfig,
} from "../hooks/use-storage-configs";
import { emptyStorageConfigForm, formFromConfig, storageConfigBody } from "../storage-config-form-model";
import { StorageConfigFormDialog } from "./storage-config-form-dialog";
import { StorageTestDialog } from "./storage-test-dialog";

function ConfigCard({
  config,
  onTest,
  onEdit,
  onDelete,
  onSetDefault,
  settingDefault,
}: {
  config: StorageConfig;
  onTest: () => void;
  onEdit: () => void;
  onDelete: () => void;
  onSetDefault: () => void;
  settingDefault: boolean;
}) {
  const { t, i18n } = useTranslation();
  const storageName = useStorageName();
  const usage = config.usage ?? { file_count: 0, total_size: 0 };
  const isLocal = config.storage_type === "LOCAL";
  const isRemote = isRemoteStorageType(config.storage_type);
  const detail = (label: string, value: string | null | undefined) =>
    value ? (
      <div className="min-w-0">
        <dt className="text-xs text-slate-500 dark:text-slate-400">{label}</dt>
        <dd className="font-mono text-xs break-all text-slate-800 dark:text-slate-200">{value}</dd>
      </div>
    ) : null;

  return (
    <li
      aria-label={storageName(config.name)}
      className="flex flex-col rounded-xl border border-slate-200 p-4 dark:border-slate-800"
    >
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="font-medium break-words text-slate-900 dark:text-slate-100">
            {storageName(config.name)}
          </p>
          <div className="mt-1 flex flex-wrap gap-1">
            <Badge tone="accent">
              {isLocal || isRemote
                ? t(`storageConfig.types.${config.storage_type}`)
                : (config.provider_type ?? "S3")}
            </Badge>
            {isRemote && config.provider_type ? <Badge tone="neutral">{config.provider_type}</Badge> : null}
            {config.is_default ? (
              <Badge tone="success">
                <Star className="mr-1 h-3 w-3" aria-hidden />
                {t("storageConfig.default")}
              </Badge>
            ) : null}
            <Badge tone={config.is_public ? "warning" : "neutral"}>
              {config.is_public ? t("storageConfig.public") : t("storageConfig.adminOnly")}
            </Badge>
          </div>
        </div>
      </div>

      <dl className={isLocal ? "mt-3 grid gap-2" : "mt-3 grid gap-2 sm:grid-cols-2"}>
        {isLocal ? (
          detail(t("storageConfig.form.rootPath"), config.root_path)
        ) : isRemote ? (
          <>
            {detail(t("storageConfig.form.remoteEndpoint"), config.endpoint_url)}
            {detail(t("storageConfig.form.remoteFolder"), config.default_folder)}
            {detail(t("storageConfig.form.username"), config.access_key_id)}
          </>
        ) : (
          <>
            {detail(t("storageConfig.form.endpoint"), config.endpoint_url)}
            {detail(t("storageConfig.form.bucket"), config.bucket_name)}
            {detail(t("storageConfig.form.region"), config.region)}
            {detail(t("storageConfig.form.defaultFolder"), config.default_folder)}
            {detail(t("storageConfig.form.accessKeyId"), config.access_key_id)}
            {detail(t("storageConfig.form.customHost"), config.custom_host)}
          </>
        )}
      </dl>

      <div className="mt-3 text-sm text-slate-600 dark:text-slate-300">
        <p>
          {t("storageConfig.usage.summary", { count: usage.file_count, size: formatBytes(usage.total_size) })}
          {config.total_storage_bytes
            ? ` · ${t("storageConfig.usage.ofQuota", { quota: formatBytes(config.total_storage_bytes) })}`
            : ""}
        </p>
        {config.total_storage_bytes ? (
          <UsageMeter
            percent={(usage.total_size / config.total_storage_bytes) * 100}
            label={t("storageConfig.usage.quotaLabel")}
          />
        ) : null}
        {config.last_used ? (
          <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
            {t("storageConfig.lastUsed", { time: formatDateTime(config.last_used, i18n.language) })}
          </p>
        ) : null}
      </div>

      <div className="mt-4 flex flex-wrap gap-2 border-t border-slate-100 pt-3 dark:border-slate-800">
        <Button
          size="sm"
          variant="outline"
          onClick={onTest}
          aria-label={t("storageConfig.testNamed", { name: storageName(config.name) })}
        >
          <FlaskConical className="h-4 w-4" aria-hidden />
          {t("storageConfig.test.action")}
        </Button>
        {!config.is_default ? (
          <Button
            size="sm"
            variant="outline"
            onClick={onSetDefault}
            disabled={settingDefault}
            aria-label={t("storageConfig.setDefaultNamed", { name: storageName(config.name) })}
          >
            <Star className="h-4 w-4" aria-hidden />
            {t("storageConfig.setDefault")}
          </Button>
        ) : null}
        <Button
          size="sm"
          variant="ghost"
          onClick={onEdit}
          aria-label={t("storageConfig.editNamed", { name: storageName(config.name) })}
        >
          <Pencil className="h-4 w-4" aria-hidden />
          {t("common.edit")}
        </Button>
        <Button
          size="sm"
          variant="ghost"
          className="text-red-600 hover:bg-red-50 dark:text-red-400 dark:hover:bg-red-950/40"
          onClick={onDelete}
          aria-label={t("storageConfig.deleteNamed", { name: storageName(config.name) })}
        >
          <Trash2 className="h-4 w-4" aria-hidden />
          {t("common.delete")}
        </Button>
      </div>
    </li>
  );
}

/** Admin module "storage configuration": list, create/edit with presets, test, set default, delete. */
export function StorageConfigModule() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const configs = useStorageConfigs();
  const createConfig = useCreateStorageConfig();
  const updateConfig = useUpdateStorageConfig();
  const deleteConfig = useDeleteStorageConfig();
  const setDefault = useSetDefaultStorageConfig();

  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<StorageConfig | null>(null);
  const [deleting, setDeleting] = useState<StorageConfig | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [testing, setTesting] = useState<StorageConfig | null>(null);

  const rows = configs.data ?? [];
  const editInitial = editing ? formFromConfig(editing) : emptyStorageConfigForm();

  return (
    <Card aria-labelledby="storage-config-title">
      <CardHeader
        titleId="storage-config-title"
        title={t("admin.modules.storageConfig")}
        description={t("storageConfig.description")}
        actions={
          <>
            <RefreshButton busy={configs.isFetching} onClick={() => void configs.refetch()} />
            <Button onClick={() => setCreating(true)}>
              <Plus className="h-4 w-4" aria-hidden />
              {t("storageConfig.create")}
            </Button>
          </>
        }
      />
      <div className="p-5">
        <ListBody
          query={configs}
          rowCount={rows.length}
          icon={HardDrive}
          emptyText={t("storageConfig.empty")}
        >
          <ul className="grid gap-4 xl:grid-cols-2" aria-label={t("storageConfig.listLabel")}>
            {rows.map((config) => (
              <ConfigCard
                key={config.id}
                config={config}
                onTest={() => setTesting(config)}
                onEdit={() => setEditing(config)}
                onDelete={() => {
                  setDeleteError(null);
                  setDeleting(config);
                }}
                settingDefault={setDefault.isPending}
                onSetDefault={async () => {
                  try {
                    await setDefault.mutateAsync(config.id);
                    toast(t("storageConfig.defaultSet", { name: config.name }), "success");
                  } catch (err) {
                    toast(errorText(err), "error");
                  }
                }}
              />
            ))}
          </ul>
        </ListBody>
      </div>

      <StorageConfigFormDialog
        mode="create"
        open={creating}
        initial={emptyStorageConfigForm()}
        onOpenChange={setCreating}
        onSubmit={async (values) => {
          try {
            await createConfig.mutateAsync(storageConfigBody(values, "create"));
            setCreating(false);
            toast(t("storageConfig.created"), "success");
          } catch (err) {
            throw new Error(errorText(err));
          }
        }}
      />

      <StorageConfigFormDialog
        mode="edit"
        open={editing !== null}
        initial={editInitial}
        onOpenChange={(open) => !open && setEditing(null)}
        onSubmit={async (values) => {
          if (!editing) return;
          try {
            await updateConfig.mutateAsync({
              id: editing.id,
              body: storageConfigBody(values, "edit", formFromConfig(editing)),
            });
            setEditing(null);
            toast(t("storageConfig.updated"), "success");
          } catch (err) {
            throw new Error(errorText(err));
          }
        }}
      />

      <StorageTestDialog config={testing} onClose={() => setTesting(null)} />

      <Dialog
        role="alertdialog"
        open={deleting !== null}
        onOpenChange={(open) => !open && !deleteConfig.isPending && setDeleting(null)}
        title={t("storageConfig.deleteTitle", { name: deleting?.name ?? "" })}
        description={t("storageConfig.deleteDescription")}
        footer={
          <>
            <Button variant="outline" onClick={() => setDeleting(null)} disabled={deleteConfig.isPending}>
              {t("common.cancel")}
            </Button>
            <Button
              variant="danger"
              disabled={deleteConfig.isPending || deleteError !== null}
              onClick={async () => {
                if (!deleting) return;
                try {
                  await deleteConfig.mutateAsync(deleting.id);
                  setDeleting(null);
                  toast(t("storageConfig.deleted"), "success");
                } catch (err) {
                  // 409: the server says what still uses the config.
                  setDeleteError(errorText(err));
                }
              }}
            >
              {t("common.delete")}
            </Button>
          </>
        }
      >
        {deleteError ? (
          <Alert>{deleteError}</Alert>
        ) : (
          <p className="text-sm">{t("storageConfig.deleteConfirm")}</p>
        )}
      </Dialog>
    </Card>
  );
}
