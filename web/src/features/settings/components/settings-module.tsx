import { useEffect, useState } from "react";
import { AccessLogSettingsCard } from "../../../components/access-log/access-log-settings-card";
import { NotificationSettingsCard } from "../../../components/notifications/notification-settings-card";
import { AppStatusCard } from "../../../components/offline/app-status-card";
import { SettingsFormCard } from "../../../components/settings-form-card";
import { CheckboxField } from "../../../components/ui/checkbox";
import { SelectField, TextField } from "../../../components/ui/form";
import { useTranslation } from "../../../i18n";
import { SIZE_UNITS, type SizeUnit, WEBDAV_UPLOAD_MODES, type WebdavUploadMode } from "../api/settings";
import {
  useProxySignSettings,
  useSaveProxySignSettings,
  useSaveSystemSettings,
  useSystemSettings,
} from "../hooks/use-settings";
import { validateMaxUploadSize, validateProxyExpires } from "../settings-form-model";
import { AdminSecondFactorCard } from "./admin-second-factor-card";
import { PublicBrowsingCard } from "./public-browsing-card";
import { SsoSettingsCard } from "./sso-settings-card";

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

/** Admin module "settings": uploads, proxy signing, the access log, notifications, the web app's offline state. */
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
      <AdminSecondFactorCard />
      <SsoSettingsCard />
      <AccessLogSettingsCard />
      <NotificationSettingsCard />
      <AppStatusCard />
    </div>
  );
}
