import { useEffect, useState } from "react";
import { useTranslation } from "../../i18n";
import { type SettingRows, useSystemSettings } from "../../lib/use-system-settings";
import { SettingsFormCard } from "../settings-form-card";
import { CheckboxField } from "../ui/checkbox";
import { TextField } from "../ui/form";

interface AccessLogSettings {
  privacyMode: boolean;
  ipLogging: boolean;
  retentionDays: number;
}

function parse(rows: SettingRows): AccessLogSettings {
  const get = (key: string) => rows.find((r) => r.key === key)?.value;
  const days = Number(get("access_log_retention_days"));
  return {
    privacyMode: get("access_log_privacy_mode") === "true",
    ipLogging: get("access_log_ip") === "true",
    retentionDays: Number.isInteger(days) && days >= 0 ? days : 90,
  };
}

/** Settings card: privacy mode, IP logging and how long access log entries are kept. */
export function AccessLogSettingsCard() {
  const { t } = useTranslation();
  const { query, save } = useSystemSettings("access-log", parse, (s: AccessLogSettings) => ({
    access_log_privacy_mode: s.privacyMode,
    access_log_ip: s.ipLogging,
    access_log_retention_days: s.retentionDays,
  }));
  const [privacyMode, setPrivacyMode] = useState(false);
  const [ipLogging, setIpLogging] = useState(false);
  const [days, setDays] = useState("90");
  const [invalid, setInvalid] = useState(false);

  useEffect(() => {
    if (!query.data) return;
    setPrivacyMode(query.data.privacyMode);
    setIpLogging(query.data.ipLogging);
    setDays(String(query.data.retentionDays));
  }, [query.data]);

  function onSave() {
    const value = Number(days.trim());
    const bad = !days.trim() || !Number.isInteger(value) || value < 0 || value > 36500;
    setInvalid(bad);
    if (bad) return false;
    return save.mutateAsync({ privacyMode, ipLogging, retentionDays: value });
  }

  return (
    <SettingsFormCard
      id="settings-access-log"
      title={t("accessLog.settings.title")}
      description={t("accessLog.settings.description")}
      query={query}
      saving={save.isPending}
      onSave={onSave}
    >
      <CheckboxField
        label={t("accessLog.settings.privacyMode")}
        description={t("accessLog.settings.privacyModeHint")}
        checked={privacyMode}
        onCheckedChange={setPrivacyMode}
      />
      <CheckboxField
        label={t("accessLog.settings.ipLogging")}
        description={t("accessLog.settings.ipLoggingHint")}
        checked={ipLogging}
        disabled={privacyMode}
        onCheckedChange={setIpLogging}
      />
      <TextField
        label={t("accessLog.settings.retention")}
        hint={t("accessLog.settings.retentionHint")}
        error={invalid ? t("accessLog.settings.retentionInvalid") : null}
        type="number"
        inputMode="numeric"
        min={0}
        max={36500}
        step={1}
        value={days}
        onChange={(e) => setDays(e.target.value)}
      />
    </SettingsFormCard>
  );
}
