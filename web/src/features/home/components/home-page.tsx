import { ClipboardPaste } from "lucide-react";
import { useTranslation } from "react-i18next";
import { PlaceholderPage } from "../../../components/placeholder-page";

/** Home: the online clipboard editor (text and Markdown pastes) lands here. */
export function HomePage() {
  const { t } = useTranslation();
  return (
    <PlaceholderPage icon={ClipboardPaste} title={t("home.title")} description={t("home.description")} />
  );
}
