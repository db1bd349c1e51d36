import { RefreshCw } from "lucide-react";
import { useTranslation } from "react-i18next";
import { PromptBar } from "../../components/ui/prompt-bar";
import { pwaStore, useUpdateAvailable } from "../../lib/pwa";

export function UpdatePrompt() {
  const { t } = useTranslation();
  const available = useUpdateAvailable();
  if (!available) return null;
  return (
    <PromptBar
      id="update-prompt-title"
      role="alertdialog"
      icon={RefreshCw}
      text={t("pwa.updateAvailable")}
      laterLabel={t("pwa.later")}
      acceptLabel={t("pwa.reload")}
      onLater={() => pwaStore.dismiss()}
      onAccept={() => void pwaStore.update()}
      className="bottom-4 left-4"
    />
  );
}
