import { BASE_PATH_MAX, DISPLAY_NAME_MAX, ROLES, type Role } from "@clipshare/shared";
import { PermissionPicker } from "../../../components/accounts/permission-picker";
import { PasswordField } from "../../../components/password-input";
import { Alert } from "../../../components/ui/alert";
import { CheckboxField } from "../../../components/ui/checkbox";
import { FormDialog } from "../../../components/ui/dialog";
import { SelectField, TextField } from "../../../components/ui/form";
import { useTranslation } from "../../../i18n";
import { useDialogForm } from "../../../lib/use-form-state";
import {
  offeredPermissions,
  type UserFormErrors,
  type UserFormMode,
  type UserFormValues,
  validateUserForm,
} from "../user-form-model";

export interface UserFormDialogProps {
  mode: UserFormMode;
  open: boolean;
  initial: UserFormValues;
  onOpenChange: (open: boolean) => void;
  /** Resolves when saved; rejects with the text to show. */
  onSubmit: (values: UserFormValues, initial: UserFormValues) => Promise<void>;
}

/** Create or edit a user, or make an invitation: the role and the grant, and what each mode adds. */
export function UserFormDialog({ mode, open, initial, onOpenChange, onSubmit }: UserFormDialogProps) {
  const { t } = useTranslation();
  const { values, set, errors, serverError, dialog } = useDialogForm<UserFormValues, UserFormErrors>({
    initial,
    open,
    onOpenChange,
    validate: (v) => validateUserForm(v, mode),
    save: onSubmit,
  });
  const offered = offeredPermissions(values.role);
  const errorText = (field: keyof UserFormErrors) => {
    const e = errors[field];
    return e ? t(`users.form.errors.${field}`, { max: BASE_PATH_MAX }) : null;
  };

  return (
    <FormDialog
      {...dialog}
      size="lg"
      title={t(`users.form.title.${mode}`)}
      description={t(`users.form.description.${mode}`)}
      submitLabel={t(`users.form.submit.${mode}`)}
      formClassName="space-y-5"
    >
      {mode === "create" ? (
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label={t("users.form.username")}
            hint={t("users.form.usernameHint")}
            error={errorText("username")}
            autoComplete="off"
            value={values.username}
            onChange={(e) => set("username", e.target.value)}
          />
          <PasswordField
            label={t("users.form.password")}
            error={errorText("password")}
            autoComplete="new-password"
            value={values.password}
            onChange={(v) => set("password", v)}
          />
        </div>
      ) : null}
      {mode !== "invite" ? (
        <TextField
          label={t("users.form.displayName")}
          maxLength={DISPLAY_NAME_MAX}
          value={values.displayName}
          onChange={(e) => set("displayName", e.target.value)}
        />
      ) : null}
      {mode !== "invite" ? (
        <TextField
          label={t("users.form.email")}
          hint={t("users.form.emailHint")}
          type="email"
          autoComplete="off"
          value={values.email}
          onChange={(e) => set("email", e.target.value)}
        />
      ) : null}
      <SelectField
        label={t("users.form.role")}
        hint={t(`users.roleHints.${values.role}`)}
        value={values.role}
        onChange={(e) => set("role", e.target.value as Role)}
      >
        {ROLES.map((role) => (
          <option key={role} value={role}>
            {t(`users.roles.${role}`)}
          </option>
        ))}
      </SelectField>

      {values.role !== "admin" ? (
        <>
          <PermissionPicker
            legend={t("users.form.permissions")}
            value={values.permissions}
            offered={offered}
            onChange={(mask) => set("permissions", mask)}
          />
          <TextField
            label={t("users.form.basePath")}
            hint={t("users.form.basePathHint")}
            error={errorText("basePath")}
            maxLength={BASE_PATH_MAX}
            value={values.basePath}
            onChange={(e) => set("basePath", e.target.value)}
            className="font-mono"
          />
        </>
      ) : null}

      {mode !== "invite" ? (
        <TextField
          label={t("users.form.quota")}
          hint={t("users.form.quotaHint")}
          error={errorText("quotaMb")}
          inputMode="decimal"
          value={values.quotaMb}
          onChange={(e) => set("quotaMb", e.target.value)}
          controlClassName="sm:max-w-48"
        />
      ) : null}

      {mode === "edit" ? (
        <>
          <PasswordField
            label={t("users.form.newPassword")}
            hint={t("users.form.newPasswordHint")}
            error={errorText("password")}
            autoComplete="new-password"
            value={values.password}
            onChange={(v) => set("password", v)}
          />
          <CheckboxField
            label={t("users.form.disabled")}
            description={t("users.form.disabledHint")}
            checked={values.disabled}
            onCheckedChange={(on) => set("disabled", on)}
          />
        </>
      ) : null}

      {mode === "invite" ? (
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label={t("users.form.note")}
            hint={t("users.form.noteHint")}
            maxLength={200}
            value={values.note}
            onChange={(e) => set("note", e.target.value)}
          />
          <TextField
            label={t("users.form.hours")}
            error={errorText("hours")}
            type="number"
            inputMode="numeric"
            min={1}
            value={values.hours}
            onChange={(e) => set("hours", e.target.value)}
          />
        </div>
      ) : null}

      {serverError ? <Alert>{serverError}</Alert> : null}
    </FormDialog>
  );
}
