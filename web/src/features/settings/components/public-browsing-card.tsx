import { useEffect, useState } from "react";
import { SettingsFormCard } from "../../../components/settings-form-card";
import { CheckboxField } from "../../../components/ui/checkbox";
import { TextField } from "../../../components/ui/form";
import { useTranslation } from "../../../i18n";
import { type SettingRows, useSystemSettings } from "../../../lib/use-system-settings";

interface PublicBrowsingSettings {
  webdav: boolean;
  downloadLimit: number;
}

const LIMIT_MAX = 1_000_000;

function parse(rows: SettingRows): PublicBrowsingSettings {
  const get = (key: string) => rows.find((r) => r.key === key)?.value;
  const limit = Number(get("public_download_limit"));
  return {
    webdav: get("public_webdav") === "true",
    downloadLimit: Number.isInteger(limit) && limit >= 0 ? limit : 600,
  };
}

/**
 * Settings card of public browsing (which mounts and folders are public is set on the mount and
 * in folder settings): WebDAV for visitors, and how many downloads one address may make an hour.
 */
export function PublicBrowsingCard() {
  const { t } = useTranslation();
  const { query, save } = useSystemSettings("public-browsing", parse, (s: PublicBrowsingSettings) => ({
    public_webdav: s.webdav,
    public_download_limit: s.downloadLimit,
  }));
  const [webdav, setWebdav] = useState(false);
  const [limit, setLimit] = useState("600");
  const [invalid, setInvalid] = useState(false);

  useEffect(() => {
    if (!query.data) return;
    setWebdav(query.data.webdav);
    setLimit(String(query.data.downloadLimit));
  }, [query.data]);

  function onSave() {
    const value = Number(limit.trim());
    const bad = !limit.trim() || !Number.isInteger(value) || value < 0 || value > LIMIT_MAX;
    setInvalid(bad);
    if (bad) return false;
    return save.mutateAsync({ webdav, downloadLimit: value });
  }

  return (
    <SettingsFormCard
      id="settings-public-browsing"
      title={t("settings.publicBrowsing.title")}
      description={t("settings.publicBrowsing.description")}
      query={query}
      saving={save.isPending}
      onSave={onSave}
    >
      <CheckboxField
        label={t("settings.publicBrowsing.webdav")}
        description={t("settings.publicBrowsing.webdavHint")}
        checked={webdav}
        onCheckedChange={setWebdav}
      />
      <TextField
        label={t("settings.publicBrowsing.limit")}
        hint={t("settings.publicBrowsing.limitHint")}
        error={invalid ? t("settings.publicBrowsing.limitInvalid") : null}
        type="number"
        inputMode="numeric"
        min={0}
        max={LIMIT_MAX}
        step={1}
        value={limit}
        onChange={(e) => setLimit(e.target.value)}
        controlClassName="sm:max-w-48"
      />
    </SettingsFormCard>
  );
}
