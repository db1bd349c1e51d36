import { BASE_PATH_MAX, CUSTOM_KEY_MAX, CUSTOM_KEY_MIN, KEY_NAME_MAX, KEY_ROLES } from "@clipshare/shared";
import { PermissionPicker } from "../../../components/accounts/permission-picker";
import { Alert } from "../../../components/ui/alert";
import { CheckboxField } from "../../../components/ui/checkbox";
import { FormDialog } from "../../../components/ui/dialog";
import { SelectField, TextField } from "../../../components/ui/form";
import { useTranslation } from "../../../i18n";
import { useDialogForm } from "../../../lib/use-form-state";
import {
  type EditExpiryChoice,
  EXPIRY_CHOICES,
  type KeyFormErrors,
  type KeyFormValues,
  validateKeyForm,
} from "../key-form-model";

export interface KeyFormDialogProps {
  mode: "create" | "edit";
  open: boolean;
  initial: KeyFormValues;
  onOpenChange: (open: boolean) => void;
  /** Resolves when saved; rejects with the text to show. */
  onSubmit: (values: KeyFormValues) => Promise<void>;
  /** Shown for editing: the key's current expiry, in words. */
  currentExpiry?: string;
}

export function KeyFormDialog({
  mode,
  open,
  initial,
  onOpenChange,
  onSubmit,
  currentExpiry,
}: KeyFormDialogProps) {
  const { t } = useTranslation();
  const { values, set, errors, serverError, dialog } = useDialogForm<KeyFormValues, KeyFormErrors>({
    initial,
    open,
    onOpenChange,
    validate: (v) => validateKeyForm(v, mode),
    save: onSubmit,
  });

  const errorText = (field: keyof KeyFormErrors) => {
    const e = errors[field];
    if (!e) return null;
    const max = field === "name" ? KEY_NAME_MAX : field === "customKey" ? CUSTOM_KEY_MAX : BASE_PATH_MAX;
    return t(`apiKeys.form.errors.${field}.${e}` as "apiKeys.form.errors.name.required", {
      min: CUSTOM_KEY_MIN,
      max,
    });
  };

  const expiryOptions: EditExpiryChoice[] =
    mode === "edit" ? ["keep", ...EXPIRY_CHOICES] : [...EXPIRY_CHOICES];

  return (
    <FormDialog
      {...dialog}
      size="lg"
      title={mode === "create" ? t("apiKeys.createTitle") : t("apiKeys.editTitle")}
      description={mode === "create" ? t("apiKeys.createDescription") : undefined}
      submitLabel={mode === "create" ? t("apiKeys.create") : undefined}
      formClassName="space-y-5"
    >
      <TextField
        label={t("apiKeys.form.name")}
        error={errorText("name")}
        value={values.name}
        maxLength={KEY_NAME_MAX}
        onChange={(e) => set("name", e.target.value)}
      />

      <PermissionPicker
        legend={t("apiKeys.form.permissions")}
        value={values.permissions}
        onChange={(mask) => set("permissions", mask)}
      />

      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          label={t("apiKeys.form.role")}
          hint={t("apiKeys.form.roleHint")}
          value={values.role}
          onChange={(e) => set("role", e.target.value as KeyFormValues["role"])}
        >
          {KEY_ROLES.map((role) => (
            <option key={role} value={role}>
              {t(`apiKeys.roles.${role}`)}
            </option>
          ))}
        </SelectField>
        <TextField
          label={t("apiKeys.form.basePath")}
          hint={t("apiKeys.form.basePathHint")}
          error={errorText("basePath")}
          value={values.basePath}
          spellCheck={false}
          onChange={(e) => set("basePath", e.target.value)}
        />
      </div>

      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          label={t("apiKeys.form.expiry")}
          hint={
            mode === "edit" && currentExpiry
              ? t("apiKeys.form.currentExpiry", { value: currentExpiry })
              : undefined
          }
          value={values.expiry}
          onChange={(e) => set("expiry", e.target.value as EditExpiryChoice)}
        >
          {expiryOptions.map((choice) => (
            <option key={choice} value={choice}>
              {t(`apiKeys.expiry.${choice}`)}
            </option>
          ))}
        </SelectField>
        {values.expiry === "custom" ? (
          <TextField
            label={t("apiKeys.form.customDays")}
            error={errorText("customDays")}
            type="number"
            inputMode="numeric"
            min={1}
            step={1}
            value={values.customDays}
            onChange={(e) => set("customDays", e.target.value)}
          />
        ) : null}
      </div>

      {mode === "create" ? (
        <div className="space-y-3">
          <CheckboxField
            label={t("apiKeys.form.useCustomKey")}
            description={t("apiKeys.form.useCustomKeyHint")}
            checked={values.useCustomKey}
            onCheckedChange={(on) => set("useCustomKey", on)}
          />
          {values.useCustomKey ? (
            <TextField
              label={t("apiKeys.form.customKey")}
              hint={t("apiKeys.form.customKeyHint", { min: CUSTOM_KEY_MIN })}
              error={errorText("customKey")}
              value={values.customKey}
              spellCheck={false}
              autoComplete="off"
              onChange={(e) => set("customKey", e.target.value)}
            />
          ) : null}
        </div>
      ) : null}

      <CheckboxField
        label={t("apiKeys.form.guest")}
        description={t("apiKeys.form.guestHint")}
        checked={values.isGuest}
        onCheckedChange={(on) => set("isGuest", on)}
      />

      {serverError ? <Alert>{serverError}</Alert> : null}
    </FormDialog>
  );
}
