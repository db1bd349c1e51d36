import { PasswordField } from "../../../components/password-input";
import {
  MaxViewsField,
  RemarkField,
  SlugField,
  useShareErrorText,
} from "../../../components/share-options/share-fields";
import { Alert } from "../../../components/ui/alert";
import { CheckboxField } from "../../../components/ui/checkbox";
import { FormDialog } from "../../../components/ui/dialog";
import { SelectField, TextField } from "../../../components/ui/form";
import { useTranslation } from "../../../i18n";
import { formatDateTime } from "../../../lib/format";
import { useFormState } from "../../../lib/use-form-state";
import type { FileShare } from "../api/file-shares";
import {
  type FileShareErrors,
  type FileShareField,
  type FileShareFormValues,
  formFromFile,
  type PasswordMode,
  SHARE_EXPIRY_CHOICES,
  type ShareExpiryChoice,
  validateFileShareForm,
} from "../file-share-form-model";

/** Edit a share's settings; the parent saves (and rejects with the text to show). */
export function FileEditDialog({
  file,
  onClose,
  onSubmit,
}: {
  file: FileShare | null;
  onClose: () => void;
  onSubmit: (values: FileShareFormValues, initial: FileShareFormValues) => Promise<void>;
}) {
  const { t, i18n } = useTranslation();
  const { values, set, errors, serverError, busy, submit } = useFormState<
    FileShareFormValues | null,
    FileShareErrors
  >({
    initial: () => (file ? formFromFile(file) : null),
    resetKey: file?.id,
    validate: (v) => (v ? validateFileShareForm(v) : {}),
    save: (v, initial) => (v && initial ? onSubmit(v, initial) : Promise.resolve()),
  });

  const shareErrorText = useShareErrorText();
  /** The share options' texts are every share form's; the name and custom expiry are this form's own. */
  const errorText = (field: FileShareField) => {
    const e = errors[field];
    if (!e) return null;
    if (field === "filename" || field === "customExpiry")
      return t(`fileManagement.form.errors.${field}.${e}` as "fileManagement.form.errors.filename.invalid");
    return shareErrorText(field, e === "past" ? undefined : e);
  };

  const currentExpiry = file?.expires_at
    ? formatDateTime(file.expires_at, i18n.language)
    : t("fileView.meta.never");

  return (
    <FormDialog
      open={file !== null}
      onClose={onClose}
      busy={busy}
      size="lg"
      title={t("fileManagement.editTitle")}
      description={file?.filename}
      submitDisabled={!values}
      onSubmit={submit}
      formClassName="space-y-4"
    >
      {values ? (
        <>
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              label={t("fileManagement.form.filename")}
              error={errorText("filename")}
              value={values.filename}
              onChange={(e) => set("filename", e.target.value)}
            />
            <SlugField
              prefix="/file/"
              label={t("fileManagement.form.slug")}
              hint=""
              error={errorText("slug")}
              value={values.slug}
              onChange={(v) => set("slug", v)}
            />
          </div>
          <RemarkField
            label={t("fileManagement.form.remark")}
            hint=""
            error={errorText("remark")}
            value={values.remark}
            onChange={(v) => set("remark", v)}
          />

          <div className="grid gap-4 sm:grid-cols-2">
            <SelectField
              label={t("fileManagement.form.password")}
              hint={
                file?.has_password
                  ? t("fileManagement.form.hasPassword")
                  : t("fileManagement.form.noPassword")
              }
              value={values.passwordMode}
              onChange={(e) => set("passwordMode", e.target.value as PasswordMode)}
            >
              <option value="keep">{t("fileManagement.form.passwordKeep")}</option>
              <option value="set">{t("fileManagement.form.passwordSet")}</option>
              {file?.has_password ? (
                <option value="clear">{t("fileManagement.form.passwordClear")}</option>
              ) : null}
            </SelectField>
            {values.passwordMode === "set" ? (
              <PasswordField
                label={t("fileManagement.form.newPassword")}
                error={errorText("password")}
                autoComplete="new-password"
                value={values.password}
                onChange={(v) => set("password", v)}
              />
            ) : null}
          </div>

          <div className="grid gap-4 sm:grid-cols-2">
            <SelectField
              label={t("fileManagement.form.expiry")}
              hint={t("fileManagement.form.currentExpiry", { value: currentExpiry })}
              value={values.expiry}
              onChange={(e) => set("expiry", e.target.value as ShareExpiryChoice)}
            >
              {SHARE_EXPIRY_CHOICES.map((choice) => (
                <option key={choice} value={choice}>
                  {choice === "keep"
                    ? t("fileManagement.form.expiryKeep")
                    : choice === "custom"
                      ? t("fileManagement.form.expiryCustom")
                      : t(`fileShare.expiry.${choice}`)}
                </option>
              ))}
            </SelectField>
            {values.expiry === "custom" ? (
              <TextField
                label={t("fileManagement.form.expiryAt")}
                error={errorText("customExpiry")}
                type="datetime-local"
                value={values.customExpiry}
                onChange={(e) => set("customExpiry", e.target.value)}
              />
            ) : null}
          </div>

          <MaxViewsField
            label={t("fileManagement.form.maxViews")}
            hint={t("fileManagement.form.maxViewsHint", { count: file?.views ?? 0 })}
            error={errorText("maxViews")}
            value={values.maxViews}
            onChange={(v) => set("maxViews", v)}
          />

          <CheckboxField
            label={t("fileManagement.form.useProxy")}
            description={t("fileManagement.form.useProxyHint")}
            checked={values.useProxy}
            onCheckedChange={(on) => set("useProxy", on)}
          />

          {serverError ? <Alert>{serverError}</Alert> : null}
        </>
      ) : null}
    </FormDialog>
  );
}
