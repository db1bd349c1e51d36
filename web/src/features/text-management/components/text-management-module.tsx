import { FileText } from "lucide-react";
import { useTranslation } from "react-i18next";
import { PlaceholderPage } from "../../../components/placeholder-page";

/** Admin module placeholder until its feature lands. */
export function TextManagementModule() {
  const { t } = useTranslation();
  return <PlaceholderPage headingLevel={2} icon={FileText} title={t("admin.modules.textManagement")} />;
}
