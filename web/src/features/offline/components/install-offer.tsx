import { Download } from "lucide-react";
import { PromptBar } from "../../../components/ui/prompt-bar";
import { useTranslation } from "../../../i18n";
import { installPrompt, useInstallOffer } from "../../../lib/install-prompt";

/** "Install ClipShare" while the browser offers it (see lib/install-prompt.ts). */
export function InstallOffer() {
  const { t } = useTranslation();
  if (!useInstallOffer()) return null;
  return (
    <PromptBar
      id="install-offer-title"
      icon={Download}
      text={t("offlineApp.install.text")}
      laterLabel={t("offlineApp.install.later")}
      acceptLabel={t("offlineApp.install.action")}
      onLater={() => installPrompt.dismiss()}
      onAccept={() => void installPrompt.install()}
      className="right-4 bottom-20"
    />
  );
}
