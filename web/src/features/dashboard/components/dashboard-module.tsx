import { LayoutDashboard } from "lucide-react";
import { useTranslation } from "react-i18next";
import { PlaceholderPage } from "../../../components/placeholder-page";

/** Admin module placeholder until its feature lands. */
export function DashboardModule() {
  const { t } = useTranslation();
  return <PlaceholderPage headingLevel={2} icon={LayoutDashboard} title={t("admin.modules.dashboard")} />;
}
