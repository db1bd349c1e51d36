import { OFFLINE_TOAST_MS } from "@clipshare/shared";
import { type TranslationKey, translate } from "../i18n";
import { AUTH_EVENTS } from "./auth-store";
import { toast } from "./notices";
import { hasLocalDatabase, loadOfflineLayer } from "./offline/offline-layer";

/**
 * Turns app-wide events into notices: a session the server ended (possibly
 * during the very first route check, before anything renders) and connectivity.
 * Installed once at startup; texts are looked up when the notice is shown.
 */
export function installAppNotices(): void {
  const t = (key: TranslationKey) => () => translate(key);
  window.addEventListener(AUTH_EVENTS.adminTokenExpired, () =>
    toast(t("errors.adminSessionExpired"), "error", 6000),
  );
  window.addEventListener(AUTH_EVENTS.apiKeyInvalid, () => toast(t("errors.apiKeyInvalid"), "error", 6000));
  window.addEventListener("offline", () => toast(t("network.offline"), "error", OFFLINE_TOAST_MS));
  window.addEventListener("online", () => {
    toast(t("network.online"), "success", OFFLINE_TOAST_MS);
    // Back online: send the writes made meanwhile (none without a local database).
    void hasLocalDatabase()
      .then(async (stored) => stored && (await loadOfflineLayer()).syncOfflineQueue())
      .catch(() => undefined);
  });
}
