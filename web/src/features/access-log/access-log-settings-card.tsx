import type { SystemSettingRow } from "@clipshare/shared";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "../../components/ui/alert";
import { Button } from "../../components/ui/button";
import { Card, CardHeader } from "../../components/ui/card";
import { CheckboxField } from "../../components/ui/checkbox";
import { TextField } from "../../components/ui/form";
import { Spinner } from "../../components/ui/spinner";
import { toast } from "../../components/ui/toast";
import { api } from "../../lib/api";
import { useErrorText } from "../../lib/use-error-text";

interface AccessLogSettings {
  privacyMode: boolean;
  ipLogging: boolean;
  retentionDays: number;
}

function parse(rows: Array<Pick<SystemSettingRow, "key" | "value">>): AccessLogSettings {
  const get = (key: string) => rows.find((r) => r.key === key)?.value;
  const days = Number(get("access_log_retention_days"));
  return {
    privacyMode: get("access_log_privacy_mode") === "true",
    ipLogging: get("access_log_ip") === "true",
    retentionDays: Number.isInteger(days) && days >= 0 ? days : 90,
  };
}

const settingsKey = ["settings", "access-log"] as const;

/** Settings card: privacy mode, IP logging and how long access log entries are kept. */
export function AccessLogSettingsCard() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const qc = useQueryClient();
  const query = useQuery({
    queryKey: settingsKey,
    queryFn: async ({ signal }) =>
      parse(await api.get<SystemSettingRow[]>("/admin/system-settings", { signal })),
  });
  const save = useMutation({
    mutationFn: (s: AccessLogSettings) =>
      api.put<unknown>("/admin/system-settings", {
        access_log_privacy_mode: s.privacyMode,
        access_log_ip: s.ipLogging,
        access_log_retention_days: s.retentionDays,
      }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ["settings"] }),
  });
  const [privacyMode, setPrivacyMode] = useState(false);
  const [ipLogging, setIpLogging] = useState(false);
  const [days, setDays] = useState("90");
  const [invalid, setInvalid] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!query.data) return;
    setPrivacyMode(query.data.privacyMode);
    setIpLogging(query.data.ipLogging);
    setDays(String(query.data.retentionDays));
  }, [query.data]);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const value = Number(days.trim());
    const bad = !days.trim() || !Number.isInteger(value) || value < 0 || value > 36500;
    setInvalid(bad);
    if (bad) return;
    setError(null);
    try {
      await save.mutateAsync({ privacyMode, ipLogging, retentionDays: value });
      toast(t("settings.saved"), "success");
    } catch (err) {
      setError(errorText(err));
    }
  }

  return (
    <Card aria-labelledby="settings-access-log-title">
      <CardHeader
        titleId="settings-access-log-title"
        title={t("accessLog.settings.title")}
        description={t("accessLog.settings.description")}
      />
      <div className="p-5">
        {query.isPending ? (
          <Spinner />
        ) : query.isError ? (
          <Alert>{errorText(query.error)}</Alert>
        ) : (
          <form onSubmit={submit} noValidate className="space-y-4">
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
            {error ? <Alert>{error}</Alert> : null}
            <div className="flex justify-end">
              <Button type="submit" disabled={save.isPending}>
                {save.isPending ? t("common.saving") : t("common.save")}
              </Button>
            </div>
          </form>
        )}
      </div>
    </Card>
  );
}
