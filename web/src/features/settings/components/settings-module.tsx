import { ADMIN_PASSWORD_MIN } from "@clipshare/shared";
import { type FormEvent, useEffect, useState } from "react";
import { AccessLogSettingsCard } from "../../../components/access-log/access-log-settings-card";
import { NotificationSettingsCard } from "../../../components/notifications/notification-settings-card";
import { AppStatusCard } from "../../../components/offline/app-status-card";
import { PasswordField } from "../../../components/password-input";
import { SettingsFormCard } from "../../../components/settings-form-card";
import { Alert } from "../../../components/ui/alert";
import { Button } from "../../../components/ui/button";
import { Card, CardHeader } from "../../../components/ui/card";
import { CheckboxField } from "../../../components/ui/checkbox";
import { SelectField, TextField } from "../../../components/ui/form";
import { toast } from "../../../components/ui/toast";
import { useTranslation } from "../../../i18n";
import { authStore } from "../../../lib/auth-store";
import { useErrorText } from "../../../lib/use-error-text";
import { SIZE_UNITS, type SizeUnit, WEBDAV_UPLOAD_MODES, type WebdavUploadMode } from "../api/settings";
import {
  useProxySignSettings,
  useSaveProxySignSettings,
  useSaveSystemSettings,
  useSystemSettings,
} from "../hooks/use-settings";
import {
  type AccountErrors,
  type AccountFormValues,
  validateAccountForm,
  validateMaxUploadSize,
  validateProxyExpires,
} from "../settings-form-model";
import { PublicBrowsingCard } from "./public-browsing-card";

function UploadSettingsCard() {
  const { t } = useTranslation();
  const query = useSystemSettings();
  const save = useSaveSystemSettings();
  const [size, setSize] = useState("");
  const [unit, setUnit] = useState<SizeUnit>("MB");
  const [mode, setMode] = useState<WebdavUploadMode>("direct");
  const [invalid, setInvalid] = useState(false);

  useEffect(() => {
    if (query.data) {
      setSize(String(query.data.maxUploadSize));
      setUnit(query.data.maxUploadSizeUnit);
      setMode(query.data.webdavUploadMode);
    }
  }, [query.data]);

  function onSave() {
    const errors = validateMaxUploadSize(size);
    setInvalid(Boolean(errors.maxUploadSize));
    if (errors.maxUploadSize) return false;
    return save.mutateAsync({ maxUploadSize: Number(size), maxUploadSizeUnit: unit, webdavUploadMode: mode });
  }

  return (
    <SettingsFormCard
      id="settings-upload"
      title={t("settings.upload.title")}
      description={t("settings.upload.description")}
      query={query}
      saving={save.isPending}
      onSave={onSave}
    >
      <div className="grid gap-4 sm:grid-cols-[1fr_8rem]">
        <TextField
          label={t("settings.upload.maxSize")}
          hint={t("settings.upload.maxSizeHint")}
          error={invalid ? t("settings.upload.maxSizeInvalid") : null}
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          value={size}
          onChange={(e) => setSize(e.target.value)}
        />
        <SelectField
          label={t("settings.upload.unit")}
          value={unit}
          onChange={(e) => setUnit(e.target.value as SizeUnit)}
        >
          {SIZE_UNITS.map((u) => (
            <option key={u} value={u}>
              {u}
            </option>
          ))}
        </SelectField>
      </div>
      <SelectField
        label={t("settings.upload.webdavMode")}
        hint={t(`settings.upload.webdavModeHint.${mode}`)}
        value={mode}
        onChange={(e) => setMode(e.target.value as WebdavUploadMode)}
      >
        {WEBDAV_UPLOAD_MODES.map((m) => (
          <option key={m} value={m}>
            {t(`settings.upload.webdavModes.${m}`)}
          </option>
        ))}
      </SelectField>
    </SettingsFormCard>
  );
}

