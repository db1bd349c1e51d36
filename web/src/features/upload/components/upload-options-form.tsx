import { PasswordField } from "../../../components/password-input";
import {
  AccessLogField,
  MaxViewsField,
  RemarkField,
  SlugField,
  useShareErrorText,
} from "../../../components/share-options/share-fields";
import { Card, CardHeader } from "../../../components/ui/card";
import { Field, Input, Select } from "../../../components/ui/form";
import { useTranslation } from "../../../i18n";
import { useStorageName } from "../../../lib/storage-name";
import type { UploadStorageConfig } from "../api/uploads";
import {
  EXPIRY_CHOICES,
  type ExpiryHours,
  type UploadFormErrors,
  type UploadFormValues,
} from "../upload-form-model";

/** The label key of an expiry choice (hours; 0 = never). */
function expiryKey(hours: number): "1h" | "1d" | "7d" | "30d" | "never" {
  if (hours === 1) return "1h";
  if (hours === 24) return "1d";
  if (hours === 24 * 7) return "7d";
  if (hours === 24 * 30) return "30d";
  return "never";
}

export function UploadOptionsForm({
  values,
  onChange,
  errors,
  configs,
  configsLoading,
  allowSlug,
  disabled,
  titleId = "upload-options-title",
  children,
}: {
  values: UploadFormValues;
  onChange: (values: UploadFormValues) => void;
  errors: UploadFormErrors;
  configs: UploadStorageConfig[];
  configsLoading: boolean;
  allowSlug: boolean;
  disabled: boolean;
  /** Element id of the card's title (unique per form on the page). */
  titleId?: string;
  /** Options only one upload form offers, drawn last inside the card. */
  children?: React.ReactNode;
}) {
  const { t } = useTranslation();
  const storageName = useStorageName();
  const errorText = useShareErrorText();
  const set = <K extends keyof UploadFormValues>(key: K, value: UploadFormValues[K]) =>
    onChange({ ...values, [key]: value });

  return (
    <Card aria-labelledby={titleId}>
      <CardHeader titleId={titleId} title={t("upload.options.title")} />
      <div className="space-y-4 p-5">
        <Field label={t("upload.options.storage")}>
          {({ id }) => (
            <Select
              id={id}
              value={values.storageConfigId}
              disabled={disabled || configsLoading || configs.length === 0}
              onChange={(e) => set("storageConfigId", e.target.value)}
            >
              {configsLoading ? <option value="">{t("common.loading")}</option> : null}
              {!configsLoading && configs.length === 0 ? (
                <option value="">{t("upload.options.noStorage")}</option>
              ) : null}
              {configs.map((config) => (
                <option key={config.id} value={config.id}>
                  {storageName(config.name)}
                  {` (${config.storage_type === "LOCAL" ? t("fileShare.localStorage") : (config.provider_type ?? "S3")})`}
                  {config.is_default ? ` · ${t("upload.options.default")}` : ""}
                </option>
              ))}
            </Select>
          )}
        </Field>

        <SlugField
          prefix="/file/"
          label={t("upload.options.slug")}
          hint={allowSlug ? t("upload.options.slugHint") : t("upload.options.slugMulti")}
          error={allowSlug ? errorText("slug", errors.slug) : null}
          value={allowSlug ? values.slug : ""}
          disabled={disabled || !allowSlug}
          onChange={(v) => set("slug", v)}
        />

        <Field
          label={t("upload.options.path")}
          hint={t("upload.options.pathHint")}
          error={errors.path ? t("upload.options.pathInvalid") : null}
        >
          {({ id, describedBy, invalid }) => (
            <Input
              id={id}
              aria-describedby={describedBy}
              invalid={invalid}
              value={values.path}
              disabled={disabled}
              placeholder={t("uploadFolder.placeholder")}
              spellCheck={false}
              onChange={(e) => set("path", e.target.value)}
            />
          )}
        </Field>

        <RemarkField
          label={t("upload.options.remark")}
          hint=""
          error={errorText("remark", errors.remark)}
          value={values.remark}
          disabled={disabled}
          onChange={(v) => set("remark", v)}
        />

        <PasswordField
          label={t("upload.options.password")}
          hint={t("upload.options.passwordHint")}
          error={errorText("password", errors.password)}
          value={values.password}
          onChange={(v) => set("password", v)}
          autoComplete="new-password"
          disabled={disabled}
        />

        <div className="grid grid-cols-2 gap-3">
          <Field label={t("upload.options.expiry")}>
            {({ id }) => (
              <Select
                id={id}
                value={String(values.expiryHours)}
                disabled={disabled}
                onChange={(e) => set("expiryHours", Number(e.target.value) as ExpiryHours)}
              >
                {EXPIRY_CHOICES.map((hours) => (
                  <option key={hours} value={hours}>
                    {t(`fileShare.expiry.${expiryKey(hours)}`)}
                  </option>
                ))}
              </Select>
            )}
          </Field>
          <MaxViewsField
            label={t("upload.options.maxViews")}
            hint=""
            error={errorText("maxViews", errors.maxViews)}
            value={values.maxViews}
            disabled={disabled}
            onChange={(v) => set("maxViews", v)}
          />
        </div>
        <AccessLogField noLog={values.noLog} disabled={disabled} onChange={(noLog) => set("noLog", noLog)} />
        {children}
      </div>
    </Card>
  );
}
