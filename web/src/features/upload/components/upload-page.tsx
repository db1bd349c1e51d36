import { Upload } from "lucide-react";
import { useTranslation } from "react-i18next";
import { PlaceholderPage } from "../../../components/placeholder-page";

/** File upload and URL upload (with recent uploads) land here. */
export function UploadPage() {
  const { t } = useTranslation();
  return <PlaceholderPage icon={Upload} title={t("upload.title")} description={t("upload.description")} />;
}
