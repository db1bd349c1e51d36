import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "../../components/ui/toast";
import { AUTH_EVENTS } from "../../lib/auth-store";

/** Turns app-wide events (session ended by the server, connectivity) into notices. */
export function AppNotices() {
  const { t } = useTranslation();
  useEffect(() => {
    const onAdminExpired = () => toast(t("errors.adminSessionExpired"), "error");
    const onKeyInvalid = () => toast(t("errors.apiKeyInvalid"), "error");
    const onOffline = () => toast(t("network.offline"), "error", 3000);
    const onOnline = () => toast(t("network.online"), "success", 3000);
    window.addEventListener(AUTH_EVENTS.adminTokenExpired, onAdminExpired);
    window.addEventListener(AUTH_EVENTS.apiKeyInvalid, onKeyInvalid);
    window.addEventListener("offline", onOffline);
    window.addEventListener("online", onOnline);
    return () => {
      window.removeEventListener(AUTH_EVENTS.adminTokenExpired, onAdminExpired);
      window.removeEventListener(AUTH_EVENTS.apiKeyInvalid, onKeyInvalid);
      window.removeEventListener("offline", onOffline);
      window.removeEventListener("online", onOnline);
    };
  }, [t]);
  return null;
}
