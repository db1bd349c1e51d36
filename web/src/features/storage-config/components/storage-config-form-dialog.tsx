import { isRemoteStorageType } from "@clipshare/shared";
import { Alert } from "../../../components/ui/alert";
import { CheckboxField } from "../../../components/ui/checkbox";
import { FormDialog } from "../../../components/ui/dialog";
import { SelectField, TextField } from "../../../components/ui/form";
import { useTranslation } from "../../../i18n";
import type { SizeInputUnit } from "../../../lib/file-size";
import { useDialogForm } from "../../../lib/use-form-state";
import type { ProviderType, RemotePreset, StorageType } from "../api/storage-configs";
import {
  applyProvider,
  applyRegion,
  applyStorageType,
  PROVIDER_PRESETS,
  PROVIDERS,
  presetNote,
  REMOTE_PRESETS,
  remotePresetsFor,
  SIZE_INPUT_UNITS,
  type StorageConfigErrors,
  type StorageConfigField,
  type StorageConfigFormValues,
  validateStorageConfigForm,
} from "../storage-config-form-model";

export interface StorageConfigFormDialogProps {
  mode: "create" | "edit";
  open: boolean;
  initial: StorageConfigFormValues;
  onOpenChange: (open: boolean) => void;
  /** Resolves when saved; rejects with the text to show. */
  onSubmit: (values: StorageConfigFormValues) => Promise<void>;
}

