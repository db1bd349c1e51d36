import type { ProxySignSettings, SystemSettingRow } from "@clipshare/shared";
import { api } from "../../../lib/api";

export const SIZE_UNITS = ["KB", "MB", "GB"] as const;
export type SizeUnit = (typeof SIZE_UNITS)[number];
export const WEBDAV_UPLOAD_MODES = ["direct", "multipart"] as const;
export type WebdavUploadMode = (typeof WEBDAV_UPLOAD_MODES)[number];

/** A row of GET /api/admin/system-settings (values are strings). */
export type SettingRow = Pick<SystemSettingRow, "key" | "value">;

export interface SystemSettings {
  maxUploadSize: number;
  maxUploadSizeUnit: SizeUnit;
  webdavUploadMode: WebdavUploadMode;
}

export type { ProxySignSettings };

export function parseSystemSettings(rows: SettingRow[]): SystemSettings {
  const get = (key: string) => rows.find((r) => r.key === key)?.value;
  const size = Number(get("max_upload_size"));
  const unit = get("max_upload_size_unit");
  const mode = get("webdav_upload_mode");
  return {
    maxUploadSize: Number.isFinite(size) && size > 0 ? size : 100,
    maxUploadSizeUnit: (SIZE_UNITS as readonly string[]).includes(unit ?? "") ? (unit as SizeUnit) : "MB",
    webdavUploadMode: mode === "multipart" ? "multipart" : "direct",
  };
}

export const settingsApi = {
  async system(signal?: AbortSignal): Promise<SystemSettings> {
    const rows = await api.get<SettingRow[]>("/admin/system-settings", { signal });
    return parseSystemSettings(Array.isArray(rows) ? rows : []);
  },
  saveSystem: (s: SystemSettings) =>
    api.put<unknown>(
      "/admin/system-settings",
      {
        max_upload_size: s.maxUploadSize,
        max_upload_size_unit: s.maxUploadSizeUnit,
        webdav_upload_mode: s.webdavUploadMode,
      },
      { offline: "settings-system" },
    ),
  async proxySign(signal?: AbortSignal): Promise<ProxySignSettings> {
    const data = await api.get<Partial<ProxySignSettings> | null>("/admin/proxy-sign-settings", { signal });
    return { signAll: data?.signAll === true, expires: typeof data?.expires === "number" ? data.expires : 0 };
  },
  saveProxySign: (s: ProxySignSettings) => api.post<unknown>("/admin/proxy-sign-settings", s),
};
