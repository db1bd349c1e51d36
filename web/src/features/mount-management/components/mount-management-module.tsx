import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Eraser, FolderOpen, Pencil, Plus, Power, Trash2 } from "lucide-react";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Alert } from "../../../components/ui/alert";
import { Badge } from "../../../components/ui/badge";
import { Button, buttonClasses } from "../../../components/ui/button";
import { Card, CardHeader } from "../../../components/ui/card";
import { CheckboxField } from "../../../components/ui/checkbox";
import { Dialog } from "../../../components/ui/dialog";
import { Field, Input, Select } from "../../../components/ui/form";
import { Spinner } from "../../../components/ui/spinner";
import { toast } from "../../../components/ui/toast";
import { useCapabilities } from "../../../lib/auth-store";
import { useStorageName } from "../../../lib/storage-name";
import { useErrorText } from "../../../lib/use-error-text";
import { explorerHref } from "../../mount-explorer/model/paths";
import { type MountRow, mountsApi } from "../api/mounts";
import {
  EMPTY_MOUNT_FORM,
  type FieldError,
  type MountForm,
  toRequest,
  validateMountForm,
} from "../mount-form-model";

const mountsKey = ["mounts"] as const;

function formOf(row: MountRow): MountForm {
  return {
    name: row.name,
    mount_path: row.mount_path,
    storage_type: row.storage_type,
    storage_config_id: row.storage_config_id,
    remark: row.remark ?? "",
    cache_ttl: String(row.cache_ttl),
    sort_order: String(row.sort_order),
    is_active: row.is_active,
    web_proxy: row.web_proxy,
    webdav_policy: row.webdav_policy,
    enable_sign: row.enable_sign,
    sign_expires: row.sign_expires === null ? "" : String(row.sign_expires),
  };
}

/** Admin module "mount management" (spec §2/§5): every mount for the admin, read-only for a key. */
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
          <p className="text-sm text-slate-500">{t("mounts.empty")}</p>
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
                    </td>
                    <td className="py-2 pr-3 text-xs tabular-nums">
                      {t("mounts.seconds", { count: row.cache_ttl })}
                    </td>
                    <td className="py-2 pr-3">
                      <Badge tone={row.is_active ? "success" : "neutral"}>
                        {t(row.is_active ? "mounts.active" : "mounts.inactive")}
                      </Badge>
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

