import { useEffect, useState } from "react";
import { SettingsFormCard } from "../../../components/settings-form-card";
import { CheckboxField } from "../../../components/ui/checkbox";
import { useTranslation } from "../../../i18n";
import { type SettingRows, useSystemSettings } from "../../../lib/use-system-settings";

const parse = (rows: SettingRows) =>
  rows.find((r) => r.key === "require_admin_second_factor")?.value === "true";

/**
 * Settings card: administrators must have a second factor. The server refuses to turn it on for
 * an administrator without one (the card shows why), so nobody locks themselves out.
 */
export function AdminSecondFactorCard() {
  const { t } = useTranslation();
  const { query, save } = useSystemSettings("admin-second-factor", parse, (on: boolean) => ({
    require_admin_second_factor: on,
  }));
  const [required, setRequired] = useState(false);
  useEffect(() => {
    if (query.data !== undefined) setRequired(query.data);
  }, [query.data]);

  return (
    <SettingsFormCard
      id="settings-admin-second-factor"
      title={t("settings.adminSecondFactor.title")}
      description={t("settings.adminSecondFactor.description")}
      query={query}
      saving={save.isPending}
      onSave={() => save.mutateAsync(required)}
    >
      <CheckboxField
        label={t("settings.adminSecondFactor.require")}
        description={t("settings.adminSecondFactor.requireHint")}
        checked={required}
        onCheckedChange={setRequired}
      />
    </SettingsFormCard>
  );
}
