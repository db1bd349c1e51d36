import { BellRing } from "lucide-react";
import { useTranslation } from "../../i18n";
import type { RowAction } from "../list/data-list";

/** The "Notifications" action of a share or request row, named after what it sets them for. */
export function useNotificationsAction(): (name: string, open: () => void, disabled?: boolean) => RowAction {
  const { t } = useTranslation();
  return (name, open, disabled) => ({
    id: "notifications",
    label: t("notifications.rule.openNamed", { name }),
    title: t("notifications.rule.open"),
    icon: BellRing,
    disabled,
    onClick: open,
  });
}
