import { FileText } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { PlaceholderPage } from "../../../components/placeholder-page";

/** Viewing a shared paste by its slug lands here. */
export function PastePage() {
  const { t } = useTranslation();
  const { slug = "" } = useParams();
  return (
    <PlaceholderPage
      icon={FileText}
      title={t("pasteView.title")}
      description={t("pasteView.description", { slug })}
    />
  );
}