function MountFormDialog({
  row,
  onClose,
  onSaved,
}: {
  row: MountRow | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [form, setForm] = useState<MountForm>(row ? formOf(row) : EMPTY_MOUNT_FORM);
  const [errors, setErrors] = useState<Partial<Record<keyof MountForm, FieldError>>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const configs = useQuery({
    queryKey: ["storage-configs", "options"],
    queryFn: ({ signal }) => mountsApi.storageConfigs(signal),
  });
  const options = (configs.data ?? []).filter((c) => c.storage_type === form.storage_type);
  const set = <K extends keyof MountForm>(key: K, value: MountForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
  };
  const text = (e: FieldError | undefined) =>
    e
      ? e.key
        ? t(e.key as "mounts.errors.pathReserved", { path: e.values?.path ?? "" })
        : e.message
      : undefined;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = validateMountForm(form);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    setServerError(null);
    try {
      const body = toRequest(form);
      if (row) await mountsApi.update(row.id, body);
      else await mountsApi.create(body);
      toast(t(row ? "mounts.updated" : "mounts.created", { name: form.name }), "success");
      onSaved();
      onClose();
    } catch (err) {
      setServerError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open
      size="lg"
      onOpenChange={(open) => !open && onClose()}
      title={row ? t("mounts.editTitle") : t("mounts.createTitle")}
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            {t("common.cancel")}
          </Button>
          <Button type="submit" form="mount-form" disabled={busy}>
            {busy ? t("common.saving") : t("common.save")}
          </Button>
        </>
      }
    >
      <form id="mount-form" onSubmit={submit} noValidate className="grid gap-3 sm:grid-cols-2">
        <Field label={t("mounts.fields.name")} error={text(errors.name)}>
          {({ id, describedBy, invalid }) => (
            <Input
              id={id}
              aria-describedby={describedBy}
              invalid={invalid}
              value={form.name}
              onChange={(e) => set("name", e.target.value)}
            />
          )}
        </Field>
        <Field label={t("mounts.fields.path")} hint={t("mounts.pathHint")} error={text(errors.mount_path)}>
          {({ id, describedBy, invalid }) => (
            <Input
              id={id}
              aria-describedby={describedBy}
              invalid={invalid}
              value={form.mount_path}
              onChange={(e) => set("mount_path", e.target.value)}
              className="font-mono"
            />
          )}
        </Field>
        <Field label={t("mounts.fields.storageType")} error={text(errors.storage_type)}>
          {({ id, describedBy, invalid }) => (
            <Select
              id={id}
              aria-describedby={describedBy}
              invalid={invalid}
              value={form.storage_type}
              onChange={(e) => {
                set("storage_type", e.target.value as "LOCAL" | "S3");
                set("storage_config_id", "");
              }}
            >
              <option value="LOCAL">LOCAL</option>
              <option value="S3">S3</option>
            </Select>
          )}
        </Field>
        <Field label={t("mounts.fields.storageConfig")} error={text(errors.storage_config_id)}>
          {({ id, describedBy, invalid }) => (
            <Select
              id={id}
              aria-describedby={describedBy}
              invalid={invalid}
              value={form.storage_config_id}
              onChange={(e) => set("storage_config_id", e.target.value)}
            >
              <option value="">{t("mounts.chooseConfig")}</option>
              {options.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Field
          label={t("mounts.fields.cacheTtl")}
          hint={t("mounts.cacheTtlHint")}
          error={text(errors.cache_ttl)}
        >
          {({ id, describedBy, invalid }) => (
            <Input
              id={id}
              aria-describedby={describedBy}
              invalid={invalid}
              inputMode="numeric"
              value={form.cache_ttl}
              onChange={(e) => set("cache_ttl", e.target.value)}
            />
          )}
        </Field>
        <Field label={t("mounts.fields.sortOrder")} error={text(errors.sort_order)}>
          {({ id, describedBy, invalid }) => (
            <Input
              id={id}
              aria-describedby={describedBy}
              invalid={invalid}
              inputMode="numeric"
              value={form.sort_order}
              onChange={(e) => set("sort_order", e.target.value)}
            />
          )}
        </Field>
        <Field label={t("mounts.fields.webdavPolicy")}>
          {({ id }) => (
            <Select
              id={id}
              value={form.webdav_policy}
              onChange={(e) => set("webdav_policy", e.target.value as MountForm["webdav_policy"])}
            >
              <option value="302_redirect">{t("mounts.webdav.redirect")}</option>
              <option value="native_proxy">{t("mounts.webdav.proxy")}</option>
            </Select>
          )}
        </Field>
        <Field
          label={t("mounts.fields.signExpires")}
          hint={t("mounts.signExpiresHint")}
          error={text(errors.sign_expires)}
        >
          {({ id, describedBy, invalid }) => (
            <Input
              id={id}
              aria-describedby={describedBy}
              invalid={invalid}
              inputMode="numeric"
              value={form.sign_expires}
              onChange={(e) => set("sign_expires", e.target.value)}
            />
          )}
        </Field>
        <Field label={t("mounts.fields.remark")} error={text(errors.remark)} className="sm:col-span-2">
          {({ id, describedBy, invalid }) => (
            <Input
              id={id}
              aria-describedby={describedBy}
              invalid={invalid}
              value={form.remark}
              onChange={(e) => set("remark", e.target.value)}
            />
          )}
        </Field>
        <CheckboxField
          label={t("mounts.fields.active")}
          checked={form.is_active}
          onCheckedChange={(v) => set("is_active", v)}
        />
        <CheckboxField
          label={t("mounts.fields.webProxy")}
          checked={form.web_proxy}
          onCheckedChange={(v) => set("web_proxy", v)}
        />
        <CheckboxField
          label={t("mounts.fields.enableSign")}
          checked={form.enable_sign}
          onCheckedChange={(v) => set("enable_sign", v)}
        />
      </form>
      {serverError ? <Alert className="mt-3">{serverError}</Alert> : null}
    </Dialog>
  );
}