export function StorageConfigFormDialog({
  mode,
  open,
  initial,
  onOpenChange,
  onSubmit,
}: StorageConfigFormDialogProps) {
  const { t } = useTranslation();
  const { values, set, update, errors, serverError, dialog } = useDialogForm<
    StorageConfigFormValues,
    StorageConfigErrors
  >({
    initial,
    open,
    onOpenChange,
    validate: (v) => validateStorageConfigForm(v, mode, mode === "edit" ? initial : undefined),
    save: onSubmit,
  });

  const errorText = (field: StorageConfigField) => {
    const e = errors[field];
    if (!e) return null;
    return e === "required" ? t("storageConfig.form.required") : t(`storageConfig.form.invalid.${field}`);
  };

  const text = (
    field: StorageConfigField,
    label: string,
    props: {
      hint?: string;
      placeholder?: string;
      type?: string;
      autoComplete?: string;
      onChange?: (value: string) => void;
      value?: string;
    } = {},
  ) => (
    <TextField
      label={label}
      hint={props.hint}
      error={errorText(field)}
      type={props.type ?? "text"}
      autoComplete={props.autoComplete ?? "off"}
      spellCheck={false}
      placeholder={props.placeholder}
      value={props.value ?? (values[field as keyof StorageConfigFormValues] as string)}
      onChange={(e) =>
        props.onChange
          ? props.onChange(e.target.value)
          : set(field as keyof StorageConfigFormValues, e.target.value as never)
      }
    />
  );

  /** Key and secret (S3) or user name and password (WebDAV, SFTP, FTP); both sealed on the server. */
  const credentials = (keyLabel: string, secretLabel: string) => {
    const keep = mode === "edit" ? t("storageConfig.form.secretKeep") : undefined;
    return (
      <div className="grid gap-4 sm:grid-cols-2">
        {text("accessKeyId", keyLabel, { hint: keep })}
        {text("secretAccessKey", secretLabel, { type: "password", autoComplete: "new-password", hint: keep })}
      </div>
    );
  };

  const preset = PROVIDER_PRESETS[values.providerType];
  const isS3 = values.storageType === "S3";
  const remoteType = isRemoteStorageType(values.storageType) ? values.storageType : null;
  const remotePreset = REMOTE_PRESETS[values.remotePreset];
  const note = presetNote(values.remotePreset);

  return (
    <FormDialog
      {...dialog}
      size="lg"
      title={mode === "create" ? t("storageConfig.createTitle") : t("storageConfig.editTitle")}
      description={mode === "create" ? t("storageConfig.createDescription") : undefined}
      submitLabel={mode === "create" ? t("storageConfig.create") : undefined}
      formClassName="space-y-5"
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          label={t("storageConfig.form.storageType")}
          hint={mode === "edit" ? t("storageConfig.form.typeFixed") : undefined}
          value={values.storageType}
          disabled={mode === "edit"}
          onChange={(e) => update((v) => applyStorageType(v, e.target.value as StorageType))}
        >
          {(["S3", "LOCAL", "WEBDAV", "SFTP", "FTP"] as const).map((type) => (
            <option key={type} value={type}>
              {t(`storageConfig.types.${type}`)}
            </option>
          ))}
        </SelectField>
        {text("name", t("storageConfig.form.name"))}
      </div>

      {isS3 ? (
        <>
          <div className="grid gap-4 sm:grid-cols-2">
            <SelectField
              label={t("storageConfig.form.provider")}
              hint={t("storageConfig.form.providerHint")}
              value={values.providerType}
              onChange={(e) => update((v) => applyProvider(v, e.target.value as ProviderType))}
            >
              {PROVIDERS.map((p) => (
                <option key={p} value={p}>
                  {p}
                </option>
              ))}
            </SelectField>
            {text("region", t("storageConfig.form.region"), {
              placeholder: preset.region,
              onChange: (value) => update((v) => applyRegion(v, value)),
            })}
          </div>
          {text("endpointUrl", t("storageConfig.form.endpoint"), {
            placeholder: preset.endpointTemplate.replace("{region}", values.region || preset.region),
            hint: `${t("storageConfig.form.endpointHint")} ${t("storageEndpointAccess.privateHint")}`,
          })}
          <div className="grid gap-4 sm:grid-cols-2">
            {text("bucketName", t("storageConfig.form.bucket"))}
            {text("defaultFolder", t("storageConfig.form.defaultFolder"), {
              hint: t("storageConfig.form.defaultFolderHint"),
              placeholder: "clipshare",
            })}
          </div>
          {credentials(t("storageConfig.form.accessKeyId"), t("storageConfig.form.secretAccessKey"))}
          <div className="grid gap-4 sm:grid-cols-2">
            {text("customHost", t("storageConfig.form.customHost"), {
              hint: t("storageConfig.form.customHostHint"),
              placeholder: "https://cdn.example.com",
            })}
            {text("signatureExpiresIn", t("storageConfig.form.signatureExpiresIn"), {
              hint: t("storageConfig.form.signatureHint"),
              type: "number",
            })}
          </div>
          <CheckboxField
            label={t("storageConfig.form.pathStyle")}
            description={t("storageConfig.form.pathStyleHint")}
            checked={values.pathStyle}
            onCheckedChange={(on) => set("pathStyle", on)}
          />
          {values.providerType === "Backblaze B2" ? (
            <Alert tone="info">{t("storageConfig.form.b2Note")}</Alert>
          ) : null}
        </>
      ) : remoteType ? (
        <>
          <SelectField
            label={t("storageConfig.form.remotePreset")}
            hint={t("storageConfig.form.remotePresetHint")}
            value={values.remotePreset}
            onChange={(e) => set("remotePreset", e.target.value as RemotePreset)}
          >
            {remotePresetsFor(remoteType).map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </SelectField>
          {note ? <Alert tone="info">{t(`storageConfig.form.remotePresetNote.${note}`)}</Alert> : null}
          {text("endpointUrl", t("storageConfig.form.remoteEndpoint"), {
            placeholder: remotePreset.endpointTemplate,
            hint: `${t(`storageConfig.form.remoteEndpointHint.${remoteType}`)} ${t("storageEndpointAccess.privateHint")}`,
          })}
          {credentials(t("storageConfig.form.username"), t("storageConfig.form.password"))}
          {text("defaultFolder", t("storageConfig.form.remoteFolder"), {
            hint: t("storageConfig.form.remoteFolderHint"),
            placeholder: remotePreset.folder,
          })}
          {remoteType === "SFTP"
            ? text("hostKey", t("storageConfig.form.hostKey"), {
                hint: t("storageConfig.form.hostKeyHint"),
                placeholder: "SHA256:…",
              })
            : null}
        </>
      ) : (
        text("rootPath", t("storageConfig.form.rootPath"), {
          hint: t("storageConfig.form.rootPathHint"),
          placeholder: "/srv/clipshare/files",
        })
      )}

      <div className="grid gap-4 sm:grid-cols-[minmax(0,1fr)_7rem]">
        {text("quotaAmount", t("storageConfig.form.quota"), { hint: t("storageConfig.form.quotaHint") })}
        <SelectField
          label={t("storageConfig.form.quotaUnit")}
          value={values.quotaUnit}
          onChange={(e) => set("quotaUnit", e.target.value as SizeInputUnit)}
        >
          {SIZE_INPUT_UNITS.map((unit) => (
            <option key={unit} value={unit}>
              {unit}
            </option>
          ))}
        </SelectField>
      </div>

      <CheckboxField
        label={t("storageConfig.form.isPublic")}
        description={t("storageConfig.form.isPublicHint")}
        checked={values.isPublic}
        onCheckedChange={(on) => set("isPublic", on)}
      />

      {serverError ? <Alert>{serverError}</Alert> : null}
    </FormDialog>
  );
}
