import { RefreshCw } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Button } from "../../components/ui/button";
import { pwaStore, useUpdateAvailable } from "../../lib/pwa";

export function UpdatePrompt() {
  const { t } = useTranslation();
  const available = useUpdateAvailable();
  if (!available) return null;
  return (
    <div
      role="alertdialog"
      aria-labelledby="update-prompt-title"
      className="fixed bottom-4 left-4 z-50 flex max-w-sm items-center gap-3 rounded-xl border border-slate-200 bg-white px-4 py-3 text-sm shadow-lg dark:border-slate-700 dark:bg-slate-900"
    >
      <RefreshCw className="h-4 w-4 shrink-0 text-indigo-500" aria-hidden />
      <p id="update-prompt-title" className="flex-1">
        {t("pwa.updateAvailable")}
      </p>
      <Button size="sm" variant="ghost" onClick={() => pwaStore.dismiss()}>
        {t("pwa.later")}
      </Button>
      <Button size="sm" onClick={() => void pwaStore.update()}>
        {t("pwa.reload")}
      </Button>
    </div>
  );
}
