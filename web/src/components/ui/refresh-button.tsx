import { RefreshCw } from "lucide-react";
import { useTranslation } from "../../i18n";
import { Button } from "./button";

/** "Refresh" as an icon button; the icon spins while the data is being fetched again. */
export function RefreshButton({ busy, onClick }: { busy: boolean; onClick: () => void }) {
  const { t } = useTranslation();
  return (
    <Button
      variant="outline"
      size="icon"
      aria-label={t("common.refresh")}
      title={t("common.refresh")}
      onClick={onClick}
    >
      <RefreshCw className={busy ? "h-4 w-4 animate-spin" : "h-4 w-4"} aria-hidden />
    </Button>
  );
}