function ProxySignCard() {
  const { t } = useTranslation();
  const query = useProxySignSettings();
  const save = useSaveProxySignSettings();
  const [signAll, setSignAll] = useState(false);
  const [expires, setExpires] = useState("0");
  const [invalid, setInvalid] = useState(false);

  useEffect(() => {
    if (query.data) {
      setSignAll(query.data.signAll);
      setExpires(String(query.data.expires));
    }
  }, [query.data]);

  function onSave() {
    const errors = validateProxyExpires(expires);
    setInvalid(Boolean(errors.expires));
    if (errors.expires) return false;
    return save.mutateAsync({ signAll, expires: Number(expires) });
  }

  return (
    <SettingsFormCard
      id="settings-proxy"
      title={t("settings.proxy.title")}
      description={t("settings.proxy.description")}
      query={query}
      saving={save.isPending}
      onSave={onSave}
    >
      <CheckboxField
        label={t("settings.proxy.signAll")}
        description={t("settings.proxy.signAllHint")}
        checked={signAll}
        onCheckedChange={setSignAll}
      />
      <TextField
        label={t("settings.proxy.expires")}
        hint={t("settings.proxy.expiresHint")}
        error={invalid ? t("settings.proxy.expiresInvalid") : null}
        type="number"
        inputMode="numeric"
        min={0}
        step={1}
        value={expires}
        onChange={(e) => setExpires(e.target.value)}
        controlClassName="sm:max-w-48"
      />
    </SettingsFormCard>
  );
}

const EMPTY_ACCOUNT: AccountFormValues = {
  currentPassword: "",
  newUsername: "",
  newPassword: "",
  confirmPassword: "",
};

function AccountCard() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [values, setValues] = useState<AccountFormValues>(EMPTY_ACCOUNT);
  const [errors, setErrors] = useState<AccountErrors>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const set = (key: keyof AccountFormValues, value: string) => setValues((v) => ({ ...v, [key]: value }));
  const fieldError = (key: keyof AccountErrors) =>
    errors[key] ? t(`settings.account.errors.${errors[key]}`, { min: ADMIN_PASSWORD_MIN }) : null;

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
      toast(t("settings.account.changed"), "success", 6000);
    } catch (err) {
      setError(errorText(err));
      setBusy(false);
    }
  }

  return (
    <Card aria-labelledby="settings-account-title">
      <CardHeader
        titleId="settings-account-title"
        title={t("settings.account.title")}
        description={t("settings.account.description")}
      />
      <form onSubmit={submit} noValidate className="space-y-4 p-5">
        <PasswordField
          label={t("settings.account.currentPassword")}
          error={fieldError("currentPassword")}
          autoComplete="current-password"
          value={values.currentPassword}
          onChange={(v) => set("currentPassword", v)}
        />
        <TextField
          label={t("settings.account.newUsername")}
          hint={t("settings.account.newUsernameHint")}
          error={fieldError("newUsername")}
          autoComplete="username"
          value={values.newUsername}
          onChange={(e) => set("newUsername", e.target.value)}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <PasswordField
            label={t("settings.account.newPassword")}
            error={fieldError("newPassword")}
            autoComplete="new-password"
            value={values.newPassword}
            onChange={(v) => set("newPassword", v)}
          />
          <PasswordField
            label={t("settings.account.confirmPassword")}
            error={fieldError("confirmPassword")}
            autoComplete="new-password"
            value={values.confirmPassword}
            onChange={(v) => set("confirmPassword", v)}
          />
        </div>
        {errors.form ? <Alert>{t(`settings.account.errors.${errors.form}`)}</Alert> : null}
        {error ? <Alert>{error}</Alert> : null}
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-xs text-slate-500 dark:text-slate-400">{t("settings.account.logoutNotice")}</p>
          <Button type="submit" disabled={busy}>
            {busy ? t("common.saving") : t("settings.account.submit")}
          </Button>
        </div>
      </form>
    </Card>
  );
}

/** Admin module "settings": uploads, proxy signing, access log, notifications, admin account, the web app's offline state. */
export function SettingsModule() {
  const { t } = useTranslation();
  return (
    <div className="space-y-6">
      <header className="px-1">
        <h2 className="text-xl font-semibold tracking-tight">{t("admin.modules.settings")}</h2>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{t("settingsPage.description")}</p>
      </header>
      <UploadSettingsCard />
      <ProxySignCard />
      <PublicBrowsingCard />
      <AccessLogSettingsCard />
      <NotificationSettingsCard />
      <AccountCard />
      <AppStatusCard />
    </div>
  );
}
