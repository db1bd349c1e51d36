import { STORAGE_TYPES, type StorageType } from "@clipshare/shared";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { Alert } from "../../../components/ui/alert";
import { CheckboxField } from "../../../components/ui/checkbox";
import { FormDialog } from "../../../components/ui/dialog";
import { Field, SelectField, TextField } from "../../../components/ui/form";
import { toast } from "../../../components/ui/toast";
import { useTranslation } from "../../../i18n";
import { ApiError } from "../../../lib/api-error";
import { useErrorText } from "../../../lib/use-error-text";
import { useFormState } from "../../../lib/use-form-state";
import { type MountRow, mountsApi } from "../api/mounts";
import {
  EMPTY_MOUNT_FORM,
  type FieldError,
  type MountForm,
  suggestedRoot,
  toRequest,
  validateMountForm,
} from "../mount-form-model";

function formOf(row: MountRow): MountForm {
  return {
    name: row.name,
    mount_path: row.mount_path,
    root: row.root,
    allow_overlap: false,
    storage_type: row.storage_type,
    storage_config_id: row.storage_config_id ?? "",
    remark: row.remark ?? "",
    cache_ttl: String(row.cache_ttl),
    sort_order: String(row.sort_order),
    is_active: row.is_active,
    web_proxy: row.web_proxy,
    public_browse: row.public_browse,
    webdav_policy: row.webdav_policy,
    enable_sign: row.enable_sign,
    sign_expires: row.sign_expires === null ? "" : String(row.sign_expires),
    index_enabled: row.index_enabled,
    index_interval: row.index_interval === 0 ? "" : String(row.index_interval),
    index_include: row.index_include.join("\n"),
    index_exclude: row.index_exclude.join("\n"),
  };
}

