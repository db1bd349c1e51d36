import { Ban, CalendarX2, Home, SearchX } from "lucide-react";
import { Link } from "react-router";
import { StatusCard } from "../../../components/status-card";
import { buttonClasses } from "../../../components/ui/button";
import { useTranslation } from "../../../i18n";
import type { UnavailableReason } from "../paste-status";

const ICONS = { notFound: SearchX, expired: CalendarX2, viewLimit: Ban } as const;

/** The three pages a paste link can end on instead of its text. */
export function PasteUnavailable({ reason }: { reason: UnavailableReason }) {
  const { t } = useTranslation();
  const Icon = ICONS[reason];
  return (
    <StatusCard
      icon={Icon}
      tone={reason === "notFound" ? "neutral" : "warning"}
      title={t(`pasteView.unavailable.${reason}.title`)}
      description={t(`pasteView.unavailable.${reason}.description`)}
      data-reason={reason}
      actions={
        <Link to="/" className={buttonClasses("primary")}>
          <Home className="h-4 w-4" aria-hidden />
          {t("pasteView.unavailable.home")}
        </Link>
      }
    />
  );
}
