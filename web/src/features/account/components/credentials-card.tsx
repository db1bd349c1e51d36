import { ADMIN_PASSWORD_MIN } from "@clipshare/shared";
import { type FormEvent, useState } from "react";
import { PasswordField } from "../../../components/password-input";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { Card, CardHeader } from "../../../components/ui/card";
import { TextField } from "../../../components/ui/form";
import { toast } from "../../../components/ui/toast";
import { useTranslation } from "../../../i18n";
import { authStore } from "../../../lib/auth-store";
import { useErrorText } from "../../../lib/use-error-text";
import { type AccountErrors, type AccountFormValues, validateAccountForm } from "../account-form-model";

const EMPTY_ACCOUNT: AccountFormValues = {
  currentPassword: "",
  newUsername: "",
  newPassword: "",
  confirmPassword: "",
};

/** One's own user name and password; a change signs every session out. */
export function CredentialsCard() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [values, setValues] = useState<AccountFormValues>(EMPTY_ACCOUNT);
  const [errors, setErrors] = useState<AccountErrors>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const set = (key: keyof AccountFormValues, value: string) => setValues((v) => ({ ...v, [key]: value }));
  const fieldError = (key: keyof AccountErrors) =>
    errors[key] ? t(`account.credentials.errors.${errors[key]}`, { min: ADMIN_PASSWORD_MIN }) : null;

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found = validateAccountForm(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    setError(null);
    try {
      await authStore.changeAdminCredentials({
        currentPassword: values.currentPassword,
        newUsername: values.newUsername.trim() || undefined,
        newPassword: values.newPassword || undefined,
      });
      // Signed out now: the admin page shows the sign-in form.
      toast(t("account.credentials.changed"), "success", 6000);
    } catch (err) {
      setError(errorText(err));
      setBusy(false);
    }
  }

  return (
    <Card aria-labelledby="account-credentials-title">
      <CardHeader
        titleId="account-credentials-title"
        title={t("account.credentials.title")}
        description={t("account.credentials.description")}
      />
      <form onSubmit={submit} noValidate className="space-y-4 p-5">
        <PasswordField
          label={t("account.credentials.currentPassword")}
          error={fieldError("currentPassword")}
          autoComplete="current-password"
          value={values.currentPassword}
          onChange={(v) => set("currentPassword", v)}
        />
        <TextField
          label={t("account.credentials.newUsername")}
          hint={t("account.credentials.newUsernameHint")}
          error={fieldError("newUsername")}
          autoComplete="username"
          value={values.newUsername}
          onChange={(e) => set("newUsername", e.target.value)}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <PasswordField
            label={t("account.credentials.newPassword")}
            error={fieldError("newPassword")}
            autoComplete="new-password"
            value={values.newPassword}
            onChange={(v) => set("newPassword", v)}
          />
          <PasswordField
            label={t("account.credentials.confirmPassword")}
            error={fieldError("confirmPassword")}
            autoComplete="new-password"
            value={values.confirmPassword}
            onChange={(v) => set("confirmPassword", v)}
          />
        </div>
        {errors.form ? <Alert>{t(`account.credentials.errors.${errors.form}`)}</Alert> : null}
        {error ? <Alert>{error}</Alert> : null}
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-xs text-slate-500 dark:text-slate-400">
            {t("account.credentials.logoutNotice")}
          </p>
          <Button type="submit" disabled={busy}>
            {busy ? t("common.saving") : t("account.credentials.submit")}
          </Button>
        </div>
      </form>
    </Card>
  );
}