/** Create or edit a mount: the form, checked before it is sent. */
export function MountFormDialog({
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
  /** The admin typed a folder: stop suggesting one. */
  const [rootTouched, setRootTouched] = useState(row !== null);
  /** The server found another mount on an overlapping folder: ask to confirm. */
  const [overlapAsked, setOverlapAsked] = useState(false);
  const {
    values: form,
    set,
    errors,
    serverError,
    busy,
    submit,
  } = useFormState<MountForm, Partial<Record<keyof MountForm, FieldError>>>({
    initial: () => (row ? formOf(row) : EMPTY_MOUNT_FORM),
    validate: validateMountForm,
    save: async (values) => {
      const body = toRequest(values);
      try {
        if (row) await mountsApi.update(row.id, body);
        else await mountsApi.create(body);
      } catch (e) {
        if (e instanceof ApiError && e.errorId === "mount_root_overlap") setOverlapAsked(true);
        throw e;
      }
      toast(t(row ? "mounts.updated" : "mounts.created", { name: values.name }), "success");
      onSaved();
      onClose();
    },
    failureText: errorText,
    clearErrorOnEdit: true,
  });
  const configs = useQuery({
    queryKey: ["storage-configs", "options"],
    queryFn: ({ signal }) => mountsApi.storageConfigs(signal),
  });
  const options = (configs.data ?? []).filter((c) => c.storage_type === form.storage_type);
  // A new mount starts on the default storage (its type with it), so the form is ready to save.
  const preselected = useRef(row !== null);
  useEffect(() => {
    if (preselected.current || !configs.data || form.storage_config_id) return;
    preselected.current = true;
    const config = configs.data.find((c) => c.is_default) ?? configs.data[0];
    if (!config) return;
    set("storage_type", config.storage_type);
    set("storage_config_id", config.id);
    suggestRoot(form.mount_path, config.id);
  });
  // A new mount on the default LOCAL storage (where file shares live) gets a folder of its own.
  const suggestRoot = (mountPath: string, configId: string) => {
    const config = configs.data?.find((c) => c.id === configId);
    if (!rootTouched && config?.is_default && config.storage_type === "LOCAL")
      set("root", suggestedRoot(mountPath));
  };
  const text = (e: FieldError | undefined) =>
    e
      ? e.key
        ? t(e.key as "mounts.errors.pathReserved", { path: e.values?.path ?? "" })
        : e.message
      : undefined;

  return (
    <FormDialog
      onClose={onClose}
      busy={busy}
      size="lg"
      title={row ? t("mounts.editTitle") : t("mounts.createTitle")}
      onSubmit={submit}
      formClassName="grid gap-3 sm:grid-cols-2"
    >
      <TextField
        label={t("mounts.fields.name")}
        error={text(errors.name)}
        value={form.name}
        onChange={(e) => set("name", e.target.value)}
      />
      <TextField
        label={t("mounts.fields.path")}
        hint={t("mounts.pathHint")}
        error={text(errors.mount_path)}
        value={form.mount_path}
        onChange={(e) => {
          set("mount_path", e.target.value);
          suggestRoot(e.target.value, form.storage_config_id);
        }}
        controlClassName="font-mono"
      />
      <SelectField
        label={t("mounts.fields.storageType")}
        error={text(errors.storage_type)}
        value={form.storage_type}
        onChange={(e) => {
          set("storage_type", e.target.value as StorageType);
          set("storage_config_id", "");
        }}
      >
        {STORAGE_TYPES.map((type) => (
          <option key={type} value={type}>
            {t(`mounts.storageTypes.${type}`)}
          </option>
        ))}
      </SelectField>
      <SelectField
        label={t("mounts.fields.storageConfig")}
        error={text(errors.storage_config_id)}
        value={form.storage_config_id}
        onChange={(e) => {
          set("storage_config_id", e.target.value);
          suggestRoot(form.mount_path, e.target.value);
        }}
      >
        <option value="">{t("mounts.chooseConfig")}</option>
        {options.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </SelectField>
      <TextField
        label={t("mounts.fields.root")}
        hint={t("mounts.rootHint")}
        error={text(errors.root)}
        className="sm:col-span-2"
        placeholder={t("mounts.rootPlaceholder")}
        value={form.root}
        onChange={(e) => {
          setRootTouched(true);
          set("root", e.target.value);
        }}
        controlClassName="font-mono"
      />
      <TextField
        label={t("mounts.fields.cacheTtl")}
        hint={t("mounts.cacheTtlHint")}
        error={text(errors.cache_ttl)}
        inputMode="numeric"
        value={form.cache_ttl}
        onChange={(e) => set("cache_ttl", e.target.value)}
      />
      <TextField
        label={t("mounts.fields.sortOrder")}
        error={text(errors.sort_order)}
        inputMode="numeric"
        value={form.sort_order}
        onChange={(e) => set("sort_order", e.target.value)}
      />
      <SelectField
        label={t("mounts.fields.webdavPolicy")}
        hint={
          form.webdav_policy === "302_redirect"
            ? t("mounts.webdav.redirectHint")
            : t("mounts.webdav.proxyHint")
        }
        value={form.webdav_policy}
        onChange={(e) => set("webdav_policy", e.target.value as MountForm["webdav_policy"])}
      >
        <option value="302_redirect">{t("mounts.webdav.redirect")}</option>
        <option value="native_proxy">{t("mounts.webdav.proxy")}</option>
      </SelectField>
      <TextField
        label={t("mounts.fields.signExpires")}
        hint={t("mounts.signExpiresHint")}
        error={text(errors.sign_expires)}
        inputMode="numeric"
        value={form.sign_expires}
        onChange={(e) => set("sign_expires", e.target.value)}
      />
      <TextField
        label={t("mounts.fields.remark")}
        error={text(errors.remark)}
        className="sm:col-span-2"
        value={form.remark}
        onChange={(e) => set("remark", e.target.value)}
      />
      <CheckboxField
        label={t("mounts.fields.active")}
        checked={form.is_active}
        onCheckedChange={(v) => set("is_active", v)}
      />
      <CheckboxField
        label={t("mounts.fields.webProxy")}
        description={t("mounts.webProxyHint")}
        checked={form.web_proxy}
        onCheckedChange={(v) => set("web_proxy", v)}
      />
      <CheckboxField
        label={t("mounts.fields.enableSign")}
        checked={form.enable_sign}
        onCheckedChange={(v) => set("enable_sign", v)}
      />
      <CheckboxField
        className="sm:col-span-2"
        label={t("mounts.fields.publicBrowse")}
        description={t("mounts.publicBrowseHint")}
        checked={form.public_browse}
        onCheckedChange={(v) => set("public_browse", v)}
      />
      <CheckboxField
        className="sm:col-span-2"
        label={t("mounts.fields.indexEnabled")}
        description={t("mounts.indexHint")}
        checked={form.index_enabled}
        onCheckedChange={(v) => set("index_enabled", v)}
      />
      {form.index_enabled ? (
        <>
          <TextField
            label={t("mounts.fields.indexInterval")}
            hint={t("mounts.indexIntervalHint")}
            error={text(errors.index_interval)}
            inputMode="numeric"
            value={form.index_interval}
            onChange={(e) => set("index_interval", e.target.value)}
          />
          <GlobField
            label={t("mounts.fields.indexExclude")}
            hint={t("mounts.indexGlobHint")}
            value={form.index_exclude}
            onChange={(v) => set("index_exclude", v)}
          />
          <GlobField
            label={t("mounts.fields.indexInclude")}
            hint={t("mounts.indexIncludeHint")}
            value={form.index_include}
            onChange={(v) => set("index_include", v)}
          />
        </>
      ) : null}
      {overlapAsked ? (
        <CheckboxField
          className="sm:col-span-2"
          label={t("mounts.fields.allowOverlap")}
          checked={form.allow_overlap}
          onCheckedChange={(v) => set("allow_overlap", v)}
        />
      ) : null}
      {serverError ? <Alert className="sm:col-span-2">{serverError}</Alert> : null}
    </FormDialog>
  );
}

/** A list of glob patterns, one a line. */
function GlobField({
  label,
  hint,
  value,
  onChange,
}: {
  label: string;
  hint: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <Field label={label} hint={hint}>
      {({ id, describedBy }) => (
        <textarea
          id={id}
          aria-describedby={describedBy}
          rows={3}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          className="w-full rounded-lg border border-slate-300 bg-white px-3 py-2 font-mono text-sm text-slate-900 dark:border-slate-700 dark:bg-slate-950 dark:text-slate-100"
        />
      )}
    </Field>
  );
}
