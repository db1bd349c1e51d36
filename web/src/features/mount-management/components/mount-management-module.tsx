import { FolderCog } from "lucide-react";
import { useTranslation } from "react-i18next";
import { PlaceholderPage } from "../../../components/placeholder-page";

/** Admin module placeholder until its feature lands. */
export function MountManagementModule() {
  const { t } = useTranslation();
  return <PlaceholderPage headingLevel={2} icon={FolderCog} title={t("admin.modules.mountManagement")} />;
}
