import type { AdminLogin, SsoSettings, SsoSettingsBody, SsoStatus } from "@clipshare/shared";
import { api, apiBase } from "../api";

/** Single sign-on: the public status, the hand-off of a finished sign-in, the administrator's settings. */
export const ssoApi = {
  status: (signal?: AbortSignal) => api.get<SsoStatus>("/auth/oidc/status", { signal, auth: "none" }),
  exchange: (code: string) => api.post<AdminLogin>("/auth/oidc/exchange", { code }, { auth: "none" }),
  settings: (signal?: AbortSignal) => api.get<SsoSettings>("/admin/sso-settings", { signal }),
  saveSettings: (body: Partial<SsoSettingsBody>) => api.put<SsoSettings>("/admin/sso-settings", body),
  /** A full navigation: the server redirects to the provider and keeps the state in a cookie. */
  startUrl: () => `${apiBase.url}/api/auth/oidc/start`,
};
