import { File } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { PlaceholderPage } from "../../../components/placeholder-page";

/** The preview of a shared file by its slug lands here. */
export function FilePage() {
  const { t } = useTranslation();
  const { slug = "" } = useParams();
  return (
    <PlaceholderPage
      icon={File}
      title={t("fileView.title")}
      description={t("fileView.description", { slug })}
    />
  );
}
