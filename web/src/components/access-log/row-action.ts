import { History } from "lucide-react";
import { useTranslation } from "../../i18n";
import type { RowAction } from "../list/data-list";

/** The "Access log" action of a share row, named after the share it opens the log of. */
export function useAccessLogAction(): (name: string, open: () => void, disabled?: boolean) => RowAction {
  const { t } = useTranslation();
  return (name, open, disabled) => ({
    id: "access-log",
    label: t("accessLog.openNamed", { name }),
    title: t("accessLog.open"),
    icon: History,
    disabled,
    onClick: open,
  });
}
