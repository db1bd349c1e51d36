import { FolderTree } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { PlaceholderPage } from "../../../components/placeholder-page";

/** The mount browser (list, grid and gallery views) lands here; the path is the splat. */
export function ExplorerPage() {
  const { t } = useTranslation();
  const params = useParams();
  const path = `/${params["*"] ?? ""}`;
  return (
    <PlaceholderPage icon={FolderTree} title={t("explorer.title")} description={t("explorer.description")}>
      <p className="mt-4 font-mono text-xs text-slate-500" aria-label={t("explorer.currentPath")}>
        {path}
      </p>
    </PlaceholderPage>
  );
}
