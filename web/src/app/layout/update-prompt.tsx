import { RefreshCw } from "lucide-react";
import { PromptBar } from "../../components/ui/prompt-bar";
import { useTranslation } from "../../i18n";
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
